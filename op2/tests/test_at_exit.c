/*
 * test_at_exit - op_exit's teardown list (op_at_exit.h): every module of the
 * core that allocated joins it (the registry, op_renumber's numberings, the
 * timing table, the plan cache, what plans learn of the maps, the profile's
 * regions), each once however often
 * it joins, and op_exit runs them the last joined first and forgets them;
 * op_exit twice runs nothing twice; op_init after op_exit starts afresh.
 * Three rounds of op_init ... op_exit, each declaring, renumbering, timing,
 * planning and profiling, and each finding nothing of the round before (the
 * debug preset's leak checker sees the rounds' memory freed as well).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "op2.h"
#include "op2_loop.h"
#include "op_at_exit.h"
#include "op_decl.h"
#include "op_plan.h"
#include "op_plan_parts.h"

#include "test_expect.h"

/* Two modules of the test's own, around the core's: "first" joins before
 * anything is declared, "last" after every core module has joined. */
static int first_runs, last_runs, runs;
static int first_at, last_at; /* when each ran (1, 2, ...) */
static int sets_seen_by_first, sets_seen_by_last;

static void first_teardown(void) {
  first_runs++;
  first_at = ++runs;
  sets_seen_by_first = op_num_sets();
}

static void last_teardown(void) {
  last_runs++;
  last_at = ++runs;
  sets_seen_by_last = op_num_sets();
}

/* What fn prints on stdout, into text (NUL-terminated, cut to size). */
static void captured(void (*fn)(void), char *text, size_t size) {
  text[0] = '\0';
  FILE *tmp = tmpfile();
  if (!tmp) {
    perror("test_at_exit: tmpfile");
    exit(2);
  }
  fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  if (saved < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0) {
    perror("test_at_exit: dup2");
    exit(2);
  }
  fn();
  fflush(stdout);
  if (dup2(saved, STDOUT_FILENO) < 0) {
    perror("test_at_exit: dup2");
    exit(2);
  }
  close(saved);
  rewind(tmp);
  const size_t n = fread(text, 1, size - 1, tmp);
  text[n] = '\0';
  fclose(tmp);
}

static void timing_json_to_stdout(void) { op_timing_json(stdout); }

enum { NNODE = 8, NEDGE = 7 };

static void round_of(int round, int argc, char **argv) {
  op_init(argc, argv, 0);
  CHECK(op_at_exit_count() == 0, "round %d: op_init finds %d modules still on the list", round,
         op_at_exit_count());
  op_at_exit(first_teardown, "first");

  /* A chain of nodes, declared again each round with the same names. */
  int e2n[2 * NEDGE];
  for (int e = 0; e < NEDGE; e++) e2n[2 * e] = e, e2n[2 * e + 1] = e + 1;
  double x[NNODE] = {0};
  op_set nodes = op_decl_set(NNODE, "nodes");
  op_set edges = op_decl_set(NEDGE, "edges");
  op_map pedge = op_decl_map(edges, nodes, 2, e2n, "pedge");
  op_dat dx = op_decl_dat(nodes, 1, "double", x, "x");
  CHECK(op_num_sets() == 2, "round %d: %d sets declared after op_exit and op_init, not 2", round,
         op_num_sets());
  CHECK(!op_set_user_ids(nodes), "round %d: a new set has the numbering of a set op_renumber "
         "renumbered before op_exit", round);

  op_renumber(pedge);
  CHECK(op_set_user_ids(nodes) != NULL, "round %d: op_renumber left nodes without a numbering",
         round);
  op_timer_find("a timer");
  op_arg arg = op_arg_dat(dx, 0, pedge, 1, "double", OP_INC);
  op_plan_get("a loop", edges, 4, 1, &arg, 0);
  CHECK(op_plan_cache_size() == 1, "round %d: %d plans cached, not 1", round,
         op_plan_cache_size());
  /* What the plans learn of a map, without a cached plan. */
  op_args_conflict_free(1, &arg, NEDGE, 0);
  op_plan_interleave_breaks(pedge, 2);
  op_profile_start("left open");
  /* Joining again changes nothing: each runs once, in its first place. */
  op_at_exit(last_teardown, "last");
  op_at_exit(first_teardown, "first again");
  op_timer_find("another timer");

  static const char *const joined[] = {"first",
                                       "registry",
                                       "renumber",
                                       "timing",
                                       "plans",
                                       "affine runs of maps",
                                       "map columns",
                                       "interleaved runs of maps",
                                       "profile",
                                       "last"};
  const int n = (int)(sizeof joined / sizeof *joined);
  CHECK(op_at_exit_count() == n, "round %d: %d modules joined, not %d", round,
         op_at_exit_count(), n);
  for (int i = 0; i < n; i++) {
    const char *name = op_at_exit_name(i);
    CHECK(name && !strcmp(name, joined[i]), "round %d: module %d to join is \"%s\", not \"%s\"",
           round, i, name ? name : "(none)", joined[i]);
  }
  CHECK(!op_at_exit_name(n) && !op_at_exit_name(-1), "round %d: a name outside the list", round);

  first_runs = last_runs = runs = 0;
  op_exit();
  /* The last to join ran first, with the registry still there; the first
   * ran last, after the registry (which joined after it) was gone. */
  CHECK(last_runs == 1 && first_runs == 1, "round %d: op_exit ran \"last\" %d times and "
         "\"first\" %d times, not once each", round, last_runs, first_runs);
  CHECK(last_at < first_at, "round %d: \"first\" ran before \"last\", which joined after it",
         round);
  CHECK(sets_seen_by_last == 2, "round %d: the registry was gone (%d sets) before \"last\", "
         "which joined after it, ran", round, sets_seen_by_last);
  CHECK(sets_seen_by_first == 0, "round %d: the registry held %d sets when \"first\", which "
         "joined before it, ran", round, sets_seen_by_first);
  CHECK(op_at_exit_count() == 0, "round %d: %d modules left on the list after op_exit", round,
         op_at_exit_count());
  CHECK(op_num_sets() == 0 && op_num_maps() == 0 && op_num_dats() == 0,
         "round %d: op_exit left %d sets, %d maps, %d dats", round, op_num_sets(), op_num_maps(),
         op_num_dats());
  CHECK(op_plan_cache_size() == 0, "round %d: op_exit left %d plans", round,
         op_plan_cache_size());
  char text[4096];
  captured(timing_json_to_stdout, text, sizeof text);
  CHECK(!strcmp(text, "[]"), "round %d: op_exit left timers: %s", round, text);
  captured(op_profile_output, text, sizeof text);
  CHECK(!strstr(text, "left open"), "round %d: op_exit left a profile region:\n%s", round, text);

  op_exit();
  CHECK(last_runs == 1 && first_runs == 1, "round %d: op_exit twice ran a teardown again", round);
}

int main(int argc, char **argv) {
  for (int round = 1; round <= 3; round++) round_of(round, argc, argv);
  return check_exit("at_exit");
}
