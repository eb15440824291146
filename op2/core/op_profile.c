/*
 * op_profile.c - OP2's profiling calls: named, nested wall-clock regions
 * (op_profile_start / op_profile_end), printed with the per-loop table by
 * op_profile_output; and OP2's op_timers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "op2.h"
#include "op2_loop.h"
#include "op2_error.h"
#include "op_at_exit.h"
#include "op_state.h"

#define MAX_DEPTH 64

typedef struct {
  char *path;   /* "outer/inner": a region is known by where it is nested */
  int depth;
  long calls;
  double seconds;
} region;

static region *regions;
static int nregions, cap_regions;
static struct {
  int region;
  double t0;
} open_stack[MAX_DEPTH];
static int depth;

static void profile_free(void);

static int find_or_add(const char *path) {
  for (int i = 0; i < nregions; i++)
    if (!strcmp(regions[i].path, path)) return i;
  if (nregions == cap_regions) {
    op_at_exit(profile_free, "profile");
    cap_regions = cap_regions ? 2 * cap_regions : 16;
    regions = op_realloc(regions, sizeof(*regions) * (size_t)cap_regions);
  }
  regions[nregions].path = op_strdup(path);
  regions[nregions].depth = depth;
  regions[nregions].calls = 0;
  regions[nregions].seconds = 0.0;
  return nregions++;
}

void op_profile_start(const char *name) {
  OP_CHECK(name && *name, "op_profile_start: a region needs a name");
  OP_CHECK(!strchr(name, '/'), "op_profile_start(\"%s\"): '/' separates nested regions", name);
  OP_CHECK(depth < MAX_DEPTH, "op_profile_start(\"%s\"): more than %d nested regions", name,
           MAX_DEPTH);
  const char *parent = depth ? regions[open_stack[depth - 1].region].path : "";
  size_t n = strlen(parent) + strlen(name) + 2;
  char *path = op_malloc(n);
  snprintf(path, n, "%s%s%s", parent, depth ? "/" : "", name);
  open_stack[depth].region = find_or_add(path);
  free(path);
  open_stack[depth].t0 = op_wtime();
  depth++;
}

void op_profile_end(void) {
  OP_CHECK(depth > 0, "op_profile_end without a matching op_profile_start");
  depth--;
  region *r = &regions[open_stack[depth].region];
  r->calls++;
  r->seconds += op_wtime() - open_stack[depth].t0;
}

void op_profile_output(void) {
  if (nregions) {
    printf("\n  %-32s %10s %12s\n", "region", "calls", "time (s)");
    printf("  %-32s %10s %12s\n", "--------------------------------", "----------",
           "------------");
    for (int i = 0; i < nregions; i++) {
      const char *name = strrchr(regions[i].path, '/');
      name = name ? name + 1 : regions[i].path;
      printf("  %*s%-*s %10ld %12.4f%s\n", 2 * regions[i].depth, "", 32 - 2 * regions[i].depth,
             name, regions[i].calls, regions[i].seconds,
             regions[i].calls == 0 ? "  (still open)" : "");
    }
  }
  op_timing_output();
}

/* Forgets every region (op_exit). */
static void profile_free(void) {
  for (int i = 0; i < nregions; i++) free(regions[i].path);
  free(regions);
  regions = NULL;
  nregions = cap_regions = depth = 0;
}

void op_timers_core(double *cpu, double *et) {
  if (cpu) *cpu = (double)clock() / (double)CLOCKS_PER_SEC;
  if (et) *et = op_wtime();
}

void op_timers(double *cpu, double *et) {
  /* Reading the loops' pending times waits for the last of them. */
  if (op_timing_collect) op_timing_collect();
  op_timers_core(cpu, et);
}
