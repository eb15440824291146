/*
 * op_lib_mpi.h - OP2's header for applications that use MPI themselves (its
 * *_mpi.cpp sources scatter the mesh they read with MPI calls of their own):
 * MPI and the API (op_lib_core.h). A source that includes it builds only as
 * MPI executables (op2_application; docs/mpi.md).
 *
 * As OP2's header does, it makes MPI_ROOT (MPI's marker of the root of an
 * intercommunicator collective) rank 0: OP2's applications test
 * `my_rank == MPI_ROOT` and scatter from MPI_ROOT.
 */
#ifndef OP_LIB_MPI_H
#define OP_LIB_MPI_H

#include <mpi.h>

#include "op_lib_core.h"

#ifdef MPI_ROOT
#undef MPI_ROOT
#endif
#define MPI_ROOT 0

#endif /* OP_LIB_MPI_H */
