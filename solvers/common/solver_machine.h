/*
 * solver_machine.h - the machine a run used, for result.json: host name, CPU
 * model, logical cores, and the NVIDIA GPUs the driver lists (whether or not
 * the run used one).
 */
#ifndef SOLVER_COMMON_MACHINE_H
#define SOLVER_COMMON_MACHINE_H

#include "result_json.h"

#define SOLVER_MAX_GPUS 16

typedef struct {
  char hostname[256];
  char cpu_model[256]; /* "unknown" when /proc/cpuinfo does not say */
  int cores;           /* logical CPUs online */
  int ngpus;
  char gpus[SOLVER_MAX_GPUS][128];
} solver_machine;

void solver_machine_probe(solver_machine *m);
/* {"hostname", "cpu_model", "cores", "gpus": [...]} */
void solver_machine_json(const solver_machine *m, json_writer *w);

#endif
