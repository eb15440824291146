/*
 * op2_renumber.h - renumbering a mesh for locality (op_renumber, op2.h) and
 * the user's numbering kept beside it. Not for applications to call; public
 * (installed) because generated loop code reads op_set_user_ids.
 *
 * The orderings work on plain arrays, so that the MPI layer can order the
 * pieces it holds with the same code: an order is a permutation given as
 * order[k] = the old number of the element placed k-th (new number k).
 *
 * Once op_renumber has run, the library's storage (dat rows, map rows and
 * entries, loop element numbers) is in the new order; everything that leaves
 * the library by number is put back into the user's: op_fetch_data,
 * op_fetch_data_idx, the dumps, the HDF5 files and checkpoints, and
 * op_arg_idx. op_fetch_data_ptr gives the storage itself (to be used with the
 * maps' own entries, as pictures do).
 */
#ifndef OP2_RENUMBER_H
#define OP2_RENUMBER_H

#include <stddef.h>

#include "op2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- orderings on arrays ---- */

/* Reverse Cuthill-McKee order of a graph of n vertices in compressed rows
 * (neighbours of v: adj[xadj[v] .. xadj[v + 1]), symmetric, no self loops).
 * Every component is started from a pseudo-peripheral vertex; ties go to the
 * lower degree, then the lower number, so the order is the same every run. */
void op_renumber_rcm(int n, const int *xadj, const int *adj, int *order);

/* Cells that are quadrilaterals (quad: 4 nodes a cell, in order around it, of nnode nodes)
 * in rows, when they form one structured block: from a corner cell, row by row, each row
 * walked across opposite faces (op_renumber_quads.c). Of the walks from the first corners
 * found, the one with the longest first row. The nodes in rows too (node_order, nnode): the
 * first row's near side, then each row's far side, so that the corners of a row's cells
 * step by one from cell to cell. Returns 1 with both orders filled, or 0 when the cells are
 * not one such block (a face shared by three cells, no corner, a cell no walk reaches), the
 * orders then undefined. */
int op_renumber_quad_rows(int ncell, const int *quad, int nnode, int *order, int *node_order);

/* The graph of the to-set of a map: two elements are adjacent when one row
 * names both. *xadj (n + 1) and *adj are malloc'd. */
void op_renumber_map_graph(int nfrom, int dim, const int *map, int nto, int **xadj, int **adj);

/* Rows of a map ordered by their entries' new numbers (new_of_old of the to-set), lowest
 * first, then the next lowest, ties by old number: the from-set follows the to-set, and the
 * rows of one element come in the same order at every element. */
void op_renumber_by_targets(int nfrom, int dim, const int *map, const int *new_of_old,
                            int *order);

/* The to-set of a map numbered by first use: scanning the rows in the order
 * from_order (NULL: as they are), each element gets the next number when a
 * row names it first; elements no row names follow in their old order. */
void op_renumber_by_first_use(int nfrom, int dim, const int *map, const int *from_order, int nto,
                              int *order);

/* Reorders `order` (n elements, each with dim map entries in map by old
 * number) so that, window by window of `window` elements, no two elements
 * of a window share an entry, looking ahead at most lookahead elements
 * (elements stay within about that distance of their place; a window that
 * cannot be filled so takes the next elements as they come). Loops that
 * increment through the map then apply a window's increments without one
 * waiting for another. */
void op_renumber_free_windows(int n, int dim, const int *map, int window, int lookahead,
                              int *order);

/* How local a map's accesses are in an order (docs/performance.md, "Renumbering from any
 * order"): walking the rows in turn, step_bits is the mean of log2(1 + |distance|) (linear
 * between powers of two, so cheap to take: 1.5 for a distance of 2, exact at 0, 1, 3, 7, ...) between
 * an entry and the same entry of the row before (the bits of the jump a loop makes through
 * the to-set's data: 0 when rows repeat, about log2(n) when they are random); mean_span and
 * max_span the mean and largest distance between a row's lowest and highest entry. */
typedef struct {
  double step_bits, mean_span, max_span;
} op_locality;

/* The locality of a map of nfrom rows of dim entries, its rows taken in row_order (NULL: as
 * they are) and its entries renamed by new_of_old (NULL: as they are). */
void op_renumber_map_locality(int nfrom, int dim, const int *map, const int *row_order,
                              const int *new_of_old, op_locality *out);

/* new_of_old[order[k]] = k. */
void op_renumber_invert(int n, const int *order, int *new_of_old);

/* ---- the user's numbering ---- */

/* The user's number of each element in storage order, or NULL when the set
 * was never renumbered. */
const int *op_set_user_ids(op_set set);
/* The storage position of each user number, or NULL likewise. */
const int *op_set_storage_ids(op_set set);

/* A dat's rows in the user's order into dest (set->size rows), and back. */
void op_dat_to_user_order(op_dat dat, void *dest);
void op_dat_from_user_order(op_dat dat, const void *src);
/* The dat's storage was just filled with rows in the user's order (read from
 * a file): puts them in storage order, and marks the host copy current. */
void op_dat_user_rows_arrived(op_dat dat);
/* The same for a map declared on renumbered sets (op_decl_map). */
void op_map_user_rows_arrived(op_map map);
/* A map's rows in the user's order of its from-set, entries in the user's
 * numbers of its to-set, into dest (from->size * dim entries). */
void op_map_to_user_order(op_map map, int *dest);

#ifdef __cplusplus
}
#endif

#endif
