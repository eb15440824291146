/*
 * test_io.c - unit tests of the check that a run's outputs never replace its
 * inputs (solver_io.h), in a scratch folder: an input named as one of the
 * outputs, through a link to it, through a link to the output folder or a
 * "./" spelling, a file still to be made, inputs inside failed/ and earlier/
 * (existing or not), the restart a run continues, and inputs that are safe.
 *
 * usage: test_io (in a scratch working directory)
 */
#include "test_check.h"
#include "solver_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void touch(const char *path) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL, "cannot create %s", path);
  if (f) fclose(f);
}

/* The check for one input (mesh at path, or a continued checkpoint) of a
 * run writing q.h5, history.csv and u_*.h5 into dir; 1 when refused. */
static int refused(const char *path, const char *continued_as, const char *dir, char *err,
                   size_t len) {
  solver_io io;
  solver_io_init(&io);
  solver_io_output(&io, "q.h5");
  solver_io_output(&io, "history.csv");
  solver_io_output(&io, "u_*.h5");
  solver_io_input(&io, "mesh", path, continued_as);
  err[0] = '\0';
  return solver_io_check(&io, dir, dir, err, len) != 0;
}

int main(void) {
  char err[2048];
  (void)system("rm -rf io_out io_link io_q.h5 io_safe");
  CHECK(mkdir("io_out", 0777) == 0);
  CHECK(mkdir("io_safe", 0777) == 0);
  touch("io_out/q.h5");
  touch("io_out/mesh.dat");
  CHECK(symlink("io_out", "io_link") == 0);
  CHECK(symlink("io_out/q.h5", "io_q.h5") == 0);

  /* The output named directly, in other spellings, through links. */
  CHECK(refused("io_out/q.h5", NULL, "io_out", err, sizeof err));
  CHECK(strstr(err, "the mesh io_out/q.h5 would be replaced by this run's q.h5") != NULL, "%s",
        err);
  CHECK(refused("./io_out//q.h5", NULL, "io_out/", err, sizeof err));
  CHECK(refused("io_out/q.h5", NULL, "io_link/.", err, sizeof err));
  CHECK(refused("io_link/q.h5", NULL, "io_out", err, sizeof err));
  CHECK(refused("io_safe/../io_out/q.h5", NULL, "io_out", err, sizeof err));
  CHECK(refused("io_q.h5", NULL, "io_out", err, sizeof err));
  CHECK(strstr(err, "(a link to ") != NULL, "%s", err);
  /* A pattern, and a file still to be made. */
  CHECK(refused("io_out/u_000010.h5", NULL, "io_out", err, sizeof err));
  CHECK(refused("io_out/history.csv", NULL, "io_out", err, sizeof err));
  CHECK(refused("io_out/result.json", NULL, "io_out", err, sizeof err));
  /* Inside failed/ and earlier/, whether they exist or not, at any depth. */
  CHECK(refused("io_out/failed/m.dat", NULL, "io_out", err, sizeof err));
  CHECK(strstr(err, "is in io_out/failed, which this run replaces") != NULL, "%s", err);
  CHECK(refused("io_out/earlier/sub/m.dat", NULL, "io_out", err, sizeof err));
  CHECK(mkdir("io_out/earlier", 0777) == 0);
  touch("io_out/earlier/checkpoint.h5");
  CHECK(refused("io_link/earlier/checkpoint.h5", NULL, "io_out", err, sizeof err));
  CHECK(strstr(err, "is in io_out/earlier, where this run sets aside") != NULL, "%s", err);

  /* Safe: another name in output_dir, another folder, the restart a run
   * goes on writing, and a folder named like an output but elsewhere. */
  CHECK(!refused("io_out/mesh.dat", NULL, "io_out", err, sizeof err), "%s", err);
  CHECK(!refused("io_safe/q.h5", NULL, "io_out", err, sizeof err), "%s", err);
  CHECK(!refused("io_out/q.h5", "q.h5", "io_out", err, sizeof err), "%s", err);
  CHECK(refused("io_out/q.h5", "checkpoint.h5", "io_out", err, sizeof err));
  CHECK(!refused("io_out/q.h5", NULL, "io_safe", err, sizeof err), "%s", err);

  /* Where an input is, for the set-aside of earlier files. */
  solver_io io;
  solver_io_init(&io);
  solver_io_input(&io, "restart", "io_link/q.h5", "q.h5");
  const char *continued = NULL;
  CHECK(solver_io_input_at(&io, "io_out", "q.h5", &continued));
  CHECK(continued && strcmp(continued, "q.h5") == 0);
  CHECK(!solver_io_input_at(&io, "io_out", "mesh.dat", NULL));
  CHECK(!solver_io_input_at(&io, "io_safe", "q.h5", NULL));
  CHECK(solver_io_declares(&io, "result.json") && !solver_io_declares(&io, "q.h5"));
  return check_exit("solver_io");
}
