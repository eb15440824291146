/*
 * op_offload_options.c - the offload backend's options and its choice of
 * strategy per loop: plain C without OpenMP, so that the unit tests check them
 * directly (docs/offload.md, "Options").
 */
#include <stdlib.h>
#include <string.h>

#include "op2_error.h"
#include "op_offload.h"
#include "op_omp_threads.h"

static const char *const strategy_names[OP_OFFLOAD_NSTRATEGIES] = {"parallel", "atomic", "colour",
                                                                   "mask", "blocks"};

const char *op_offload_strategy_name(int strategy) {
  return strategy >= 0 && strategy < OP_OFFLOAD_NSTRATEGIES ? strategy_names[strategy] : "?";
}

int op_offload_strategy_from_name(const char *name) {
  for (int s = 0; s < OP_OFFLOAD_NSTRATEGIES; s++)
    if (!strcmp(name, strategy_names[s])) return s;
  if (!strcmp(name, "color")) return OP_OFFLOAD_COLOUR;
  return -1;
}

/* "--op-NAME=" prefix of arg: its value, else NULL. */
static const char *value_of(const char *arg, const char *option) {
  size_t n = strlen(option);
  return strncmp(arg, option, n) == 0 ? arg + n : NULL;
}

/* The value of a count option: an integer in [0, most], 0 for the runtime's choice. */
static int count_value(const char *arg, const char *v, long most) {
  char *end;
  long n = strtol(v, &end, 10);
  if (end == v || *end || n < 0 || n > most)
    op_fatal("option %s: expected an integer in [0, %ld] (0: the OpenMP runtime's choice)", arg,
             most);
  return (int)n;
}

int op_offload_parse_option(op_offload_options *o, const char *arg) {
  const char *v;
  if ((v = value_of(arg, "--op-device="))) {
    char *end;
    long d = strtol(v, &end, 10);
    if (end == v || *end || d < 0 || d > 255)
      op_fatal("option %s: the device number must be an integer in [0, 255]", arg);
    o->device = (int)d;
  } else if ((v = value_of(arg, "--op-offload-data="))) {
    if (!strcmp(v, "resident"))
      o->per_loop = 0;
    else if (!strcmp(v, "loop"))
      o->per_loop = 1;
    else
      op_fatal("option %s: expected resident (data stays on the device between loops) or loop "
               "(copied in and out around every loop)",
               arg);
  } else if ((v = value_of(arg, "--op-offload-layout="))) {
    if (!strcmp(v, "aos"))
      o->soa = 0;
    else if (!strcmp(v, "soa"))
      o->soa = 1;
    else
      op_fatal("option %s: expected aos (as on the host) or soa (multi-component dats "
               "component by component on the device)",
               arg);
  } else if ((v = value_of(arg, "--op-offload-host="))) {
    if (!strcmp(v, "parallel"))
      o->host_target = 0;
    else if (!strcmp(v, "target"))
      o->host_target = 1;
    else
      op_fatal("option %s: expected parallel (ordinary parallel loops when there is no "
               "device) or target (the target regions, run by OpenMP's host fallback)",
               arg);
  } else if ((v = value_of(arg, "--op-offload-strategy="))) {
    int s = op_offload_strategy_from_name(v);
    if (s < 0 || s == OP_OFFLOAD_PARALLEL)
      op_fatal("option %s: expected atomic, colour, mask or blocks", arg);
    o->strategy = s;
  } else if ((v = value_of(arg, "--op-offload-teams="))) {
    o->teams = count_value(arg, v, 1 << 20);
  } else if ((v = value_of(arg, "--op-offload-thread-limit="))) {
    o->thread_limit = count_value(arg, v, 1024);
  } else if (op_omp_threads_option(arg, &o->threads)) {
    return 1;
  } else {
    return 0;
  }
  return 1;
}

int op_offload_target_offload_mode(const char *env) {
  if (!env || !*env) return 0;
  /* libgomp compares without regard to case and ignores surrounding blanks. */
  while (*env == ' ' || *env == '\t') env++;
  size_t n = strlen(env);
  while (n > 0 && (env[n - 1] == ' ' || env[n - 1] == '\t')) n--;
  static const char *const names[3] = {"DEFAULT", "MANDATORY", "DISABLED"};
  for (int m = 0; m < 3; m++)
    if (strlen(names[m]) == n) {
      size_t k = 0;
      while (k < n && (env[k] == names[m][k] || env[k] == names[m][k] + ('a' - 'A'))) k++;
      if (k == n) return m;
    }
  return -1;
}

int op_offload_strategy_for(const op_offload_loop_desc *d, int increments_only, int asked) {
  if (d->blocks_only || asked == OP_OFFLOAD_BLOCKS) return OP_OFFLOAD_BLOCKS;
  if (!d->ind_writes) return OP_OFFLOAD_PARALLEL;
  if (asked == OP_OFFLOAD_COLOUR || asked == OP_OFFLOAD_MASK) return asked;
  /* Atomic (asked, or the default) where every indirect write is an increment. */
  return d->atomic_ok && increments_only ? OP_OFFLOAD_ATOMIC : OP_OFFLOAD_COLOUR;
}
