/*
 * op_xdmf.c - XDMF descriptions of OP2 results in HDF5 files (op_xdmf.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "op_xdmf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "op2_renumber.h"
#include "op_hdf5_impl.h"
#include "op_io_util.h"

/* ---- description of what an .xmf shows ---------------------------------------------- */

typedef struct {
  char *path;     /* dataset path in the HDF5 file (= dat name) */
  int dim;
  op_type type;
  long long rows;
  int node;       /* 1: node-centred, 0: cell-centred */
  op_dat dat;
} xfield;

typedef struct {
  int structured;
  /* unstructured */
  op_map map;
  op_dat coords;
  char *mesh_file; /* NULL: the data file */
  /* structured */
  int nx, ny;
  double x0, y0, dx, dy;
  xfield *f;
  int nf;
} xdesc;

struct op_xdmf_series {
  xdesc d;
  char *xmf;
  int n, cap;
  double *times;
  char **files;
};

static char *dupstr(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

static void desc_free(xdesc *d) {
  for (int i = 0; i < d->nf; ++i)
    free(d->f[i].path);
  free(d->f);
  free(d->mesh_file);
  memset(d, 0, sizeof *d);
}

/* The name of component k of a field stored one dataset per component
 * (dims above 3): "<path>_<k>". */
static char *component_path(const char *path, int k) {
  size_t n = strlen(path) + 16;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, "%s_%d", path, k);
  return s;
}

/* on: the set the dat must be declared on (strict), or NULL: any set of
 * on_size elements (sizes over all processes). */
static int add_field(const op_io_ctx *c, xdesc *d, op_dat dat, op_set on, const char *on_name,
                     int on_size, int node) {
  if (!dat || !dat->name || !dat->set)
    return OP_IO_ERR(c, OP_IO_EARG, "a %s dat is NULL or unnamed", node ? "node" : "cell");
  op_io_ctx co = *c;
  co.what = "dat";
  co.object = dat->name;
  const int size = op_get_size(dat->set);
  if (on ? dat->set != on : size != on_size)
    return OP_IO_ERR(&co, OP_IO_EARG, "is declared on set '%s' (size %d), expected %s set '%s' (size %d)",
                     dat->set->name ? dat->set->name : "?", size, node ? "node" : "cell",
                     on_name ? on_name : "?", on_size);
  if (dat->dim < 1)
    return OP_IO_ERR(&co, OP_IO_EARG, "invalid dim %d", dat->dim);
  xfield *f = &d->f[d->nf];
  f->path = dupstr(dat->name);
  if (!f->path)
    return OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory");
  f->dim = dat->dim;
  f->type = dat->type;
  f->rows = size;
  f->node = node;
  f->dat = dat;
  d->nf++;
  return OP_IO_OK;
}

static int desc_from_mesh(const op_io_ctx *c, const op_xdmf_mesh *m, xdesc *d) {
  memset(d, 0, sizeof *d);
  if (!m || !m->cell_nodes || !m->coords)
    return OP_IO_ERR(c, OP_IO_EARG, "mesh without cell_nodes map or coordinates");
  op_map map = m->cell_nodes;
  if (map->dim != 3 && map->dim != 4)
    return OP_IO_ERR(c, OP_IO_EARG, "map '%s' has dim %d: only triangles (3) and quadrilaterals (4)",
                     map->name ? map->name : "?", map->dim);
  if (!map->from || !map->to || !map->name || !m->coords->name || !m->coords->set)
    return OP_IO_ERR(c, OP_IO_EARG, "incomplete map or coordinate dat");
  if (m->coords->dim != 2 && m->coords->dim != 3)
    return OP_IO_ERR(c, OP_IO_EARG, "coordinates '%s' have dim %d, expected 2 or 3",
                     m->coords->name, m->coords->dim);
  if (op_get_size(m->coords->set) != op_get_size(map->to))
    return OP_IO_ERR(c, OP_IO_EARG, "coordinates '%s' are on a set of size %d, map '%s' points to size %d",
                     m->coords->name, op_get_size(m->coords->set), map->name, op_get_size(map->to));
  if (m->ncell_dats < 0 || m->nnode_dats < 0 || (m->ncell_dats && !m->cell_dats) ||
      (m->nnode_dats && !m->node_dats))
    return OP_IO_ERR(c, OP_IO_EARG, "invalid dat lists");
  d->map = map;
  d->coords = m->coords;
  if (m->mesh_file && !(d->mesh_file = dupstr(m->mesh_file)))
    return OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory");
  d->f = calloc((size_t)(m->ncell_dats + m->nnode_dats) + 1, sizeof *d->f);
  if (!d->f) {
    desc_free(d);
    return OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory");
  }
  int rc = OP_IO_OK;
  for (int i = 0; rc == OP_IO_OK && i < m->ncell_dats; ++i)
    rc = add_field(c, d, m->cell_dats[i], map->from, map->from->name, op_get_size(map->from), 0);
  for (int i = 0; rc == OP_IO_OK && i < m->nnode_dats; ++i)
    rc = add_field(c, d, m->node_dats[i], map->to, map->to->name, op_get_size(map->to), 1);
  if (rc != OP_IO_OK)
    desc_free(d);
  return rc;
}

static int desc_from_grid(const op_io_ctx *c, const op_xdmf_grid *g, xdesc *d) {
  memset(d, 0, sizeof *d);
  if (!g || g->nx < 1 || g->ny < 1)
    return OP_IO_ERR(c, OP_IO_EARG, "invalid grid (%d x %d cells)", g ? g->nx : 0, g ? g->ny : 0);
  if (!isfinite(g->x0) || !isfinite(g->y0) || !(g->dx > 0) || !(g->dy > 0) || !isfinite(g->dx) ||
      !isfinite(g->dy))
    return OP_IO_ERR(c, OP_IO_EARG, "invalid grid origin or spacing");
  if ((long long)g->nx * g->ny > 0x7fffffffLL)
    return OP_IO_ERR(c, OP_IO_EARG, "grid too large");
  if (g->ncell_dats < 0 || (g->ncell_dats && !g->cell_dats))
    return OP_IO_ERR(c, OP_IO_EARG, "invalid dat list");
  d->structured = 1;
  if (g->mesh_file && !(d->mesh_file = dupstr(g->mesh_file)))
    return OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory");
  d->nx = g->nx;
  d->ny = g->ny;
  d->x0 = g->x0;
  d->y0 = g->y0;
  d->dx = g->dx;
  d->dy = g->dy;
  d->f = calloc((size_t)g->ncell_dats + 1, sizeof *d->f);
  if (!d->f) {
    desc_free(d);
    return OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory");
  }
  int rc = OP_IO_OK;
  for (int i = 0; rc == OP_IO_OK && i < g->ncell_dats; ++i)
    rc = add_field(c, d, g->cell_dats[i], NULL, "grid cells", g->nx * g->ny, 0);
  if (rc != OP_IO_OK)
    desc_free(d);
  return rc;
}

/* ---- checking the HDF5 side -------------------------------------------------------- */

static int check_dataset(const op_io_ctx *c, hid_t f, const char *path, long long rows, int cols,
                         op_type type, const char *xmf) {
  op_io_ctx co = *c;
  co.what = "dataset";
  co.object = path;
  op_hdf5_info info;
  int rc = op_h5_query(c, f, path, &info);
  if (rc != OP_IO_OK)
    return rc;
  if (!info.type_known || info.type != type)
    return OP_IO_ERR(&co, OP_IO_ETYPE, "stored type '%s', expected '%s' (for '%s')", info.type_name,
                     op_io_type_name(type), xmf);
  int ok = (info.rank == 2 && info.rows == rows && info.cols == cols) ||
           (info.rank == 1 && cols == 1 && info.rows == rows);
  if (!ok)
    return OP_IO_ERR(&co, OP_IO_ESHAPE, "shape [%lld x %lld] (rank %d), expected [%lld x %d] (for '%s')",
                     info.rows, info.cols, info.rank, rows, cols, xmf);
  return OP_IO_OK;
}

static int check_mesh_file(const op_io_ctx *c0, const xdesc *d, const char *file, const char *xmf) {
  op_io_ctx c = op_h5_ctx(c0->err, c0->errlen, file);
  hid_t f;
  int rc = op_h5_open_read(&c, &f);
  if (rc != OP_IO_OK)
    return rc;
  if (d->structured) {
    rc = check_dataset(&c, f, OP_XDMF_GRID_QUADS, (long long)d->nx * d->ny, 4, OP_TYPE_INT, xmf);
    if (rc == OP_IO_OK)
      rc = check_dataset(&c, f, OP_XDMF_GRID_NODES, (long long)(d->nx + 1) * (d->ny + 1), 2,
                         OP_TYPE_DOUBLE, xmf);
  } else {
    rc = check_dataset(&c, f, d->map->name, op_get_size(d->map->from), d->map->dim, OP_TYPE_INT,
                       xmf);
    if (rc == OP_IO_OK)
      rc = check_dataset(&c, f, d->coords->name, op_get_size(d->coords->set), d->coords->dim,
                         d->coords->type, xmf);
  }
  int rc2 = op_h5_close(&c, f);
  return rc != OP_IO_OK ? rc : rc2;
}

static int check_data_file(const op_io_ctx *c0, const xdesc *d, const char *file, const char *xmf) {
  op_io_ctx c = op_h5_ctx(c0->err, c0->errlen, file);
  hid_t f;
  int rc = op_h5_open_read(&c, &f);
  if (rc != OP_IO_OK)
    return rc;
  for (int i = 0; rc == OP_IO_OK && i < d->nf; ++i) {
    const xfield *x = &d->f[i];
    if (x->dim <= 3) {
      rc = check_dataset(&c, f, x->path, x->rows, x->dim, x->type, xmf);
      continue;
    }
    for (int k = 0; rc == OP_IO_OK && k < x->dim; ++k) {
      char *path = component_path(x->path, k);
      if (!path)
        rc = OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory");
      else if (op_h5_dataset_exists(&c, f, path) == 0)
        rc = OP_IO_ERR(&c, OP_IO_ENOENT,
                       "no dataset '%s': dat '%s' has %d components, which '%s' shows as one "
                       "dataset each (op_xdmf_save and op_xdmf_series_save write them)",
                       path, x->path, x->dim, xmf);
      else
        rc = check_dataset(&c, f, path, x->rows, 1, x->type, xmf);
      free(path);
    }
  }
  int rc2 = op_h5_close(&c, f);
  rc = rc != OP_IO_OK ? rc : rc2;
  if (rc == OP_IO_OK && !d->mesh_file)
    rc = check_mesh_file(c0, d, file, xmf);
  return rc;
}

/* ---- XML ---------------------------------------------------------------------------- */

static void number_type(op_type t, const char **nt, int *prec) {
  *nt = t == OP_TYPE_INT ? "Int" : "Float";
  *prec = t == OP_TYPE_FLOAT ? 4 : (t == OP_TYPE_INT ? 4 : 8);
}

static void hdf_item(op_io_buf *b, const char *ind, const char *dims, op_type t, const char *rel,
                     const char *path) {
  const char *nt;
  int prec;
  number_type(t, &nt, &prec);
  op_io_buf_printf(b, "%s<DataItem Dimensions=\"%s\" NumberType=\"%s\" Precision=\"%d\" Format=\"HDF\">",
                   ind, dims, nt, prec);
  op_io_buf_xml(b, rel);
  op_io_buf_printf(b, ":/");
  op_io_buf_xml(b, path[0] == '/' ? path + 1 : path);
  op_io_buf_printf(b, "</DataItem>\n");
}

/* One <Attribute>. shape: the cells or nodes as the grid counts them ("N");
 * each DataItem's Dimensions is that shape plus the number of components
 * ("N 1" for a scalar), the shape of its dataset: ParaView's Xdmf3 readers
 * take a DataItem whose rank equals the dataset's as a selection of that
 * size. Fields of more than 3 components are one dataset per component
 * ("<dat>_<k>"), since the two readers accept no common way of selecting a
 * column of a dataset. */
static int emit_field(op_io_buf *b, const char *ind, const xfield *f, const char *shape,
                      const char *rel) {
  const char *center = f->node ? "Node" : "Cell";
  char dims[128], in2[64];
  snprintf(in2, sizeof in2, "%.60s  ", ind);
  const int ncomp = f->dim <= 3 ? 1 : f->dim;
  for (int k = 0; k < ncomp; ++k) {
    char *path = f->dim <= 3 ? dupstr(f->path) : component_path(f->path, k);
    if (!path)
      return -1;
    const int vector = f->dim == 2 || f->dim == 3;
    if (vector)
      snprintf(dims, sizeof dims, "%s %d", shape, f->dim);
    else
      snprintf(dims, sizeof dims, "%s 1", shape);
    op_io_buf_printf(b, "%s<Attribute Name=\"", ind);
    op_io_buf_xml(b, path);
    op_io_buf_printf(b, "\" AttributeType=\"%s\" Center=\"%s\">\n", vector ? "Vector" : "Scalar",
                     center);
    hdf_item(b, in2, dims, f->type, rel, path);
    op_io_buf_printf(b, "%s</Attribute>\n", ind);
    free(path);
  }
  return 0;
}

/* One uniform grid; rel / mesh_rel: the data / mesh HDF5 files relative to the
 * .xmf. Returns 0, or -1 when out of memory. */
static int emit_grid(op_io_buf *b, const char *ind, const xdesc *d, const char *name,
                      const double *time, const char *rel, const char *mesh_rel) {
  char in1[64], in2[64];
  snprintf(in1, sizeof in1, "%s  ", ind);
  snprintf(in2, sizeof in2, "%s    ", ind);
  op_io_buf_printf(b, "%s<Grid Name=\"", ind);
  op_io_buf_xml(b, name);
  op_io_buf_printf(b, "\" GridType=\"Uniform\">\n");
  if (time)
    op_io_buf_printf(b, "%s<Time Value=\"%.17g\"/>\n", in1, *time);
  char shape[64], dims[96];
  int rc = 0;
  if (d->structured) {
    /* Quadrilaterals in the X-Y plane, as an unstructured mesh: ParaView
     * shows them as a surface (a grid of one layer of 3D cells opened as an
     * outline), and both readers put them in the X-Y plane (a 2D structured
     * topology lands in the Y-Z plane). The nodes and quadrilaterals are
     * datasets of their own (op_xdmf_write_grid_mesh). */
    const long long nc = (long long)d->nx * d->ny, nn = (long long)(d->nx + 1) * (d->ny + 1);
    op_io_buf_printf(b, "%s<Topology TopologyType=\"Quadrilateral\" NumberOfElements=\"%lld\">\n",
                     in1, nc);
    snprintf(dims, sizeof dims, "%lld 4", nc);
    hdf_item(b, in2, dims, OP_TYPE_INT, mesh_rel, OP_XDMF_GRID_QUADS);
    op_io_buf_printf(b, "%s</Topology>\n", in1);
    op_io_buf_printf(b, "%s<Geometry GeometryType=\"XY\">\n", in1);
    snprintf(dims, sizeof dims, "%lld 2", nn);
    hdf_item(b, in2, dims, OP_TYPE_DOUBLE, mesh_rel, OP_XDMF_GRID_NODES);
    op_io_buf_printf(b, "%s</Geometry>\n", in1);
    snprintf(shape, sizeof shape, "%lld", nc);
    for (int i = 0; rc == 0 && i < d->nf; ++i)
      rc = emit_field(b, in1, &d->f[i], shape, rel);
  } else {
    long long nc = op_get_size(d->map->from);
    op_io_buf_printf(b, "%s<Topology TopologyType=\"%s\" NumberOfElements=\"%lld\">\n", in1,
                     d->map->dim == 4 ? "Quadrilateral" : "Triangle", nc);
    snprintf(dims, sizeof dims, "%lld %d", nc, d->map->dim);
    hdf_item(b, in2, dims, OP_TYPE_INT, mesh_rel, d->map->name);
    op_io_buf_printf(b, "%s</Topology>\n", in1);
    op_io_buf_printf(b, "%s<Geometry GeometryType=\"%s\">\n", in1, d->coords->dim == 2 ? "XY" : "XYZ");
    snprintf(dims, sizeof dims, "%d %d", op_get_size(d->coords->set), d->coords->dim);
    hdf_item(b, in2, dims, d->coords->type, mesh_rel, d->coords->name);
    op_io_buf_printf(b, "%s</Geometry>\n", in1);
    for (int i = 0; rc == 0 && i < d->nf; ++i) {
      snprintf(shape, sizeof shape, "%lld", d->f[i].rows);
      rc = emit_field(b, in1, &d->f[i], shape, rel);
    }
  }
  op_io_buf_printf(b, "%s</Grid>\n", ind);
  return rc;
}

/* Path of h5 relative to the directory of xmf (falls back to h5 as given). */
static char *rel_to(const char *h5, const char *xmf) {
  char *dir = op_io_dirname(xmf);
  char *r = dir ? op_io_relpath(h5, dir) : NULL;
  free(dir);
  return r ? r : dupstr(h5);
}

/* Writes the .xmf: nsteps grids; temporal collection when times != NULL. */
static int write_xmf(const op_io_ctx *c, const char *xmf, const xdesc *d, int nsteps,
                     const double *times, char *const *files) {
  op_io_buf b = {0};
  int rc = OP_IO_OK;
  op_io_buf_printf(&b, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
  op_io_buf_printf(&b, "<Xdmf xmlns:xi=\"http://www.w3.org/2001/XInclude\" Version=\"3.0\">\n");
  op_io_buf_printf(&b, "  <Domain>\n");
  const char *ind = "    ";
  if (times) {
    op_io_buf_printf(&b, "    <Grid Name=\"TimeSeries\" GridType=\"Collection\" CollectionType=\"Temporal\">\n");
    ind = "      ";
  }
  for (int s = 0; s < nsteps && rc == OP_IO_OK; ++s) {
    char *rel = rel_to(files[s], xmf);
    char *mrel = d->mesh_file ? rel_to(d->mesh_file, xmf) : NULL;
    if (!rel || (d->mesh_file && !mrel)) {
      rc = OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory");
    } else {
      char name[48];
      if (times)
        snprintf(name, sizeof name, "step_%06d", s);
      else
        snprintf(name, sizeof name, "%s", d->structured ? "grid" : "mesh");
      if (emit_grid(&b, ind, d, name, times ? &times[s] : NULL, rel, mrel ? mrel : rel) != 0)
        rc = OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory");
    }
    free(rel);
    free(mrel);
  }
  if (times)
    op_io_buf_printf(&b, "    </Grid>\n");
  op_io_buf_printf(&b, "  </Domain>\n</Xdmf>\n");
  if (rc == OP_IO_OK && b.oom)
    rc = OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory building the XML");
  if (rc == OP_IO_OK)
    rc = op_io_write_file_atomic(c, xmf, b.s, b.len);
  op_io_buf_free(&b);
  return rc;
}

/* ---- writing data ------------------------------------------------------------------- */

/* What save_data writes, in the user's numbering: gathered by every process
 * (the root receives it; op_io_util.h, "many processes"). */
typedef struct {
  const int *map;
  const void *coords;
  const void **fields;
} xdata;

static int gather_data(const op_io_ctx *c, const xdesc *d, xdata *g) {
  memset(g, 0, sizeof *g);
  g->fields = calloc((size_t)d->nf + 1, sizeof *g->fields);
  if (!g->fields)
    return OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory");
  if (!d->structured && !d->mesh_file) {
    g->map = op_fetch_map_global(d->map);
    g->coords = op_fetch_data_global(d->coords);
  }
  for (int i = 0; i < d->nf; ++i)
    g->fields[i] = op_fetch_data_global(d->f[i].dat);
  return OP_IO_OK;
}

/* The components of a field of more than 3 components, one [rows, 1] dataset
 * each ("<dat>_<k>"), beside the dat itself (see emit_field). */
static int save_components(const op_io_ctx *c, hid_t f, const xfield *x, const char *data) {
  const size_t esize = x->type == OP_TYPE_DOUBLE ? sizeof(double) : 4;
  void *owned = NULL;
  if (op_set_storage_ids(x->dat->set)) data = op_h5_user_rows(x->dat, &owned);
  char *col = malloc(esize * (size_t)(x->rows > 0 ? x->rows : 1));
  if (!col || !data) {
    free(col);
    free(owned);
    return OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory for a column of '%s'", x->path);
  }
  int rc = OP_IO_OK;
  for (int k = 0; rc == OP_IO_OK && k < x->dim; ++k) {
    for (long long r = 0; r < x->rows; ++r)
      memcpy(col + (size_t)r * esize, data + ((size_t)r * (size_t)x->dim + (size_t)k) * esize, esize);
    char *path = component_path(x->path, k);
    rc = path ? op_h5_write(c, f, path, x->type, 2, x->rows, 1, col, 1, 1)
              : OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory");
    free(path);
  }
  free(col);
  free(owned);
  return rc;
}

/* The nodes and quadrilaterals of a structured grid (OP_XDMF_GRID_NODES and
 * OP_XDMF_GRID_QUADS) into file: node (i, j) at row j (nx + 1) + i, at
 * (x0 + i dx, y0 + j dy); cell (i, j) at row j nx + i, its corners
 * counter-clockwise from the lower left. */
static int save_grid_mesh(const op_io_ctx *c0, const xdesc *d, const char *file) {
  op_io_ctx c = op_h5_ctx(c0->err, c0->errlen, file);
  const long long nc = (long long)d->nx * d->ny, nn = (long long)(d->nx + 1) * (d->ny + 1);
  double *xy = malloc(sizeof *xy * 2 * (size_t)nn);
  int *quad = malloc(sizeof *quad * 4 * (size_t)nc);
  if (!xy || !quad) {
    free(xy);
    free(quad);
    return OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory for the grid's %lld nodes", nn);
  }
  for (long long j = 0; j <= d->ny; ++j)
    for (long long i = 0; i <= d->nx; ++i) {
      const long long n = j * (d->nx + 1) + i;
      xy[2 * n] = d->x0 + (double)i * d->dx;
      xy[2 * n + 1] = d->y0 + (double)j * d->dy;
    }
  for (long long j = 0; j < d->ny; ++j)
    for (long long i = 0; i < d->nx; ++i) {
      const long long cell = j * d->nx + i, n0 = j * (d->nx + 1) + i;
      quad[4 * cell] = (int)n0;
      quad[4 * cell + 1] = (int)(n0 + 1);
      quad[4 * cell + 2] = (int)(n0 + d->nx + 2);
      quad[4 * cell + 3] = (int)(n0 + d->nx + 1);
    }
  hid_t f;
  int rc = op_h5_open_write(&c, &f);
  if (rc == OP_IO_OK) {
    rc = op_h5_write(&c, f, OP_XDMF_GRID_NODES, OP_TYPE_DOUBLE, 2, nn, 2, xy, 0, 1);
    if (rc == OP_IO_OK)
      rc = op_h5_write(&c, f, OP_XDMF_GRID_QUADS, OP_TYPE_INT, 2, nc, 4, quad, 0, 1);
    int rc2 = op_h5_close(&c, f);
    rc = rc != OP_IO_OK ? rc : rc2;
  }
  free(xy);
  free(quad);
  return rc;
}

static int save_data(const op_io_ctx *c0, const xdesc *d, const xdata *g, const char *h5file) {
  op_io_ctx c = op_h5_ctx(c0->err, c0->errlen, h5file);
  hid_t f;
  int rc = op_h5_open_write(&c, &f);
  if (rc != OP_IO_OK)
    return rc;
  if (!d->structured && !d->mesh_file) {
    rc = op_h5_write_map(&c, f, d->map, g->map, 1);
    if (rc == OP_IO_OK)
      rc = op_h5_write_dat(&c, f, d->coords, g->coords, 1);
  }
  for (int i = 0; rc == OP_IO_OK && i < d->nf; ++i) {
    if (d->f[i].dat == d->coords && !d->structured && !d->mesh_file)
      continue;
    rc = op_h5_write_dat(&c, f, d->f[i].dat, g->fields[i], 1);
    if (rc == OP_IO_OK && d->f[i].dim > 3)
      rc = save_components(&c, f, &d->f[i], g->fields[i]);
  }
  int rc2 = op_h5_close(&c, f);
  return rc != OP_IO_OK ? rc : rc2;
}

/* ---- single files --------------------------------------------------------------------- */

int op_xdmf_name(const char *h5file, char *xmf, size_t len) {
  if (!h5file || !xmf)
    return -1;
  size_t n = strlen(h5file);
  const char *exts[] = {".h5", ".hdf5", ".hdf"};
  for (size_t i = 0; i < sizeof exts / sizeof exts[0]; ++i) {
    size_t e = strlen(exts[i]);
    if (n > e && strcmp(h5file + n - e, exts[i]) == 0) {
      n -= e;
      break;
    }
  }
  int w = snprintf(xmf, len, "%.*s.xmf", (int)n, h5file);
  return (w < 0 || (size_t)w >= len) ? -1 : 0;
}

static int write_single_root(const char *h5file, const xdesc *d, const xdata *g, char *err,
                             size_t errlen) {
  op_io_ctx c = {err, errlen, "XDMF file", NULL, NULL, NULL};
  size_t n = h5file ? strlen(h5file) + 8 : 8;
  char *xmf = malloc(n);
  if (!xmf)
    return OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory");
  int rc = OP_IO_OK;
  if (!h5file || !h5file[0] || op_xdmf_name(h5file, xmf, n) != 0) {
    rc = OP_IO_ERR(&c, OP_IO_EARG, "no HDF5 file name given");
  } else {
    c.file = xmf;
    if (g)
      rc = save_data(&c, d, g, h5file);
    if (rc == OP_IO_OK && d->structured && !d->mesh_file)
      rc = save_grid_mesh(&c, d, h5file);
    if (rc == OP_IO_OK)
      rc = check_data_file(&c, d, h5file, xmf);
    if (rc == OP_IO_OK && d->mesh_file)
      rc = check_mesh_file(&c, d, d->mesh_file, xmf);
    char *files[1] = {(char *)h5file};
    if (rc == OP_IO_OK)
      rc = write_xmf(&c, xmf, d, 1, NULL, files);
  }
  free(xmf);
  return rc;
}

/* Every process calls it (the data saved is gathered on the root, which writes). */
static int write_single(const char *h5file, const xdesc *d, int save, char *err, size_t errlen) {
  op_io_ctx c = {err, errlen, "XDMF file", NULL, NULL, NULL};
  xdata g = {0};
  int rc = save ? gather_data(&c, d, &g) : OP_IO_OK;
  if (rc == OP_IO_OK && op_io_writer())
    rc = write_single_root(h5file, d, save ? &g : NULL, err, errlen);
  free(g.fields);
  return op_io_shared(rc, err);
}

int op_xdmf_write(const char *h5file, const op_xdmf_mesh *mesh, char *err, size_t errlen) {
  op_io_ctx c = {err, errlen, "HDF5 file", h5file, NULL, NULL};
  xdesc d;
  int rc = desc_from_mesh(&c, mesh, &d);
  if (rc != OP_IO_OK)
    return rc;
  rc = write_single(h5file, &d, 0, err, errlen);
  desc_free(&d);
  return rc;
}

int op_xdmf_write_grid(const char *h5file, const op_xdmf_grid *grid, char *err, size_t errlen) {
  op_io_ctx c = {err, errlen, "HDF5 file", h5file, NULL, NULL};
  xdesc d;
  int rc = desc_from_grid(&c, grid, &d);
  if (rc != OP_IO_OK)
    return rc;
  rc = write_single(h5file, &d, 0, err, errlen);
  desc_free(&d);
  return rc;
}

int op_xdmf_save(const char *h5file, const op_xdmf_mesh *mesh, char *err, size_t errlen) {
  op_io_ctx c = {err, errlen, "HDF5 file", h5file, NULL, NULL};
  xdesc d;
  int rc = desc_from_mesh(&c, mesh, &d);
  if (rc != OP_IO_OK)
    return rc;
  rc = write_single(h5file, &d, 1, err, errlen);
  desc_free(&d);
  return rc;
}

int op_xdmf_save_grid(const char *h5file, const op_xdmf_grid *grid, char *err, size_t errlen) {
  op_io_ctx c = {err, errlen, "HDF5 file", h5file, NULL, NULL};
  xdesc d;
  int rc = desc_from_grid(&c, grid, &d);
  if (rc != OP_IO_OK)
    return rc;
  rc = write_single(h5file, &d, 1, err, errlen);
  desc_free(&d);
  return rc;
}

int op_xdmf_write_grid_mesh(const char *h5file, const op_xdmf_grid *grid, char *err,
                            size_t errlen) {
  op_io_ctx c = {err, errlen, "HDF5 file", h5file, NULL, NULL};
  xdesc d;
  int rc = desc_from_grid(&c, grid, &d);
  if (rc != OP_IO_OK)
    return rc;
  if (!h5file || !h5file[0]) {
    rc = OP_IO_ERR(&c, OP_IO_EARG, "no HDF5 file name given");
  } else if (op_io_writer()) {
    /* A new file, written beside and renamed into place. */
    char *tmp = op_io_tmpname(h5file);
    if (!tmp) {
      rc = OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory");
    } else {
      (void)unlink(tmp); /* a killed run's half-written file */
      rc = save_grid_mesh(&c, &d, tmp);
      if (rc == OP_IO_OK)
        rc = op_io_commit(&c, tmp, h5file);
      else
        (void)unlink(tmp);
      free(tmp);
    }
  }
  desc_free(&d);
  return op_io_shared(rc, err);
}

/* ---- series ------------------------------------------------------------------------------ */

static op_xdmf_series *series_new(const op_io_ctx *c, const char *xmf_file, xdesc *d) {
  op_xdmf_series *s = calloc(1, sizeof *s);
  if (!s || !(s->xmf = dupstr(xmf_file))) {
    free(s);
    desc_free(d);
    OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory");
    return NULL;
  }
  s->d = *d;
  return s;
}

op_xdmf_series *op_xdmf_series_create(const char *xmf_file, const op_xdmf_mesh *mesh, char *err,
                                      size_t errlen) {
  op_io_ctx c = {err, errlen, "XDMF file", xmf_file, NULL, NULL};
  if (!xmf_file || !xmf_file[0]) {
    OP_IO_ERR(&c, OP_IO_EARG, "no .xmf file name given");
    return NULL;
  }
  xdesc d;
  if (desc_from_mesh(&c, mesh, &d) != OP_IO_OK)
    return NULL;
  return series_new(&c, xmf_file, &d);
}

op_xdmf_series *op_xdmf_series_create_grid(const char *xmf_file, const op_xdmf_grid *grid,
                                           char *err, size_t errlen) {
  op_io_ctx c = {err, errlen, "XDMF file", xmf_file, NULL, NULL};
  if (!xmf_file || !xmf_file[0]) {
    OP_IO_ERR(&c, OP_IO_EARG, "no .xmf file name given");
    return NULL;
  }
  xdesc d;
  if (desc_from_grid(&c, grid, &d) != OP_IO_OK)
    return NULL;
  return series_new(&c, xmf_file, &d);
}

/* The root's part of series_add: g is the gathered data to save, or NULL. */
static int series_add_root(op_xdmf_series *s, double time, const char *h5file, const xdata *g,
                           char *err, size_t errlen) {
  op_io_ctx c = {err, errlen, "XDMF file", s ? s->xmf : NULL, NULL, NULL};
  if (!s)
    return OP_IO_ERR(&c, OP_IO_EARG, "no series");
  if (!h5file || !h5file[0])
    return OP_IO_ERR(&c, OP_IO_EARG, "no HDF5 file name given");
  if (!isfinite(time))
    return OP_IO_ERR(&c, OP_IO_EARG, "time value is not finite");
  int rc = OP_IO_OK;
  if (g)
    rc = save_data(&c, &s->d, g, h5file);
  if (rc == OP_IO_OK && s->d.structured && !s->d.mesh_file)
    rc = save_grid_mesh(&c, &s->d, h5file);
  if (rc == OP_IO_OK)
    rc = check_data_file(&c, &s->d, h5file, s->xmf);
  if (rc == OP_IO_OK && s->d.mesh_file && s->n == 0)
    rc = check_mesh_file(&c, &s->d, s->d.mesh_file, s->xmf);
  if (rc != OP_IO_OK)
    return rc;
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 16;
    double *t = realloc(s->times, sizeof *t * (size_t)cap);
    if (t)
      s->times = t;
    char **f = t ? realloc(s->files, sizeof *f * (size_t)cap) : NULL;
    if (f)
      s->files = f;
    if (!t || !f)
      return OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory");
    s->cap = cap;
  }
  char *copy = dupstr(h5file);
  if (!copy)
    return OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory");
  s->times[s->n] = time;
  s->files[s->n] = copy;
  rc = write_xmf(&c, s->xmf, &s->d, s->n + 1, s->times, s->files);
  if (rc != OP_IO_OK) {
    free(copy); /* the step is not recorded: the .xmf on disk is unchanged */
    return rc;
  }
  s->n++;
  return OP_IO_OK;
}

/* Every process calls it; the root writes (and alone keeps the steps). */
static int series_add(op_xdmf_series *s, double time, const char *h5file, int save, char *err,
                      size_t errlen) {
  op_io_ctx c = {err, errlen, "XDMF file", s ? s->xmf : NULL, NULL, NULL};
  xdata g = {0};
  int rc = save && s ? gather_data(&c, &s->d, &g) : OP_IO_OK;
  if (rc == OP_IO_OK && op_io_writer())
    rc = series_add_root(s, time, h5file, save ? &g : NULL, err, errlen);
  free(g.fields);
  return op_io_shared(rc, err);
}

int op_xdmf_series_append(op_xdmf_series *s, double time, const char *h5file, char *err,
                          size_t errlen) {
  return series_add(s, time, h5file, 0, err, errlen);
}

int op_xdmf_series_save(op_xdmf_series *s, double time, const char *h5file, char *err,
                        size_t errlen) {
  return series_add(s, time, h5file, 1, err, errlen);
}

int op_xdmf_series_steps(const op_xdmf_series *s) { return s ? s->n : 0; }

void op_xdmf_series_free(op_xdmf_series *s) {
  if (!s)
    return;
  for (int i = 0; i < s->n; ++i)
    free(s->files[i]);
  free(s->files);
  free(s->times);
  free(s->xmf);
  desc_free(&s->d);
  free(s);
}
