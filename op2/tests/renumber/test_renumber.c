/*
 * test_renumber - op_renumber on a grid of cells whose numbering was
 * scrambled: the order it finds is local again (reverse Cuthill-McKee), its
 * edge windows share no cell, and everything that leaves the library by
 * number is in the user's numbering: op_fetch_data and op_fetch_data_idx,
 * dats declared after it, the binary dump, op_arg_idx in a loop, and the
 * results of a loop incrementing through the map.
 *
 *   test_renumber_<backend> [check | after_loop]
 * after_loop: op_renumber after a loop, which must be refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_renumber.h"

#define TEST_LCG_SEED 12345u
#include "../test_expect.h"


/* The largest distance between the two cells of an edge. */
static int bandwidth(const int *ecell, int nedge) {
  int b = 0;
  for (int e = 0; e < nedge; e++) {
    const int d = abs(ecell[2 * e] - ecell[2 * e + 1]);
    if (d > b) b = d;
  }
  return b;
}

int main(int argc, char **argv) {
  op_init_strip_options(&argc, argv, 0);
  const int after_loop = argc > 1 && !strcmp(argv[1], "after_loop");
  /* An nx x ny grid of cells; edges between horizontal and vertical
   * neighbours; cells numbered in a random order (perm: grid position ->
   * cell number), edges listed in a random order too. */
  const int nx = 90, ny = 70, ncell = nx * ny;
  const int nedge = (nx - 1) * ny + nx * (ny - 1);
  int *perm = malloc(sizeof(int) * ncell), *ecell = malloc(sizeof(int) * 2 * nedge);
  int *w = malloc(sizeof(int) * nedge), *value = malloc(sizeof(int) * ncell);
  for (int c = 0; c < ncell; c++) perm[c] = c;
  for (int c = ncell - 1; c > 0; c--) {
    const int k = (int)(lcg() % (unsigned)(c + 1)), t = perm[c];
    perm[c] = perm[k];
    perm[k] = t;
  }
  int e = 0;
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      if (i + 1 < nx) ecell[2 * e] = perm[i + j * nx], ecell[2 * e + 1] = perm[i + 1 + j * nx], e++;
      if (j + 1 < ny) ecell[2 * e] = perm[i + j * nx], ecell[2 * e + 1] = perm[i + (j + 1) * nx], e++;
    }
  for (int k = nedge - 1; k > 0; k--) {
    const int r = (int)(lcg() % (unsigned)(k + 1));
    for (int a = 0; a < 2; a++) {
      const int t = ecell[2 * k + a];
      ecell[2 * k + a] = ecell[2 * r + a];
      ecell[2 * r + a] = t;
    }
  }
  for (int k = 0; k < nedge; k++) w[k] = 1 + (int)(lcg() % 7u);
  for (int c = 0; c < ncell; c++) value[c] = 1000 * c + 7;

  op_set cells = op_decl_set(ncell, "cells");
  op_set edges = op_decl_set(nedge, "edges");
  op_map pecell = op_decl_map(edges, cells, 2, ecell, "pecell");
  op_dat d_value = op_decl_dat(cells, 1, "int", value, "value");
  op_dat d_w = op_decl_dat(edges, 1, "int", w, "w");
  op_dat d_count = op_decl_dat_temp(cells, 1, "int", "count");
  op_dat d_idx = op_decl_dat_temp(edges, 2, "int", "idx");
  if (after_loop)
    op_par_loop(count_edges, "count_edges", edges, op_arg_dat(d_w, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(d_count, 0, pecell, 1, "int", OP_INC),
                op_arg_dat(d_count, 1, pecell, 1, "int", OP_INC));

  const int before = bandwidth(ecell, nedge);
  op_renumber(pecell);
  /* The library's storage: the cells of an edge are near each other again
   * (a grid of 90 x 70 has bandwidth 70 to 90 in a good order). */
  const int after = bandwidth(pecell->map, nedge);
  printf("bandwidth of pecell: %d before, %d after op_renumber\n", before, after);
  CHECK(after <= 2 * ny, "bandwidth %d after renumbering, expected at most %d", after, 2 * ny);
  CHECK(op_set_user_ids(cells) && op_set_user_ids(edges), "cells or edges not renumbered");
  /* Windows of 64 edges touch 128 distinct cells (a grid has room for it),
   * but for the last windows, where few edges are left to choose from. */
  int clashes = 0;
  for (int s = 0; s + 3 * 64 <= nedge; s += 64)
    for (int a = s; a < s + 64; a++)
      for (int b = a + 1; b < s + 64; b++)
        for (int x = 0; x < 2; x++)
          for (int y = 0; y < 2; y++)
            clashes += pecell->map[2 * a + x] == pecell->map[2 * b + y];
  CHECK(clashes == 0, "%d pairs of edges of one window share a cell", clashes);

  /* Data in the user's numbering, in and out. */
  int *got = malloc(sizeof(int) * 2 * (nedge > ncell ? nedge : ncell));
  op_fetch_data(d_value, got);
  CHECK(!memcmp(got, value, sizeof(int) * ncell), "op_fetch_data is not in the user's order");
  op_fetch_data_idx(d_value, got, 100, 199);
  CHECK(!memcmp(got, value + 100, sizeof(int) * 100),
        "op_fetch_data_idx is not in the user's order");
  for (int c = 0; c < ncell; c++) value[c] = 3 * c + 1;
  op_dat d_late = op_decl_dat(cells, 1, "int", value, "late");
  op_fetch_data(d_late, got);
  CHECK(!memcmp(got, value, sizeof(int) * ncell),
        "a dat declared after op_renumber comes back "
        "in another order");
  op_print_dat_to_binfile(d_late, "renumber_late.bin");
  FILE *f = fopen("renumber_late.bin", "rb");
  int head[2] = {0, 0};
  CHECK(f && fread(head, sizeof head, 1, f) == 1 &&
            fread(got, sizeof(int), ncell, f) == (size_t)ncell &&
            !memcmp(got, value, sizeof(int) * ncell),
        "the binary dump is not in the user's order");
  if (f) fclose(f);
  remove("renumber_late.bin");

  /* op_arg_idx: the user's numbers, of the element and through the map. */
  op_par_loop(record_idx, "record_idx", edges, op_arg_idx(-1, OP_ID), op_arg_idx(0, pecell),
              op_arg_dat(d_idx, -1, OP_ID, 2, "int", OP_WRITE));
  op_fetch_data(d_idx, got);
  int wrong = 0;
  for (int k = 0; k < nedge; k++) wrong += got[2 * k] != k || got[2 * k + 1] != ecell[2 * k];
  CHECK(wrong == 0, "op_arg_idx gave %d edges another number than the user's", wrong);

  /* A loop through the map: each cell gets the weights of its edges. */
  op_par_loop(count_edges, "count_edges", edges, op_arg_dat(d_w, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(d_count, 0, pecell, 1, "int", OP_INC),
              op_arg_dat(d_count, 1, pecell, 1, "int", OP_INC));
  int *expect = calloc((size_t)ncell, sizeof(int));
  for (int k = 0; k < nedge; k++) expect[ecell[2 * k]] += w[k], expect[ecell[2 * k + 1]] += w[k];
  op_fetch_data(d_count, got);
  CHECK(!memcmp(got, expect, sizeof(int) * ncell),
        "the increments through the map went to "
        "other cells");

  op_exit();
  free(perm);
  free(ecell);
  free(w);
  free(value);
  free(got);
  free(expect);
  return check_exit("renumbering");
}
