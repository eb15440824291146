/*
 * solver_main.c - the start and the end that the solvers' mains share
 * (solver_main.h).
 */
#include "solver_main.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op_text.h"
#include "solver_interrupt.h"
#include "solver_result.h"

/* --op-tune-file's F, in argv (whose strings outlive the run), or NULL. */
static const char *tune_file;

void solver_main_op_init(int *argc, char **argv) {
  static const char option[] = "--op-tune-file=";
  for (int i = 1; i < *argc && argv[i]; i++)
    if (!strncmp(argv[i], option, sizeof option - 1)) tune_file = argv[i] + sizeof option - 1;
  op_init_strip_options(argc, argv, 0);
}

deck *solver_main_start(const char *solver, const deck_key *keys, int nkeys, int *argc, char **argv,
                        int *status) {
  solver_main_op_init(argc, argv);
  deck *d = deck_new(solver, keys, nkeys); /* says what failed */
  if (!d) {
    op_exit();
    *status = 2;
    return NULL;
  }
  char err[4096];
  const int rc = deck_parse_args(d, *argc, argv, err, sizeof err);
  /* Every process reads the same arguments and deck: on many processes the
   * refusal is printed once, by the first that made it (each would). */
  if (solver_refuse_once(rc == DECK_ERROR, solver, err) && rc != DECK_ERROR) {
    deck_free(d);
    op_exit();
    *status = 2;
    return NULL;
  }
  if (rc != DECK_OK) {
    if (rc == DECK_HELP) printf("\nOP2 options:\n%s", op_usage_text());
    /* Everything freed: the sanitizer build checks leaks at exit, and a
     * report would replace what was printed. */
    deck_free(d);
    op_exit();
    *status = rc == DECK_ERROR ? 2 : 0; /* --help and --version exit 0 */
    return NULL;
  }
  deck_print(d, stdout); /* the effective parameters, a deck of their own */
  return d;
}

int solver_refuse_once(int found, const char *solver, const char *message) {
  if (op_num_procs() <= 1) { /* one process, or MPI not started (--help) */
    if (found) fprintf(stderr, "%s: %s\n", solver, message);
    return found;
  }
  const int printer = -op_max_int(found ? -op_rank() : -op_num_procs());
  if (printer == op_num_procs()) return 0;
  if (op_rank() == printer) {
    fprintf(stderr, "%s: %s\n", solver, message);
    fflush(stderr); /* this process's to print, whatever the others do */
  }
  (void)op_max_int(0); /* the message is out before any process ends the job */
  return 1;
}

int solver_main_outputs(solver_output *out, const char *solver, const deck *d, const solver_io *io,
                        const solver_estimate *need, char *err, size_t errlen) {
  solver_io all = *io;
  solver_io_input(&all, "deck", deck_path(d), NULL);
  solver_io_input(&all, "tune file", tune_file, NULL);
  if (solver_output_open(out, solver, deck_string(d, "output_dir"), &all, err, errlen) != 0)
    return -1;
  return solver_limits_check(d, out, need, err, errlen);
}

int solver_main_finish(solver_output *out, solver_verdicts *v, void (*fill)(FILE *f, void *ctx),
                       void *ctx, const char *what, char *err, size_t errlen) {
  /* A signal that came after the time loop's last look (while the final
   * fields and pictures were written) still stops the run: it never passes.
   * Collective, as that look was: every process finishes here. */
  if (solver_interrupt_late(v, "its last step, while it wrote its final outputs")) {
    printf("validation FAILED (stopped by a signal while the final outputs were written)\n");
    fflush(stdout);
  }
  if (solver_result_write(out->staging, fill, ctx, err, errlen) != 0) return -1;
  const int status = solver_exit_status(v);
  if (solver_output_finish(out, status == 0, err, errlen) != 0) return -1;
  solver_output_report(out, status == 0, what);
  return status;
}

void solver_fail_io(const char *solver, const char *what, const char *path) {
  char shown[OP_TEXT_SHOWN];
  fprintf(stderr, "%s: cannot %s %s: %s\n", solver, what, op_text_shown(shown, sizeof shown, path),
          strerror(errno));
  exit(2);
}
