/*
 * test_renumber_quads - op_renumber and op_renumber_if on a structured grid of quadrilaterals:
 * from a random order the cells come back in rows and the nodes with them (consecutive cells
 * step by one through all four corners, every other edge by one through its cells: the runs
 * a plan finds), while the grid in its own order is left as it is by op_renumber_if, with the
 * locality it measured; op_renumber_map_locality on a map whose figures are known.
 *
 *   test_renumber_quads
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_renumber.h"

#define TEST_LCG_SEED 4711u
#include "../test_expect.h"

/* An nx x ny grid of cells: nodes, cells (4 nodes, counter-clockwise) and the edges between
 * neighbouring cells (pedge: its two nodes; pecell: its two cells), in row order. */
typedef struct {
  int nnode, ncell, nedge;
  int *cell, *edge, *ecell;
} grid;

static grid make_grid(int nx, int ny) {
  grid g;
  g.nnode = (nx + 1) * (ny + 1);
  g.ncell = nx * ny;
  g.nedge = (nx - 1) * ny + nx * (ny - 1);
  g.cell = malloc(sizeof(int) * 4 * (size_t)g.ncell);
  g.edge = malloc(sizeof(int) * 2 * (size_t)g.nedge);
  g.ecell = malloc(sizeof(int) * 2 * (size_t)g.nedge);
#define NODE(i, j) ((i) + (j) * (nx + 1))
  int e = 0;
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      const int c = i + j * nx, *q;
      int *row = g.cell + 4 * c;
      row[0] = NODE(i, j), row[1] = NODE(i + 1, j), row[2] = NODE(i + 1, j + 1),
      row[3] = NODE(i, j + 1);
      q = row;
      if (i + 1 < nx) { /* east: the nodes of its east side */
        g.edge[2 * e] = q[1], g.edge[2 * e + 1] = q[2];
        g.ecell[2 * e] = c, g.ecell[2 * e + 1] = c + 1, e++;
      }
      if (j + 1 < ny) { /* north */
        g.edge[2 * e] = q[2], g.edge[2 * e + 1] = q[3];
        g.ecell[2 * e] = c, g.ecell[2 * e + 1] = c + nx, e++;
      }
    }
#undef NODE
  return g;
}

static int *shuffled(int n) {
  int *p = malloc(sizeof(int) * (size_t)n);
  for (int k = 0; k < n; k++) p[k] = k;
  for (int k = n - 1; k > 0; k--) {
    const int r = (int)(lcg() % (unsigned)(k + 1)), t = p[k];
    p[k] = p[r];
    p[r] = t;
  }
  return p;
}

/* The same grid with its nodes, cells and edges numbered at random (rows' contents kept). */
static void scramble(grid *g) {
  int *node = shuffled(g->nnode), *cell = shuffled(g->ncell), *edge = shuffled(g->nedge);
  int *c2 = malloc(sizeof(int) * 4 * (size_t)g->ncell);
  int *e2 = malloc(sizeof(int) * 2 * (size_t)g->nedge),
      *ec2 = malloc(sizeof(int) * 2 * (size_t)g->nedge);
  /* old number x becomes node[x] (cell[x], edge[x]) */
  for (int c = 0; c < g->ncell; c++)
    for (int a = 0; a < 4; a++) c2[4 * cell[c] + a] = node[g->cell[4 * c + a]];
  for (int e = 0; e < g->nedge; e++)
    for (int a = 0; a < 2; a++) {
      e2[2 * edge[e] + a] = node[g->edge[2 * e + a]];
      ec2[2 * edge[e] + a] = cell[g->ecell[2 * e + a]];
    }
  free(g->cell), free(g->edge), free(g->ecell);
  g->cell = c2, g->edge = e2, g->ecell = ec2;
  free(node), free(cell), free(edge);
}

/* The share of rows r (from lag on) whose every entry is the entry of row r - lag plus one. */
static double stepping(const int *map, int n, int dim, int lag) {
  int good = 0;
  for (int r = lag; r < n; r++) {
    int ok = 1;
    for (int a = 0; a < dim; a++) ok &= map[r * dim + a] == map[(r - lag) * dim + a] + 1;
    good += ok;
  }
  return n > lag ? (double)good / (n - lag) : 0;
}

int main(int argc, char **argv) {
  op_init_strip_options(&argc, argv, 0);
  const int nx = 120, ny = 50;

  /* A map with known figures: rows {0,1}, {1,3}, {3,6}: steps of 1, 2, 2, 3. */
  const int known[6] = {0, 1, 1, 3, 3, 6};
  op_locality l;
  op_renumber_map_locality(3, 2, known, NULL, NULL, &l);
  /* log2(1 + d), linear between powers of two: 1, 1.5, 1.5, 2 */
  const double bits = (1 + 1.5 + 1.5 + 2) / 4.0;
  CHECK(fabs(l.step_bits - bits) < 1e-12, "step bits %g, expected %g", l.step_bits, bits);
  CHECK(fabs(l.mean_span - 2.0) < 1e-12 && l.max_span == 3.0,
        "span mean %g max %g, expected 2 and 3", l.mean_span, l.max_span);
  const int reverse[3] = {2, 1, 0};
  op_renumber_map_locality(3, 2, known, reverse, NULL, &l);
  CHECK(fabs(l.step_bits - (1.5 + 2 + 1 + 1.5) / 4) < 1e-12,
        "step bits in reverse row order %g", l.step_bits);

  /* The grid at random: renumbered, into rows. */
  grid g = make_grid(nx, ny);
  scramble(&g);
  op_set nodes = op_decl_set(g.nnode, "nodes"), cells = op_decl_set(g.ncell, "cells");
  op_set edges = op_decl_set(g.nedge, "edges");
  op_decl_map(edges, nodes, 2, g.edge, "pedge");
  op_map pecell = op_decl_map(edges, cells, 2, g.ecell, "pecell");
  op_map pcell = op_decl_map(cells, nodes, 4, g.cell, "pcell");
  int *id = malloc(sizeof(int) * (size_t)g.ncell), *got = malloc(sizeof(int) * (size_t)g.ncell);
  for (int c = 0; c < g.ncell; c++) id[c] = c;
  op_dat d_id = op_decl_dat(cells, 1, "int", id, "id");
  op_renumber_result r;
  const int did = op_renumber_if(pecell, 4.0, &r);
  printf("scrambled grid: renumbered %d, step bits %.2f -> %.2f, mean span %.0f -> %.0f\n", did,
         r.bits_before, r.bits_after, r.span_before, r.span_after);
  CHECK(did == 1 && r.renumbered == 1 && r.measured == 1, "a scrambled grid was not renumbered");
  CHECK(r.bits_before > 10 && r.bits_after < 5, "step bits %g -> %g", r.bits_before, r.bits_after);
  /* All but the row ends and the first row: 0.97 of the cells step through their corners. */
  const double cells_step = stepping(pcell->map, g.ncell, 4, 1);
  CHECK(cells_step > 0.95, "%.3f of the cells step by one through their corners", cells_step);
  const double edges_step = stepping(pecell->map, g.nedge, 2, 2);
  CHECK(edges_step > 0.9, "%.3f of the edges step by one through their cells, two apart",
        edges_step);
  printf("cells stepping through their corners %.3f, edges two apart through their cells %.3f\n",
         cells_step, edges_step);
  op_fetch_data(d_id, got);
  CHECK(!memcmp(got, id, sizeof(int) * (size_t)g.ncell), "a dat comes back in another order");
  op_exit();
  free(g.cell), free(g.edge), free(g.ecell);

  /* The grid in its own order: kept as it is. */
  op_init_strip_options(&argc, argv, 0);
  g = make_grid(nx, ny);
  nodes = op_decl_set(g.nnode, "nodes"), cells = op_decl_set(g.ncell, "cells");
  edges = op_decl_set(g.nedge, "edges");
  op_decl_map(edges, nodes, 2, g.edge, "pedge");
  pecell = op_decl_map(edges, cells, 2, g.ecell, "pecell");
  pcell = op_decl_map(cells, nodes, 4, g.cell, "pcell");
  /* Asked for a gain of 1 bit: the rows are sought, found as local as the grid's own, kept. */
  const int again = op_renumber_if(pecell, 1.0, &r);
  printf("ordered grid: renumbered %d, step bits %.2f -> %.2f\n", again, r.bits_before,
         r.bits_after);
  CHECK(again == 0 && r.renumbered == 0 && r.measured == 1, "a grid in row order was renumbered");
  CHECK(r.bits_before < 4 && fabs(r.bits_before - r.bits_after) < 1,
        "step bits %g in the grid's own order, %g in rows found", r.bits_before, r.bits_after);
  /* Asked for 4 bits, more than its own order's step bits: nothing is sought. */
  const int once_more = op_renumber_if(pecell, 4.0, &r);
  CHECK(once_more == 0 && r.measured == 1 && isnan(r.bits_after) && r.bits_before < 4,
        "an order already below the gain asked for was searched (step bits %g -> %g)",
        r.bits_before, r.bits_after);
  CHECK(!op_set_user_ids(cells) && !memcmp(pcell->map, g.cell, sizeof(int) * 4 * (size_t)g.ncell),
        "the grid kept its order but its storage changed");
  op_exit();
  free(g.cell), free(g.edge), free(g.ecell);
  free(id);
  free(got);
  return check_exit("renumbering quadrilaterals");
}
