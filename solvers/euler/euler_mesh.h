/*
 * euler_mesh.h - the Euler solver's grid on OP2 and its initial state.
 *
 * The nx x ny cells with two ghost layers on every side form the set of
 * extended cells, on which the state lives; the interior cells, the x-faces
 * and the y-faces are sets with maps into it, and the ghost cells of each
 * direction a set with a map to their sources (meshes/structured_grid.h).
 * On many processes each builds its slice of every set and op_partition
 * splits them.
 */
#ifndef EULER_MESH_H
#define EULER_MESH_H

#include "deck.h"
#include "euler_problem.h"
#include "op2.h"
#include "structured_grid.h"

#define EULER_GHOST_LAYERS 2

typedef struct {
  sg_grid grid;
  double dx, dy;
  op_set cells, interior, xfaces, yfaces, xghosts, yghosts;
  op_map int_cell, xface_cells, yface_cells, int_xfaces, int_yfaces;
  op_map xg_self, xg_src, yg_self, yg_src;
  op_dat q, q2, fx, fy, xg_flip, yg_flip; /* q: the state; q2: between the sweeps */
  op_dat xwall, ywall;                    /* EULER_FACE_* of every face */
  op_dat flag;                            /* positivity flags on the extended cells */
  op_dat out_rho, out_vel, out_p, out_q;  /* output fields on the interior */
  op_dat out_mach, out_energy;
  int *arrays[24]; /* map and dat arrays, until declared (copied) */
  int narrays;
} euler_mesh;

/* Builds the grid the deck gives (nx, ny, the bc_* sides) over the problem's
 * domain and declares its sets, maps and dats, then partitions them (many
 * processes). A grid or boundaries that cannot be built stop the run (exit 2). */
void euler_build_mesh(const deck *d, const euler_problem *pb, euler_mesh *m);

/* The initial state in every extended cell (ghosts included, so that even
 * the corner ghosts, which no loop reads, hold valid data). */
void euler_set_initial(const euler_problem *pb, euler_mesh *m);

/* Frees what the mesh still holds of its own (the declared sets, maps and
 * dats are OP2's, freed by op_exit). */
void euler_mesh_free(euler_mesh *m);

#endif
