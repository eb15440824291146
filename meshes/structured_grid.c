/*
 * structured_grid.c - numbering, maps and ghost sources of a structured grid
 * (see structured_grid.h).
 */
#include "structured_grid.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const sg_offset SG_STENCIL5[5] = {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}};

static void set_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || errlen == 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

int sg_grid_init(sg_grid *grid, int nx, int ny, int g, char *err, size_t errlen) {
  memset(grid, 0, sizeof *grid);
  if (nx < 1 || ny < 1) {
    set_err(err, errlen, "structured grid: %d x %d cells: need at least 1 x 1", nx, ny);
    return -1;
  }
  if (g < 0) {
    set_err(err, errlen, "structured grid: %d ghost layers: need 0 or more", g);
    return -1;
  }
  long long ex = (long long)nx + 2LL * g, ey = (long long)ny + 2LL * g;
  long long faces_x = ((long long)nx + 1) * ny, faces_y = (long long)nx * ((long long)ny + 1);
  if (ex * ey > INT_MAX || faces_x > INT_MAX || faces_y > INT_MAX) {
    set_err(err, errlen,
            "structured grid: %d x %d cells with %d ghost layers: %lld cells do not fit in an "
            "int",
            nx, ny, g, ex * ey);
    return -1;
  }
  grid->nx = nx;
  grid->ny = ny;
  grid->g = g;
  grid->ex = (int)ex;
  grid->ey = (int)ey;
  grid->ncells = (int)(ex * ey);
  grid->ninterior = nx * ny;
  grid->nghost = grid->ncells - grid->ninterior;
  grid->nxfaces = (int)faces_x;
  grid->nyfaces = (int)faces_y;
  return 0;
}

/* rows x per ints, or NULL with a message when the count overflows an int or
 * memory runs out. */
static int *alloc_map(long long rows, int per, const char *what, char *err, size_t errlen) {
  long long count = rows * per;
  if (count > INT_MAX) {
    set_err(err, errlen, "structured grid: the %s map has %lld entries, more than an int holds",
            what, count);
    return NULL;
  }
  int *m = malloc(sizeof(int) * (size_t)(count > 0 ? count : 1));
  if (!m) set_err(err, errlen, "structured grid: out of memory for the %s map", what);
  return m;
}

int *sg_interior_cells(const sg_grid *grid, char *err, size_t errlen) {
  int *cells = alloc_map(grid->ninterior, 1, "interior cell", err, errlen);
  if (!cells) return NULL;
  int n = 0;
  for (int j = 0; j < grid->ny; j++)
    for (int i = 0; i < grid->nx; i++) cells[n++] = sg_cell(grid, i, j);
  return cells;
}

/* Rows [first, first + count) of a set of n rows: 0 when valid, else -1 with a message. */
static int check_rows(int first, int count, int n, const char *what, char *err, size_t errlen) {
  if (first < 0 || count < 0 || first > n || count > n - first) {
    set_err(err, errlen, "structured grid: rows [%d, %d + %d) of the %s map: outside [0, %d)", first,
            first, count, what, n);
    return -1;
  }
  return 0;
}

int *sg_interior_map(const sg_grid *grid, const sg_offset *off, int noff, char *err,
                     size_t errlen) {
  return sg_interior_map_rows(grid, off, noff, 0, grid->ninterior, err, errlen);
}

int sg_interior_map_check(const sg_grid *grid, const sg_offset *off, int noff, int first,
                          int count, char *err, size_t errlen) {
  if (noff < 1 || !off) {
    set_err(err, errlen, "structured grid: an interior map needs at least one offset");
    return -1;
  }
  for (int m = 0; m < noff; m++) {
    if (abs(off[m].di) > grid->g || abs(off[m].dj) > grid->g) {
      set_err(err, errlen,
              "structured grid: offset %d (%d, %d) reaches beyond the %d ghost layer(s)", m,
              off[m].di, off[m].dj, grid->g);
      return -1;
    }
  }
  if (check_rows(first, count, grid->ninterior, "interior", err, errlen) != 0) return -1;
  if ((long long)count * noff > INT_MAX) {
    set_err(err, errlen, "structured grid: the interior map has %lld entries, more than an int "
                         "holds", (long long)count * noff);
    return -1;
  }
  return 0;
}

/* Row by row without a division per row: (i, j) steps along the rows, and
 * ENTRY is entry m of row (i, j), whose own cell is c. With the table, each
 * offset is a constant difference of cell numbers; five offsets (the 5-point
 * stencil) get a loop of their own that the compiler unrolls. */
#define FILL_ROWS(NOFF, ENTRY)                             \
  do {                                                     \
    for (int r = 0; r < count; r++) {                      \
      const int c = sg_cell(grid, i, j);                   \
      (void)c;                                             \
      for (int m = 0; m < (NOFF); m++) out[m] = (ENTRY);   \
      out += (NOFF);                                       \
      if (++i == grid->nx) {                               \
        i = 0;                                             \
        j++;                                               \
      }                                                    \
    }                                                      \
  } while (0)

void sg_interior_map_fill(const sg_grid *grid, const sg_offset *off, int noff, int first,
                          int count, int *out) {
  int i = first % grid->nx, j = first / grid->nx;
  enum { TABLE = 8 };
  if (noff > TABLE) { /* more offsets than the table holds: each entry from its offset */
    FILL_ROWS(noff, sg_cell(grid, i + off[m].di, j + off[m].dj));
    return;
  }
  int d[TABLE];
  for (int m = 0; m < noff; m++) d[m] = off[m].dj * grid->ex + off[m].di;
  if (noff == 5)
    FILL_ROWS(5, c + d[m]);
  else
    FILL_ROWS(noff, c + d[m]);
}

int *sg_interior_map_rows(const sg_grid *grid, const sg_offset *off, int noff, int first, int count,
                          char *err, size_t errlen) {
  if (sg_interior_map_check(grid, off, noff, first, count, err, errlen) != 0) return NULL;
  int *map = alloc_map(count, noff, "interior", err, errlen);
  if (!map) return NULL;
  sg_interior_map_fill(grid, off, noff, first, count, map);
  return map;
}

/* Face k of a line of n cells lies between cells k-1 and k; offset o names cell k + o,
 * which must lie in [-g, n + g) for every k in [0, n]. */
void sg_cell_centres(const sg_grid *grid, int first, int count, double *xy) {
  for (int k = 0; k < count; k++) {
    const int c = first + k;
    xy[2 * k] = c % grid->ex - grid->g + 0.5;
    xy[2 * k + 1] = c / grid->ex - grid->g + 0.5;
  }
}

int sg_cell_adjacent(const sg_grid *grid, int c, int *out) {
  const int i = c % grid->ex, j = c / grid->ex;
  int n = 0;
  if (j > 0) out[n++] = c - grid->ex;
  if (i > 0) out[n++] = c - 1;
  if (i + 1 < grid->ex) out[n++] = c + 1;
  if (j + 1 < grid->ey) out[n++] = c + grid->ex;
  return n;
}

static int check_face_offsets(const sg_grid *grid, const int *off, int noff, const char *what,
                              char *err, size_t errlen) {
  if (noff < 1 || !off) {
    set_err(err, errlen, "structured grid: a %s map needs at least one offset", what);
    return -1;
  }
  for (int m = 0; m < noff; m++) {
    if (off[m] < -grid->g || off[m] > grid->g - 1) {
      set_err(err, errlen,
              "structured grid: %s offset %d is %d, outside [%d, %d] that %d ghost layer(s) allow",
              what, m, off[m], -grid->g, grid->g - 1, grid->g);
      return -1;
    }
  }
  return 0;
}

int *sg_xface_map(const sg_grid *grid, const int *off, int noff, char *err, size_t errlen) {
  return sg_xface_map_rows(grid, off, noff, 0, grid->nxfaces, err, errlen);
}

int *sg_xface_map_rows(const sg_grid *grid, const int *off, int noff, int first, int count,
                       char *err, size_t errlen) {
  if (check_face_offsets(grid, off, noff, "x-face", err, errlen) != 0) return NULL;
  if (check_rows(first, count, grid->nxfaces, "x-face", err, errlen) != 0) return NULL;
  int *map = alloc_map(count, noff, "x-face", err, errlen);
  if (!map) return NULL;
  size_t e = 0;
  for (int r = first; r < first + count; r++) {
    int k = r % (grid->nx + 1), j = r / (grid->nx + 1);
    for (int m = 0; m < noff; m++) map[e++] = sg_cell(grid, k + off[m], j);
  }
  return map;
}

int *sg_yface_map(const sg_grid *grid, const int *off, int noff, char *err, size_t errlen) {
  return sg_yface_map_rows(grid, off, noff, 0, grid->nyfaces, err, errlen);
}

int *sg_yface_map_rows(const sg_grid *grid, const int *off, int noff, int first, int count,
                       char *err, size_t errlen) {
  if (check_face_offsets(grid, off, noff, "y-face", err, errlen) != 0) return NULL;
  if (check_rows(first, count, grid->nyfaces, "y-face", err, errlen) != 0) return NULL;
  int *map = alloc_map(count, noff, "y-face", err, errlen);
  if (!map) return NULL;
  size_t e = 0;
  for (int r = first; r < first + count; r++) {
    int i = r % grid->nx, k = r / grid->nx;
    for (int m = 0; m < noff; m++) map[e++] = sg_cell(grid, i, k + off[m]);
  }
  return map;
}

/* The interior index a ghost index q of a line of n cells copies from, given the
 * conditions on the low and the high side. Interior q is returned unchanged. */
static int source_index(int q, int n, sg_boundary low, sg_boundary high) {
  if (q < 0) {
    switch (low) {
      case SG_TRANSMISSIVE: return 0;
      case SG_REFLECTIVE: return -1 - q;
      case SG_PERIODIC: return q + n;
    }
  } else if (q >= n) {
    switch (high) {
      case SG_TRANSMISSIVE: return n - 1;
      case SG_REFLECTIVE: return 2 * n - 1 - q;
      case SG_PERIODIC: return q - n;
    }
  }
  return q;
}

static int check_pair(sg_boundary low, sg_boundary high, int n, int g, const char *lo_name,
                      const char *hi_name, char *err, size_t errlen) {
  if ((low == SG_PERIODIC) != (high == SG_PERIODIC)) {
    set_err(err, errlen,
            "structured grid: %s is %s but %s is %s: periodic needs both opposite sides", lo_name,
            sg_boundary_name(low), hi_name, sg_boundary_name(high));
    return -1;
  }
  if ((low != SG_TRANSMISSIVE || high != SG_TRANSMISSIVE) && g > n) {
    set_err(err, errlen,
            "structured grid: %d ghost layers but only %d cells between %s and %s: reflective "
            "and periodic sources would fall outside the interior",
            g, n, lo_name, hi_name);
    return -1;
  }
  return 0;
}

int sg_ghost_sources(const sg_grid *grid, const sg_boundary bc[4], sg_ghosts *out, char *err,
                     size_t errlen) {
  memset(out, 0, sizeof *out);
  for (int s = 0; s < 4; s++) {
    if (bc[s] != SG_TRANSMISSIVE && bc[s] != SG_REFLECTIVE && bc[s] != SG_PERIODIC) {
      set_err(err, errlen, "structured grid: unknown boundary condition %d on side %d",
              (int)bc[s], s);
      return -1;
    }
  }
  if (check_pair(bc[SG_WEST], bc[SG_EAST], grid->nx, grid->g, "west", "east", err, errlen) ||
      check_pair(bc[SG_SOUTH], bc[SG_NORTH], grid->ny, grid->g, "south", "north", err, errlen))
    return -1;
  int n = grid->nghost;
  out->ghost = alloc_map(n, 1, "ghost", err, errlen);
  out->source = alloc_map(n, 1, "ghost source", err, errlen);
  out->sides = alloc_map(n, 1, "ghost side", err, errlen);
  if (!out->ghost || !out->source || !out->sides) {
    sg_ghosts_free(out);
    return -1;
  }
  int k = 0, g = grid->g;
  for (int j = -g; j < grid->ny + g; j++) {
    for (int i = -g; i < grid->nx + g; i++) {
      int sides = (i < 0 ? SG_SIDE_BIT(SG_WEST) : 0) | (i >= grid->nx ? SG_SIDE_BIT(SG_EAST) : 0) |
                  (j < 0 ? SG_SIDE_BIT(SG_SOUTH) : 0) | (j >= grid->ny ? SG_SIDE_BIT(SG_NORTH) : 0);
      if (!sides) continue;
      int si = source_index(i, grid->nx, bc[SG_WEST], bc[SG_EAST]);
      int sj = source_index(j, grid->ny, bc[SG_SOUTH], bc[SG_NORTH]);
      out->ghost[k] = sg_cell(grid, i, j);
      out->source[k] = sg_cell(grid, si, sj);
      out->sides[k] = sides;
      k++;
    }
  }
  out->n = k;
  return 0;
}

void sg_ghosts_free(sg_ghosts *gh) {
  free(gh->ghost);
  free(gh->source);
  free(gh->sides);
  memset(gh, 0, sizeof *gh);
}

static const char *const boundary_names[] = {"transmissive", "reflective", "periodic"};

int sg_boundary_from_name(const char *name) {
  for (int b = 0; b < 3; b++)
    if (name && strcmp(name, boundary_names[b]) == 0) return b;
  return -1;
}

const char *sg_boundary_name(sg_boundary b) {
  return (int)b >= 0 && (int)b < 3 ? boundary_names[b] : "unknown";
}
