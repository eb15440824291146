/*
 * op_init.c - start-up options and shut-down.
 *
 * Two entry points share one parser: op_init(argc, argv, diags) is OP2's and
 * leaves argv alone; op_init_strip_options(&argc, argv, diags) also takes the
 * options it recognised out of argv, for applications that parse the rest.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_loop.h"
#include "op_at_exit.h"
#include "op_dist.h"
#include "op_parallel.h"
#include "op_state.h"

static const char *usage =
    "  --op-diags=N        checks beyond the arguments' (always on): 0 none, 1 every new\n"
    "                      plan, 2 as 1 and print each new plan's statistics (env OP_DIAGS)\n"
    "  --op-part-size=N    elements per mini-partition (block) of a plan (env OP_PART_SIZE;\n"
    "                      default: the backend's, 16384 on the CPU backends; OP2's\n"
    "                      spelling OP_PART_SIZE=N is accepted too)\n"
    "  --op-huge-pages=N   1: big dats and maps in transparent huge pages where the system\n"
    "                      allows them, 0: normal pages (env OP_HUGE_PAGES; default 0:\n"
    "                      first touch costs less, loops may run a few % slower)\n"
    "  --op-thread-spread=N  OpenMP: each thread's share of a loop's blocks in N pieces\n"
    "                      spread over the set, 1 to 64 (default: the application's, 1)\n"
    "  --op-affine-runs=N  CPU backends: 1 run the affine and interleaved runs of a mesh\n"
    "                      as direct SIMD loops (default), 0 every element the general\n"
    "                      way, through the maps (env OP_AFFINE_RUNS; same results)\n"
    "  OP_NO_REALLOC       OP2's option: op_decl_dat keeps the application's array instead\n"
    "                      of a copy (one process; no op_renumber)\n"
    "  OP_AUTO_SOA         OP2's option (also env OP_AUTO_SOA): every dat as if declared\n"
    "                      \":soa\" (held component by component where a backend can)\n"
    "  OP_MAPS_BASE_INDEX=B  OP2's option: map entries are given numbered from B (0 or 1;\n"
    "                      default 0), as Fortran-born meshes number them\n";

const char *op_usage_text(void) {
  static char text[4096];
  snprintf(text, sizeof text, "%s%s%s", usage, op_backend_usage(),
           op_dist ? op_dist->usage() : "");
  return text;
}

static int parse_int_option(const char *what, const char *text, int lo, int hi) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno || end == text || *end != '\0' || v < lo || v > hi)
    op_fatal("%s: \"%s\" is not an integer in [%d, %d]", what, text, lo, hi);
  return (int)v;
}

/* Applies one command-line argument if it is a library option; returns 1 when
 * it was one (and so is the library's, not the application's). */
static int take_option(const char *a) {
  if (!strncmp(a, "--op-diags=", 11)) {
    op_g.diags = parse_int_option("option --op-diags", a + 11, 0, 9);
  } else if (!strncmp(a, "--op-part-size=", 15)) {
    op_g.part_size = parse_int_option("option --op-part-size", a + 15, 1, 1 << 20);
  } else if (!strncmp(a, "--op-thread-spread=", 19)) {
    op_g.thread_spread_option = parse_int_option("option --op-thread-spread", a + 19, 1, 64);
  } else if (!strncmp(a, "--op-affine-runs=", 17)) {
    op_g.affine_runs = parse_int_option("option --op-affine-runs", a + 17, 0, 1);
  } else if (!strncmp(a, "--op-huge-pages=", 16)) {
    op_set_huge_pages(parse_int_option("option --op-huge-pages", a + 16, 0, 1));
  } else if (!strncmp(a, "OP_PART_SIZE=", 13)) {
    op_g.part_size = parse_int_option("option OP_PART_SIZE", a + 13, 1, 1 << 20);
  } else if (!strcmp(a, "OP_NO_REALLOC")) {
    op_g.no_realloc = 1;
  } else if (!strcmp(a, "OP_AUTO_SOA")) {
    op_g.auto_soa = 1;
  } else if (!strncmp(a, "OP_MAPS_BASE_INDEX=", 19)) {
    op_g.maps_base_index = parse_int_option("option OP_MAPS_BASE_INDEX", a + 19, 0, 1);
  } else if (!strncmp(a, "--op-", 5)) {
    if (!op_backend_option(a) && !(op_dist && op_dist->option(a)))
      op_fatal("unknown OP2 option \"%s\" for the %s backend; OP2 options are:\n%s", a,
               op_backend_name(), op_usage_text());
  } else {
    return 0;
  }
  return 1;
}

/* 1 when one of the application's arguments asks for its help or version
 * (-h, --help, --help-markdown, --version). */
static int asks_for_help(int argc, char **argv) {
  for (int i = 1; i < argc && argv[i]; i++)
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help") ||
        !strcmp(argv[i], "--help-markdown") || !strcmp(argv[i], "--version"))
      return 1;
  return 0;
}

void op_start(void) {
  if (op_g.started) return;
  op_g.started = 1;
  if (op_dist) op_dist->init();
  op_backend_init();
}

/* argc_io is NULL for op_init (argv read only), else updated as argv is. A
 * program that strips the options and was asked for its help or version
 * answers without starting its backend or MPI (a CUDA build on a machine
 * without a GPU, an MPI one outside mpirun, prints its usage and nothing
 * else); should it declare something after all, the first declaration
 * starts them (op_start). */
static void init(int argc, char **argv, int *argc_io, int diags) {
  OP_CHECK(!op_g.initialised, "op_init called twice");
  OP_CHECK(argc >= 0 && (argc == 0 || argv), "op_init: argc is %d but argv is %s", argc,
           argv ? "given" : "NULL");
  const int defer = argc_io && asks_for_help(argc, argv);
  /* Many processes: MPI starts first, so that every message can name its rank. */
  op_g.started = 0;
  if (op_dist && !defer) {
    op_dist->init();
    op_g.started = 1;
  }
  op_g.initialised = 1;
  op_g.exited = 0;
  op_g.diags = diags;
  op_g.part_size = op_backend_default_part_size();
  op_g.thread_spread_option = 0; /* op_g.thread_spread: the application's, set any time */
  op_g.affine_runs = 1;
  op_g.no_realloc = 0;
  /* op_g.auto_soa: op_init_soa's, or OP2's OP_AUTO_SOA set at all, whatever its value. */
  if (getenv("OP_AUTO_SOA")) op_g.auto_soa = 1;
  const char *env = getenv("OP_DIAGS");
  if (env && *env) op_g.diags = parse_int_option("environment variable OP_DIAGS", env, 0, 9);
  env = getenv("OP_HUGE_PAGES");
  if (env && *env) op_set_huge_pages(parse_int_option("environment variable OP_HUGE_PAGES", env, 0, 1));
  env = getenv("OP_AFFINE_RUNS");
  if (env && *env)
    op_g.affine_runs = parse_int_option("environment variable OP_AFFINE_RUNS", env, 0, 1);
  env = getenv("OP_PART_SIZE");
  if (env && *env)
    op_g.part_size = parse_int_option("environment variable OP_PART_SIZE", env, 1, 1 << 20);
  int out = 1;
  for (int i = 1; i < argc; i++) {
    if (!argv[i]) break;
    if (!take_option(argv[i]) && argc_io) argv[out++] = argv[i];
  }
  if (argc_io && argc > 0) {
    argv[out] = NULL;
    *argc_io = out;
  }
  if (!defer) {
    op_g.started = 1;
    op_backend_init();
  }
}

void op_init(int argc, char **argv, int diags) { init(argc, argv, NULL, diags); }

void op_init_soa(int argc, char **argv, int diags, int soa) {
  op_g.auto_soa = soa != 0;
  init(argc, argv, NULL, diags);
}

void op_init_strip_options(int *argc, char **argv, int diags) {
  OP_CHECK(argc, "op_init_strip_options: argc is NULL (pass &argc)");
  init(*argc, argv, argc, diags);
}

void op_exit(void) {
  if (!op_g.initialised) return;
  if (op_g.started) op_backend_exit();
  /* Every module that allocated since op_init (op_at_exit.h): the plans,
   * numberings, timers and profile regions, then the registry they name. */
  op_at_exit_run();
  op_g.initialised = 0;
  op_g.exited = 1;
  op_g.auto_soa = 0;
  if (op_dist && op_g.started) op_dist->exit();
  op_g.started = 0;
}

int op_diags_level(void) { return op_g.diags; }

void op_set_thread_spread(int pieces) {
  OP_CHECK(pieces >= 1 && pieces <= 64, "op_set_thread_spread: %d pieces a thread is not in [1, 64]",
           pieces);
  op_g.thread_spread = pieces;
}

int op_thread_spread(void) {
  if (op_g.thread_spread_option > 0) return op_g.thread_spread_option;
  return op_g.thread_spread > 0 ? op_g.thread_spread : 1;
}
int op_part_size(void) { return op_g.part_size; }

