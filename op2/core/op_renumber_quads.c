/*
 * op_renumber_quads.c - cells of quadrilaterals in rows (op2_renumber.h).
 *
 * A mesh of quadrilaterals that is one structured block, however its cells are numbered, is
 * walked row by row: from a corner cell across the face opposite the one it entered by, to
 * the end of the row, then one cell across the row's first cell's far side for the next
 * row. That gives the cells the numbering a structured generator writes, in which the edges
 * between them form the interleaved runs of a plan (docs/op2-library.md, "Affine runs"); a
 * mesh that is not one block is left to reverse Cuthill-McKee.
 */
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_renumber.h"

/* Candidate walks tried: each corner found, first ones first, two directions each. */
#define MAX_CORNERS 8

/* nb[4c + k]: the cell across face k of cell c (nodes k and k + 1 of its row), -1 on the
 * boundary; 0 when the cells are not quadrilaterals that meet face to face. */
static int face_neighbours(int ncell, const int *quad, int nnode, int *nb) {
  int *start = op_calloc((size_t)nnode + 2, sizeof(int));
  int *cells = op_malloc(sizeof(int) * (4 * (size_t)ncell + 1));
  int ok = 1;
  for (long i = 0; ok && i < 4L * ncell; i++) {
    if (quad[i] < 0 || quad[i] >= nnode)
      ok = 0;
    else
      start[quad[i] + 2]++;
  }
  if (ok)
    for (int v = 0; v < nnode; v++) start[v + 2] += start[v + 1];
  for (long i = 0; ok && i < 4L * ncell; i++) cells[start[quad[i] + 1]++] = (int)(i / 4);
  /* start[v] .. start[v + 1]: the cells around node v. */
  for (int c = 0; ok && c < ncell; c++)
    for (int k = 0; ok && k < 4; k++) {
      const int a = quad[4 * c + k], b = quad[4 * c + (k + 1) % 4];
      int found = -1;
      if (a == b) ok = 0;
      for (int i = start[a]; ok && i < start[a + 1]; i++) {
        const int d = cells[i];
        if (d == c) continue;
        const int *q = quad + 4L * d;
        if (q[0] != b && q[1] != b && q[2] != b && q[3] != b) continue;
        if (found >= 0 && found != d) ok = 0; /* a face of three cells */
        found = d;
      }
      nb[4 * c + k] = found;
    }
  free(cells);
  free(start);
  return ok;
}

/* The face of cell d that meets cell c, or -1. */
static int face_to(const int *nb, int d, int c) {
  for (int k = 0; k < 4; k++)
    if (nb[4 * d + k] == c) return k;
  return -1;
}

/* Walks the rows from corner cell s, entering it by face west, the rows stacked across face
 * north (a face next to west). Fills order; returns the cells placed, and the first row's
 * length in *row. */
static int walk(int ncell, const int *quad, const int *nb, int s, int west, int north,
                char *visited, int *order, int *row, int *in_face, int *row_of) {
  int n = 0, r = 0;
  *row = 0;
  memset(visited, 0, (size_t)ncell);
  while (s >= 0 && !visited[s]) {
    /* The node west and north share: the corner the next row's west face starts from. */
    const int v = north == (west + 1) % 4 ? quad[4 * s + north] : quad[4 * s + west];
    for (int c = s, in = west; c >= 0 && !visited[c];) {
      visited[c] = 1;
      order[n++] = c;
      if (in_face) in_face[c] = in, row_of[c] = r;
      const int next = nb[4 * c + (in + 2) % 4];
      if (next >= 0) in = face_to(nb, next, c);
      c = next;
    }
    if (*row == 0) *row = n;
    const int t = nb[4 * s + north];
    if (t < 0 || visited[t]) break;
    const int south = face_to(nb, t, s);
    const int *q = quad + 4L * t;
    /* Of the two faces of t beside its south face, the one through v. */
    const int f1 = (south + 1) % 4, f3 = (south + 3) % 4;
    west = (q[f1] == v || q[(f1 + 1) % 4] == v) ? f1 : f3;
    north = (south + 2) % 4;
    s = t;
    r++;
  }
  return n;
}

/* The node face f of cell c shares with face g (next to it). */
static int shared_node(const int *q, int f, int g) { return g == (f + 1) % 4 ? q[g] : q[f]; }

/* The nodes in rows too, so that a row's cells step through them one by one: the first row's
 * near side, then each row's far side, each from the row's start; first use for any left. */
static void node_rows(int ncell, const int *quad, const int *nb, const int *order,
                      const int *in_face, const int *row_of, int nnode, int *node_order) {
  char *seen = op_calloc((size_t)nnode + 1, 1);
  int next = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int k = 0; k < ncell; k++) {
      const int c = order[k], in = in_face[c], *q = quad + 4L * c;
      if (pass == 0 && row_of[c] != 0) break;
      /* North: of the two faces beside the entry face, the one toward the next row, or the
       * one away from the row before. */
      const int f1 = (in + 1) % 4, f3 = (in + 3) % 4;
      const int n1 = nb[4 * c + f1], n3 = nb[4 * c + f3];
      int north = f1;
      if (n3 >= 0 && row_of[n3] == row_of[c] + 1)
        north = f3;
      else if (!(n1 >= 0 && row_of[n1] == row_of[c] + 1) && n1 >= 0 && row_of[n1] == row_of[c] - 1)
        north = f3;
      const int side = pass == 0 ? (north + 2) % 4 : north;
      const int west = shared_node(q, side, in);
      const int pair[2] = {west, q[side] == west ? q[(side + 1) % 4] : q[side]};
      for (int a = 0; a < 2; a++)
        if (!seen[pair[a]]) {
          seen[pair[a]] = 1;
          node_order[next++] = pair[a];
        }
    }
  for (long i = 0; i < 4L * ncell; i++)
    if (!seen[quad[i]]) {
      seen[quad[i]] = 1;
      node_order[next++] = quad[i];
    }
  for (int v = 0; v < nnode; v++)
    if (!seen[v]) node_order[next++] = v;
  free(seen);
}

/* The length of the row a walk from cell s, entering by face west, would start with. */
static int first_row(int ncell, const int *nb, int s, int west) {
  int len = 0;
  for (int c = s, in = west; c >= 0 && len <= ncell;) {
    len++;
    const int next = nb[4 * c + (in + 2) % 4];
    if (next < 0 || next == s) break;
    in = face_to(nb, next, c);
    c = next;
  }
  return len;
}

typedef struct {
  int row, found, cell, west, north; /* found: its place among the candidates */
} candidate;

static int longer_row_first(const void *a, const void *b) {
  const candidate *x = a, *y = b;
  if (x->row != y->row) return (x->row < y->row) - (x->row > y->row);
  return (x->found > y->found) - (x->found < y->found);
}

int op_renumber_quad_rows(int ncell, const int *quad, int nnode, int *order, int *node_order) {
  if (ncell < 2) return 0;
  int *nb = op_malloc(sizeof(int) * (4 * (size_t)ncell + 1));
  const int ok = face_neighbours(ncell, quad, nnode, nb);
  /* Walks from the first corners found, along either boundary face (enter by one, stack the
   * rows away from the other), tried by the length of their first row, longest first (the
   * fewest row ends, where runs break): the first that places every cell is taken. Only its
   * first row is walked for each, so a mesh whose order scatters the cells over memory is
   * walked whole once or twice, not once a candidate. */
  candidate cand[2 * MAX_CORNERS];
  int ncand = 0;
  for (int c = 0; ok && c < ncell && ncand < 2 * MAX_CORNERS; c++)
    for (int k = 0; k < 4; k++) {
      if (nb[4 * c + k] >= 0 || nb[4 * c + (k + 1) % 4] >= 0) continue;
      const int ways[2][2] = {{k, (k + 3) % 4}, {(k + 1) % 4, (k + 2) % 4}};
      for (int w = 0; w < 2; w++)
        cand[ncand] =
            (candidate){first_row(ncell, nb, c, ways[w][0]), ncand, c, ways[w][0], ways[w][1]},
        ncand++;
      break;
    }
  qsort(cand, (size_t)ncand, sizeof(candidate), longer_row_first);
  int found = 0;
  if (ncand > 0) {
    char *visited = op_malloc((size_t)ncell + 1);
    int *in_face = op_malloc(sizeof(int) * ((size_t)ncell + 1));
    int *row_of = op_malloc(sizeof(int) * ((size_t)ncell + 1));
    for (int i = 0; i < ncand && !found; i++) {
      int row;
      found = walk(ncell, quad, nb, cand[i].cell, cand[i].west, cand[i].north, visited, order, &row,
                   in_face, row_of) == ncell;
    }
    if (found) node_rows(ncell, quad, nb, order, in_face, row_of, nnode, node_order);
    free(row_of);
    free(in_face);
    free(visited);
  }
  free(nb);
  return found;
}
