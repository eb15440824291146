/*
 * test_check_mpi.h - test_check.h for a test that uses MPI itself: a failure
 * names the process's rank in MPI_COMM_WORLD, too many failures stop every
 * process (MPI_Abort), and check_mpi_exit sums the failures of all processes.
 */
#ifndef OP2_TEST_CHECK_MPI_H
#define OP2_TEST_CHECK_MPI_H

#include <mpi.h>

static inline int check_mpi_rank(void) {
  int on = 0, rank = -1;
  MPI_Initialized(&on);
  if (on) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

#define CHECK_RANK() check_mpi_rank()
#define CHECK_STOP() MPI_Abort(MPI_COMM_WORLD, 1)
#include "test_check.h"

/* The exit status of a test named name on every process: 0 when no check
 * failed on any; rank 0 says which. */
static inline int check_mpi_exit(const char *name) {
  int all = 0, count = 0;
  MPI_Allreduce(&check_failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&check_count, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (check_mpi_rank() == 0) {
    if (all)
      fprintf(stderr, "%s: %d of %d check(s) FAILED\n", name, all, count);
    else
      printf("%s: all %d checks passed\n", name, count);
  }
  return all ? 1 : 0;
}

#endif
