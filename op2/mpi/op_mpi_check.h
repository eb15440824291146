/*
 * op_mpi_check.h - the MPI layer's one error policy: a failed MPI, PT-Scotch
 * or HDF5 call, or bad input detected on any process, prints one message from
 * the process that saw it (its rank, what failed, file, line and function)
 * and ends every process of the job with MPI_Abort and a non-zero code.
 *
 * Why not op_fatal (op2_error.h)? It calls exit(1), which ends one process
 * and leaves the others waiting in their next collective call until the
 * launcher notices; MPI_Abort takes the whole job down at once.
 *
 *   OP_MPI_CHECK(MPI_Isend(...));               MPI: error string from MPI_Error_string
 *   OP_SCOTCH_CHECK(SCOTCH_dgraphPart(...));    PT-Scotch: non-zero return
 *   op_mpi_fatal("set '%s': ...", name);         internal inconsistency, a failed call
 *   op_mpi_bad_input("HDF5 file '%s': ...");     bad input (a file the user named)
 * HDF5 calls are checked in op_mpi_hdf5.c through the I/O library's message
 * builder (OP_IO_ERR), which adds HDF5's own description, then op_mpi_fatal.
 */
#ifndef OP_MPI_CHECK_H
#define OP_MPI_CHECK_H

#include <stddef.h>

#include "op2_error.h" /* OP_NORETURN, OP_PRINTF */

#ifdef __cplusplus
extern "C" {
#endif

/* The exit code every process gets from MPI_Abort after a failed call or an
 * internal inconsistency; bad input ends the job with OP_EXIT_ERROR (2), as
 * it ends a run on one process (docs/errors.md). */
enum { OP_MPI_ABORT_CODE = 3 };

OP_NORETURN void op_mpi_fatal_at(const char *file, int line, const char *func, const char *fmt,
                                 ...) OP_PRINTF(4, 5);
OP_NORETURN void op_mpi_bad_input_at(const char *file, int line, const char *func,
                                     const char *fmt, ...) OP_PRINTF(4, 5);
/* Says that a non-zero exit(3) ends the whole job (an exit handler calls
 * MPI_Abort with the status: op_mpi_api.c's): errors then leave through
 * exit, so that the program's own exit handlers run first. */
void op_mpi_exit_ends_job(void);
/* rc is an MPI error code, call the text of the call that returned it. */
OP_NORETURN void op_mpi_fail_mpi(int rc, const char *call, const char *file, int line,
                                 const char *func);
/* rc is what a PT-Scotch call returned (non-zero: failure). */
OP_NORETURN void op_mpi_fail_scotch(int rc, const char *call, const char *file, int line,
                                    const char *func);

/* Allocation that aborts the job (naming the caller) instead of returning NULL. */
void *op_mpi_malloc_at(size_t n, size_t size, const char *file, int line, const char *func);
void *op_mpi_calloc_at(size_t n, size_t size, const char *file, int line, const char *func);
void *op_mpi_realloc_at(void *p, size_t n, size_t size, const char *file, int line,
                        const char *func);

#ifdef __cplusplus
}
#endif

#define op_mpi_fatal(...) op_mpi_fatal_at(__FILE__, __LINE__, __func__, __VA_ARGS__)
#define op_mpi_bad_input(...) op_mpi_bad_input_at(__FILE__, __LINE__, __func__, __VA_ARGS__)

#define OP_MPI_CHECK(call)                                                    \
  do {                                                                        \
    int op_mpi_rc_ = (call);                                                  \
    if (op_mpi_rc_ != 0 /* MPI_SUCCESS */)                                    \
      op_mpi_fail_mpi(op_mpi_rc_, #call, __FILE__, __LINE__, __func__);       \
  } while (0)

#define OP_SCOTCH_CHECK(call)                                                 \
  do {                                                                        \
    int op_scotch_rc_ = (call);                                               \
    if (op_scotch_rc_ != 0)                                                   \
      op_mpi_fail_scotch(op_scotch_rc_, #call, __FILE__, __LINE__, __func__); \
  } while (0)

/* n elements of type T (n * sizeof(T) bytes, overflow checked). */
#define op_mpi_alloc(T, n) ((T *)op_mpi_malloc_at((size_t)(n), sizeof(T), __FILE__, __LINE__, __func__))
#define op_mpi_zalloc(T, n) ((T *)op_mpi_calloc_at((size_t)(n), sizeof(T), __FILE__, __LINE__, __func__))
#define op_mpi_grow(T, p, n) \
  ((T *)op_mpi_realloc_at((p), (size_t)(n), sizeof(T), __FILE__, __LINE__, __func__))

#endif /* OP_MPI_CHECK_H */
