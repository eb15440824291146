/*
 * op_mpi_exchange.h - halo exchanges, and the protocol a distributed loop
 * follows around the shared-memory backend's loop body.
 *
 * A loop over set s with arguments args:
 *
 *   int n = op_mpi_loop_begin(s, nargs, args);     start the exchanges it needs
 *   run elements [0, s->core_size)                 they read no halo element
 *   op_mpi_loop_wait(nargs, args);                  halos have arrived
 *   run elements [s->core_size, n)                 n: owned, or owned + exec halo
 *   op_mpi_loop_end(nargs, args);                   what it wrote is stale elsewhere
 *
 * (OP2's op_mpi_halo_exchanges, op_mpi_wait_all and op_mpi_set_dirtybit.)
 * A loop runs its execute halo when it writes through a map. A dat's halo is
 * exchanged only when the loop reads it (OP_READ or OP_RW) through a map, or
 * directly in a loop that runs its execute halo, and only when it is stale:
 * every dat has a dirty bit, set by a loop that writes it and cleared when
 * its halo is refreshed. One message per neighbour carries a dat's execute
 * and non-execute halo rows: packed from the owner's rows, sent and received
 * without blocking, unpacked into the halo.
 */
#ifndef OP_MPI_EXCHANGE_H
#define OP_MPI_EXCHANGE_H

#include <stdio.h>

#include "op_mpi_mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One argument of a loop as the MPI layer sees it (globals: dat NULL). */
typedef struct {
  op_mpi_dat dat;
  op_mpi_map map; /* NULL: direct (OP_ID) */
  op_access acc;
} op_mpi_arg;

int op_mpi_loop_begin(op_mpi_set set, int nargs, op_mpi_arg *args);
void op_mpi_loop_wait(int nargs, op_mpi_arg *args);
void op_mpi_loop_end(int nargs, op_mpi_arg *args);

/* One dat's whole halo, now (begin: pack and post; finish: wait and unpack). */
void op_mpi_exchange_begin(op_mpi_dat d);
void op_mpi_exchange_finish(op_mpi_dat d);
/* For data the owner of the mesh also keeps elsewhere (a device): called
 * before a dat's rows are packed for sending (rows: the local indices about
 * to be read, n of them) and after its halo rows were unpacked ([first,
 * first + n) of local numbers). NULL: none. */
typedef struct {
  void (*before_pack)(op_mpi_dat d, const int *rows, int n);
  void (*after_unpack)(op_mpi_dat d, int first, int n);
} op_mpi_exchange_hooks;
void op_mpi_exchange_set_hooks(const op_mpi_exchange_hooks *hooks);

/* Messages and bytes this process has sent in exchanges so far. */
void op_mpi_exchange_counts(long long *messages, long long *bytes);
/* Rank 0 prints, per set with exchanges, how many dat exchanges there were
 * and the messages and bytes they sent over all processes. Collective. */
void op_mpi_print_exchanges(op_mpi_mesh m, FILE *out);

/* The per-neighbour plan of a set's exchanges (op_mpi_halo_create builds it). */
void op_mpi_exchange_plan_build(op_mpi_set s);
void op_mpi_exchange_plan_free(op_mpi_set s);
void op_mpi_exchange_free(op_mpi_dat d);

#ifdef __cplusplus
}
#endif

#endif /* OP_MPI_EXCHANGE_H */
