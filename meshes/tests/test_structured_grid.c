/* Unit test of the structured-grid generator (structured_grid.h): numbering, interior
 * and face maps, ghost sources for each boundary condition, and the refusals. Every
 * expected value is worked out by hand from the conventions in the header. */
#include "structured_grid.h"
#include "test_check.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char err[512];

static void test_init(void) {
  sg_grid g;
  CHECK(sg_grid_init(&g, 4, 3, 2, err, sizeof err) == 0, "%s", err);
  CHECK(g.ex == 8 && g.ey == 7, "extended %d x %d", g.ex, g.ey);
  CHECK(g.ncells == 56 && g.ninterior == 12 && g.nghost == 44, "counts %d %d %d", g.ncells,
        g.ninterior, g.nghost);
  CHECK(g.nxfaces == 15 && g.nyfaces == 16, "faces %d %d", g.nxfaces, g.nyfaces);
  /* Row-major, i fastest, ghosts first: (-2, -2) is 0, (0, 0) is 2 * 8 + 2. */
  CHECK(sg_cell(&g, -2, -2) == 0, "%d", sg_cell(&g, -2, -2));
  CHECK(sg_cell(&g, 0, 0) == 18, "%d", sg_cell(&g, 0, 0));
  CHECK(sg_cell(&g, 3, 2) == 4 * 8 + 5, "%d", sg_cell(&g, 3, 2));
  CHECK(sg_cell(&g, 5, 4) == 55, "%d", sg_cell(&g, 5, 4));

  CHECK(sg_grid_init(&g, 5, 5, 0, err, sizeof err) == 0, "%s", err);
  CHECK(g.ncells == 25 && g.nghost == 0 && sg_cell(&g, 2, 3) == 17, "no ghosts");

  CHECK(sg_grid_init(&g, 0, 3, 1, err, sizeof err) != 0, "0 columns accepted");
  CHECK(strstr(err, "at least 1 x 1") != NULL, "message: %s", err);
  CHECK(sg_grid_init(&g, 3, 3, -1, err, sizeof err) != 0, "negative ghosts accepted");
  CHECK(sg_grid_init(&g, 50000, 50000, 1, err, sizeof err) != 0, "overflow accepted");
  CHECK(strstr(err, "do not fit in an int") != NULL, "message: %s", err);
}

static void test_interior(void) {
  sg_grid g;
  sg_grid_init(&g, 3, 2, 1, err, sizeof err);
  int *cells = sg_interior_cells(&g, err, sizeof err);
  const int want_cells[6] = {6, 7, 8, 11, 12, 13}; /* ex = 5 */
  for (int k = 0; k < 6; k++) CHECK(cells[k] == want_cells[k], "cell %d: %d", k, cells[k]);
  free(cells);

  int *m = sg_interior_map(&g, SG_STENCIL5, 5, err, sizeof err);
  CHECK(m != NULL, "%s", err);
  /* Interior cell (0, 0) = 6: east 7, west 5 (ghost), north 11, south 1 (ghost). */
  const int want0[5] = {6, 7, 5, 11, 1};
  /* Interior cell (2, 1) = 13: east 14 (ghost), west 12, north 18 (ghost), south 8. */
  const int want5[5] = {13, 14, 12, 18, 8};
  for (int k = 0; k < 5; k++) {
    CHECK(m[k] == want0[k], "row 0 entry %d: %d", k, m[k]);
    CHECK(m[5 * 5 + k] == want5[k], "row 5 entry %d: %d", k, m[25 + k]);
  }
  /* idx 0 is injective: every interior cell appears once. */
  for (int r = 0; r < 6; r++) CHECK(m[5 * r] == want_cells[r], "self of row %d", r);
  free(m);

  /* Two offsets, and nine (more than the fill's table of differences), against sg_cell. */
  sg_offset nine[9];
  for (int k = 0; k < 9; k++) nine[k] = (sg_offset){k % 3 - 1, k / 3 - 1};
  for (int noff = 2; noff <= 9; noff += 7) {
    int *mm = sg_interior_map(&g, nine, noff, err, sizeof err);
    CHECK(mm != NULL, "%s", err);
    for (int r = 0; mm && r < g.ninterior; r++)
      for (int k = 0; k < noff; k++)
        CHECK(mm[r * noff + k] == sg_cell(&g, r % g.nx + nine[k].di, r / g.nx + nine[k].dj),
              "%d offsets: row %d entry %d is %d", noff, r, k, mm[r * noff + k]);
    free(mm);
  }

  const sg_offset too_far[2] = {{0, 0}, {2, 0}};
  CHECK(sg_interior_map(&g, too_far, 2, err, sizeof err) == NULL, "offset 2 with 1 layer");
  CHECK(strstr(err, "beyond the 1 ghost layer") != NULL, "message: %s", err);
  CHECK(sg_interior_map(&g, SG_STENCIL5, 0, err, sizeof err) == NULL, "no offsets accepted");
}

static void test_faces(void) {
  sg_grid g;
  sg_grid_init(&g, 3, 2, 2, err, sizeof err); /* ex = 7: cell (i, j) = (j + 2) * 7 + i + 2 */
  const int muscl[4] = {-2, -1, 0, 1};
  int *x = sg_xface_map(&g, muscl, 4, err, sizeof err);
  CHECK(x != NULL, "%s", err);
  /* x-face (0, 0): cells -2..1 of row 0 = 14 + {0, 1, 2, 3}. */
  for (int m = 0; m < 4; m++) CHECK(x[m] == 14 + m, "x-face 0 entry %d: %d", m, x[m]);
  /* x-face (3, 1) (east boundary of row 1), face number 1 * 4 + 3 = 7: cells 1..4 of row 1. */
  for (int m = 0; m < 4; m++)
    CHECK(x[7 * 4 + m] == 3 * 7 + 2 + 1 + m, "x-face 7 entry %d: %d", m, x[28 + m]);
  free(x);

  int *y = sg_yface_map(&g, muscl, 4, err, sizeof err);
  CHECK(y != NULL, "%s", err);
  /* y-face (i = 1, k = 2) (north boundary), number 2 * 3 + 1 = 7: cells (1, 0..3). */
  for (int m = 0; m < 4; m++)
    CHECK(y[7 * 4 + m] == sg_cell(&g, 1, m), "y-face 7 entry %d: %d", m, y[28 + m]);
  free(y);

  const int two[2] = {-1, 0};
  sg_grid g1;
  sg_grid_init(&g1, 3, 2, 1, err, sizeof err);
  CHECK(sg_xface_map(&g1, muscl, 4, err, sizeof err) == NULL, "MUSCL offsets with 1 layer");
  CHECK(strstr(err, "outside [-1, 0]") != NULL, "message: %s", err);
  int *x1 = sg_xface_map(&g1, two, 2, err, sizeof err);
  CHECK(x1 && x1[0] == 5 && x1[1] == 6, "x-face 0 of a 1-layer grid: %d %d", x1[0], x1[1]);
  free(x1);
  sg_grid g0;
  sg_grid_init(&g0, 3, 2, 0, err, sizeof err);
  CHECK(sg_yface_map(&g0, two, 2, err, sizeof err) == NULL, "boundary faces without ghosts");
}

/* The source of ghost (i, j) in gh, or -1. */
static int source_of(const sg_grid *g, const sg_ghosts *gh, int i, int j, int *sides) {
  int c = sg_cell(g, i, j);
  for (int k = 0; k < gh->n; k++)
    if (gh->ghost[k] == c) {
      if (sides) *sides = gh->sides[k];
      return gh->source[k];
    }
  return -1;
}

static void test_ghosts(void) {
  sg_grid g;
  sg_grid_init(&g, 4, 3, 2, err, sizeof err);
  sg_ghosts gh;
  const sg_boundary mixed[4] = {SG_TRANSMISSIVE, SG_REFLECTIVE, SG_PERIODIC, SG_PERIODIC};
  CHECK(sg_ghost_sources(&g, mixed, &gh, err, sizeof err) == 0, "%s", err);
  CHECK(gh.n == g.nghost, "%d ghosts", gh.n);
  int sides = 0;
  /* West transmissive: both layers copy column 0. */
  CHECK(source_of(&g, &gh, -1, 1, &sides) == sg_cell(&g, 0, 1), "west layer 1");
  CHECK(sides == SG_SIDE_BIT(SG_WEST), "west sides %d", sides);
  CHECK(source_of(&g, &gh, -2, 1, NULL) == sg_cell(&g, 0, 1), "west layer 2");
  /* East reflective: column 4 mirrors 3, column 5 mirrors 2. */
  CHECK(source_of(&g, &gh, 4, 2, NULL) == sg_cell(&g, 3, 2), "east layer 1");
  CHECK(source_of(&g, &gh, 5, 2, NULL) == sg_cell(&g, 2, 2), "east layer 2");
  /* South/north periodic: row -1 wraps to 2, row -2 to 1, row 3 to 0, row 4 to 1. */
  CHECK(source_of(&g, &gh, 1, -1, NULL) == sg_cell(&g, 1, 2), "south layer 1");
  CHECK(source_of(&g, &gh, 1, -2, NULL) == sg_cell(&g, 1, 1), "south layer 2");
  CHECK(source_of(&g, &gh, 1, 3, NULL) == sg_cell(&g, 1, 0), "north layer 1");
  CHECK(source_of(&g, &gh, 1, 4, NULL) == sg_cell(&g, 1, 1), "north layer 2");
  /* Corner (5, -2): east rule on i (mirror to 2), south rule on j (wrap to 1). */
  CHECK(source_of(&g, &gh, 5, -2, &sides) == sg_cell(&g, 2, 1), "corner");
  CHECK(sides == (SG_SIDE_BIT(SG_EAST) | SG_SIDE_BIT(SG_SOUTH)), "corner sides %d", sides);
  /* Every source is an interior cell, and no interior cell is listed as a ghost. */
  for (int k = 0; k < gh.n; k++) {
    int c = gh.source[k], i = c % g.ex - g.g, j = c / g.ex - g.g;
    CHECK(i >= 0 && i < g.nx && j >= 0 && j < g.ny, "ghost %d source %d not interior",
          gh.ghost[k], c);
    int gi = gh.ghost[k] % g.ex - g.g, gj = gh.ghost[k] / g.ex - g.g;
    CHECK(gi < 0 || gi >= g.nx || gj < 0 || gj >= g.ny, "interior cell %d listed", gh.ghost[k]);
  }
  sg_ghosts_free(&gh);

  const sg_boundary unpaired[4] = {SG_PERIODIC, SG_TRANSMISSIVE, SG_REFLECTIVE, SG_REFLECTIVE};
  CHECK(sg_ghost_sources(&g, unpaired, &gh, err, sizeof err) != 0, "unpaired periodic");
  CHECK(strstr(err, "periodic needs both opposite sides") != NULL, "message: %s", err);
  sg_grid thin;
  sg_grid_init(&thin, 1, 5, 2, err, sizeof err);
  const sg_boundary refl[4] = {SG_REFLECTIVE, SG_REFLECTIVE, SG_TRANSMISSIVE, SG_TRANSMISSIVE};
  CHECK(sg_ghost_sources(&thin, refl, &gh, err, sizeof err) != 0, "2 layers mirrored in 1 cell");
  const sg_boundary trans[4] = {SG_TRANSMISSIVE, SG_TRANSMISSIVE, SG_TRANSMISSIVE,
                                SG_TRANSMISSIVE};
  CHECK(sg_ghost_sources(&thin, trans, &gh, err, sizeof err) == 0, "%s", err);
  CHECK(gh.n == thin.nghost, "thin ghosts %d", gh.n);
  sg_ghosts_free(&gh);

  CHECK(sg_boundary_from_name("periodic") == SG_PERIODIC, "name");
  CHECK(sg_boundary_from_name("wall") == -1, "unknown name");
  CHECK(strcmp(sg_boundary_name(SG_REFLECTIVE), "reflective") == 0, "name back");
}

/* Row slices, as processes generate them, put together give the whole maps. */
static void test_row_slices(void) {
  sg_grid g;
  sg_grid_init(&g, 5, 3, 2, err, sizeof err);
  const int xoff[4] = {-2, -1, 0, 1};
  for (int which = 0; which < 3; which++) {
    int rows = which == 0 ? g.ninterior : which == 1 ? g.nxfaces : g.nyfaces;
    int per = which == 0 ? 5 : 4;
    int *whole = which == 0   ? sg_interior_map(&g, SG_STENCIL5, 5, err, sizeof err)
                 : which == 1 ? sg_xface_map(&g, xoff, 4, err, sizeof err)
                              : sg_yface_map(&g, xoff, 4, err, sizeof err);
    CHECK(whole != NULL, "%s", err);
    /* The interior map against sg_cell, row by row (it is filled without a
     * division per row). */
    for (int r = 0; which == 0 && whole && r < rows; r++)
      for (int m = 0; m < 5; m++) {
        const int want = sg_cell(&g, r % g.nx + SG_STENCIL5[m].di, r / g.nx + SG_STENCIL5[m].dj);
        CHECK(whole[5 * r + m] == want, "interior row %d entry %d: %d, expected %d", r, m,
              whole[5 * r + m], want);
      }
    for (int first = 0; whole && first < rows; first += 4) {
      int count = rows - first < 4 ? rows - first : 4;
      int *part = which == 0   ? sg_interior_map_rows(&g, SG_STENCIL5, 5, first, count, err, sizeof err)
                  : which == 1 ? sg_xface_map_rows(&g, xoff, 4, first, count, err, sizeof err)
                               : sg_yface_map_rows(&g, xoff, 4, first, count, err, sizeof err);
      CHECK(part != NULL, "%s", err);
      if (part)
        CHECK(memcmp(part, whole + (size_t)first * per, sizeof(int) * (size_t)count * per) == 0,
              "map %d rows [%d, %d) differ from the whole map's", which, first, first + count);
      free(part);
    }
    free(whole);
  }
  CHECK(sg_interior_map_rows(&g, SG_STENCIL5, 5, 10, 6, err, sizeof err) == NULL, "rows past the end");
  CHECK(strstr(err, "outside [0, 15)") != NULL, "%s", err);
  CHECK(sg_xface_map_rows(&g, xoff, 4, -1, 2, err, sizeof err) == NULL, "negative first row");
}

/* The geometry a partitioner is given: centres in cell widths, and the
 * face neighbours: 2 at a corner, 3 along a side, 4 inside, symmetric. */
static void test_geometry(void) {
  sg_grid g;
  sg_grid_init(&g, 3, 2, 1, err, sizeof err); /* ex = 5, ey = 4 */
  double xy[4];
  sg_cell_centres(&g, sg_cell(&g, 0, 0), 2, xy);
  CHECK(xy[0] == 0.5 && xy[1] == 0.5 && xy[2] == 1.5 && xy[3] == 0.5, "centres %g %g %g %g", xy[0],
        xy[1], xy[2], xy[3]);
  sg_cell_centres(&g, 0, 1, xy);
  CHECK(xy[0] == -0.5 && xy[1] == -0.5, "ghost corner at %g %g", xy[0], xy[1]);
  int out[4], back[4];
  CHECK(sg_cell_adjacent(&g, 0, out) == 2 && out[0] == 1 && out[1] == 5, "corner");
  CHECK(sg_cell_adjacent(&g, 2, out) == 3 && out[0] == 1 && out[1] == 3 && out[2] == 7, "south side");
  int c = sg_cell(&g, 1, 1);
  CHECK(sg_cell_adjacent(&g, c, out) == 4 && out[0] == c - 5 && out[1] == c - 1 && out[2] == c + 1 &&
            out[3] == c + 5,
        "inside");
  for (int a = 0; a < g.ncells; a++) {
    int n = sg_cell_adjacent(&g, a, out);
    for (int k = 0; k < n; k++) {
      int m = sg_cell_adjacent(&g, out[k], back), found = 0;
      for (int q = 0; q < m; q++) found |= back[q] == a;
      CHECK(found, "%d is adjacent to %d but not the other way", a, out[k]);
      CHECK(k == 0 || out[k] > out[k - 1], "cell %d: neighbours not ascending", a);
    }
  }
}

int main(void) {
  test_init();
  test_row_slices();
  test_interior();
  test_faces();
  test_ghosts();
  test_geometry();
  return check_exit("test_structured_grid");
}
