/*
 * op_checkpoint.c - checkpoint / restart in HDF5 (op_checkpoint.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "op_checkpoint.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "op_hdf5_impl.h"
#include "op_io_util.h"
#include "op2_renumber.h"

#define CKPT_GROUP "checkpoint"
#define CKPT_SCALARS "checkpoint/scalars"
#define CKPT_FORMAT "op2-checkpoint"
#define CKPT_VERSION 1
#define CKPT_MESH "mesh" /* attribute of /checkpoint: the fingerprint of the mesh */

static int check_args(const op_io_ctx *c, const op_dat *dats, int ndats,
                      const char *const *names, const void *scalars, int nscalars) {
  if (ndats < 0 || nscalars < 0 || (ndats > 0 && !dats) ||
      (nscalars > 0 && (!names || !scalars)))
    return OP_IO_ERR(c, OP_IO_EARG, "invalid dat or scalar lists");
  for (int i = 0; i < ndats; ++i) {
    if (!dats[i] || !dats[i]->name || !dats[i]->set || !dats[i]->data)
      return OP_IO_ERR(c, OP_IO_EARG, "dat #%d is NULL, unnamed or has no data", i);
    op_io_ctx co = *c;
    co.what = "dataset";
    co.object = dats[i]->name;
    int rc = op_h5_check_name(&co, dats[i]->name);
    if (rc != OP_IO_OK)
      return rc;
    for (int j = 0; j < i; ++j)
      if (strcmp(dats[i]->name, dats[j]->name) == 0)
        return OP_IO_ERR(&co, OP_IO_EARG, "two dats have this name");
  }
  for (int i = 0; i < nscalars; ++i) {
    if (!names[i] || !names[i][0])
      return OP_IO_ERR(c, OP_IO_EARG, "scalar #%d has no name", i);
    for (int j = 0; j < i; ++j)
      if (strcmp(names[i], names[j]) == 0) {
        op_io_ctx co = *c;
        co.what = "scalar";
        co.object = names[i];
        return OP_IO_ERR(&co, OP_IO_EARG, "two scalars have this name");
      }
  }
  return OP_IO_OK;
}

static int close_group(const op_io_ctx *c, hid_t g, int rc) {
  if (H5Gclose(g) < 0 && rc == OP_IO_OK)
    rc = OP_IO_ERR(c, OP_IO_EIO, "cannot close group");
  return rc;
}

/* A group with no times in its header (the same checkpoint, the same bytes). */
static hid_t create_group(hid_t f, const char *name) {
  hid_t gcpl = op_h5_untimed(H5P_GROUP_CREATE);
  if (gcpl < 0) return -1;
  hid_t g = H5Gcreate2(f, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
  if (H5Pclose(gcpl) < 0 && g >= 0) {
    H5Gclose(g);
    return -1;
  }
  return g;
}

/* data[i]: every row of dats[i] in the user's numbering (the root's gathering
 * on many processes). */
static int write_body(const op_io_ctx *c, hid_t f, const char *mesh, const op_dat *dats,
                      const void *const *data, int ndats, const char *const *names,
                      const double *scalars, int nscalars) {
  int rc = OP_IO_OK;
  for (int i = 0; rc == OP_IO_OK && i < ndats; ++i)
    rc = op_h5_write_dat(c, f, dats[i], data[i], 0);
  /* Set sizes, for tools reading the file in the OP2 layout. */
  for (int i = 0; rc == OP_IO_OK && i < ndats; ++i) {
    op_set s = dats[i]->set;
    int skip = !s->name || op_h5_check_name(&(op_io_ctx){0}, s->name) != OP_IO_OK;
    for (int j = 0; !skip && j < ndats; ++j)
      skip = strcmp(dats[j]->name, s->name) == 0 || (j < i && dats[j]->set == s) ||
             strcmp(s->name, CKPT_GROUP) == 0;
    if (!skip) {
      op_io_ctx probe = {0}; /* silent: a name taken by a group just skips the set */
      if (op_h5_dataset_exists(&probe, f, s->name) == 0)
        rc = op_h5_write_set(c, f, s, 0);
    }
  }
  if (rc != OP_IO_OK)
    return rc;
  op_io_ctx cg = *c;
  cg.what = "group";
  cg.object = "/" CKPT_GROUP;
  hid_t g = create_group(f, CKPT_GROUP);
  if (g < 0)
    return OP_IO_ERR(&cg, OP_IO_EIO, "cannot create the group (a dat named '%s'?)", CKPT_GROUP);
  rc = op_h5_set_attr_str(c, g, "/" CKPT_GROUP, "format", CKPT_FORMAT);
  if (rc == OP_IO_OK)
    rc = op_h5_set_attr_int(c, g, "/" CKPT_GROUP, "version", CKPT_VERSION);
  if (rc == OP_IO_OK)
    rc = op_h5_set_attr_int(c, g, "/" CKPT_GROUP, "ndats", ndats);
  if (rc == OP_IO_OK && mesh)
    rc = op_h5_set_attr_str(c, g, "/" CKPT_GROUP, CKPT_MESH, mesh);
  rc = close_group(&cg, g, rc);
  if (rc != OP_IO_OK)
    return rc;
  cg.object = "/" CKPT_SCALARS;
  g = create_group(f, CKPT_SCALARS);
  if (g < 0)
    return OP_IO_ERR(&cg, OP_IO_EIO, "cannot create the group");
  for (int i = 0; rc == OP_IO_OK && i < nscalars; ++i) {
    op_io_ctx cs = *c;
    cs.what = "scalar";
    cs.object = names[i];
    rc = op_h5_set_attr_double(&cs, g, "/" CKPT_SCALARS, names[i], scalars[i]);
  }
  return close_group(&cg, g, rc);
}

static int write_file(const op_io_ctx *c, const char *file, const char *mesh, const op_dat *dats,
                      const void *const *data, int ndats, const char *const *scalar_names,
                      const double *scalars, int nscalars) {
  char *tmp = op_io_tmpname(file);
  if (!tmp)
    return OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory");
  hid_t f;
  int rc = op_h5_create(c, tmp, &f);
  if (rc != OP_IO_OK) {
    free(tmp);
    return rc;
  }
  rc = write_body(c, f, mesh, dats, data, ndats, scalar_names, scalars, nscalars);
  int rc2 = op_h5_close(c, f);
  rc = rc != OP_IO_OK ? rc : rc2;
  if (rc == OP_IO_OK)
    rc = op_io_commit(c, tmp, file); /* fsync tmp, rename, fsync directory */
  else if (unlink(tmp) != 0)
    fprintf(stderr, "op2-io: warning: cannot remove '%s'\n", tmp);
  free(tmp);
  return rc;
}

/* Every process takes part (the dats in the user's numbering are gathered on
 * the root, which writes them: the file is the same whatever the number of
 * processes, and a restart may use another number). */
int op_checkpoint_write(const char *file, const op_dat *dats, int ndats,
                        const char *const *scalar_names, const double *scalars, int nscalars,
                        char *err, size_t errlen) {
  return op_checkpoint_write_for_mesh(file, NULL, dats, ndats, scalar_names, scalars, nscalars,
                                      err, errlen);
}

int op_checkpoint_write_for_mesh(const char *file, const char *mesh, const op_dat *dats,
                                 int ndats, const char *const *scalar_names,
                                 const double *scalars, int nscalars, char *err, size_t errlen) {
  op_io_ctx c = op_h5_ctx(err, errlen, file);
  if (!file || !file[0])
    return OP_IO_ERR(&c, OP_IO_EARG, "no file name given");
  int rc = check_args(&c, dats, ndats, scalar_names, scalars, nscalars);
  if (rc != OP_IO_OK)
    return rc;
  const void **data = calloc((size_t)ndats + 1, sizeof *data);
  if (!data)
    rc = OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory");
  for (int i = 0; data && i < ndats; ++i)
    data[i] = op_fetch_data_global(dats[i]); /* collective */
  if (rc == OP_IO_OK && op_io_writer())
    rc = write_file(&c, file, mesh, dats, data, ndats, scalar_names, scalars, nscalars);
  free(data);
  return op_io_shared(rc, err);
}

/* ---- reading ---------------------------------------------------------------------------- */

static int check_format(const op_io_ctx *c, hid_t f, int ndats, const char *mesh) {
  op_io_ctx cg = *c;
  cg.what = "group";
  cg.object = "/" CKPT_GROUP;
  htri_t e = H5Lexists(f, CKPT_GROUP, H5P_DEFAULT);
  if (e < 0)
    return OP_IO_ERR(&cg, OP_IO_EFORMAT, "cannot look up the group");
  if (e == 0)
    return OP_IO_ERR(&cg, OP_IO_EFORMAT, "not an OP2 checkpoint (group missing)");
  hid_t g = H5Gopen2(f, CKPT_GROUP, H5P_DEFAULT);
  if (g < 0)
    return OP_IO_ERR(&cg, OP_IO_EFORMAT, "not an OP2 checkpoint (not a group)");
  char fmt[64];
  int found = 0;
  double version = 0;
  int rc = op_h5_get_attr_str(c, g, "/" CKPT_GROUP, "format", fmt, sizeof fmt, &found);
  if (rc == OP_IO_OK && (!found || strcmp(fmt, CKPT_FORMAT) != 0))
    rc = OP_IO_ERR(&cg, OP_IO_EFORMAT, "not an OP2 checkpoint (format attribute '%s')",
                   found ? fmt : "missing");
  if (rc == OP_IO_OK)
    rc = op_h5_get_attr_double(c, g, "/" CKPT_GROUP, "version", &version);
  if (rc == OP_IO_OK && version != CKPT_VERSION)
    rc = OP_IO_ERR(&cg, OP_IO_EFORMAT, "checkpoint version %g, this library reads %d", version,
                   CKPT_VERSION);
  /* The number of dats written must be the number restored: a checkpoint of
   * another program (or another version of this one) is not resumed from. */
  if (rc == OP_IO_OK && ndats >= 0) {
    op_io_ctx ca = *c;
    ca.what = "attribute";
    ca.object = "/" CKPT_GROUP "/ndats";
    double stored = -1;
    rc = op_h5_get_attr_double(c, g, "/" CKPT_GROUP, "ndats", &stored);
    if (rc == OP_IO_OK && stored != (double)ndats)
      rc = OP_IO_ERR(&ca, OP_IO_EFORMAT, "the checkpoint holds %g dat(s), this run restores %d",
                     stored, ndats);
  }
  /* The mesh it was written on must be this run's: a state restored onto
   * other numbers or coordinates runs on, wrong, without a word. */
  if (rc == OP_IO_OK && mesh) {
    char stored[OP_MESH_FINGERPRINT_LEN];
    int has = 0;
    rc = op_h5_get_attr_str(c, g, "/" CKPT_GROUP, CKPT_MESH, stored, sizeof stored, &has);
    if (rc == OP_IO_OK && !has)
      rc = OP_IO_ERR(&cg, OP_IO_EFORMAT,
                     "the checkpoint does not name the mesh it was written on (a checkpoint "
                     "from before meshes were recorded?), so it cannot be restored onto this "
                     "run's mesh '%s'",
                     mesh);
    else if (rc == OP_IO_OK && strcmp(stored, mesh) != 0)
      rc = OP_IO_ERR(&cg, OP_IO_EFORMAT,
                     "the checkpoint was written on another mesh: its mesh is '%s', this run's "
                     "is '%s' (restart on the mesh it was written on)",
                     stored, mesh);
  }
  return close_group(&cg, g, rc);
}

static int check_set_attr(const op_io_ctx *c, hid_t f, op_dat dat) {
  op_io_ctx cd = *c;
  cd.what = "dataset";
  cd.object = dat->name;
  hid_t d = H5Dopen2(f, dat->name, H5P_DEFAULT);
  if (d < 0)
    return OP_IO_ERR(&cd, OP_IO_EFORMAT, "cannot open the dataset");
  char set[256], type[64];
  int found = 0, found_type = 0;
  int rc = op_h5_get_attr_str(&cd, d, dat->name, "set", set, sizeof set, &found);
  if (rc == OP_IO_OK && found && dat->set->name && strcmp(set, dat->set->name) != 0)
    rc = OP_IO_ERR(&cd, OP_IO_ESHAPE, "was written for set '%s', dat is on set '%s'", set,
                   dat->set->name);
  /* The attributes the writer puts beside the data must agree with it. */
  double dim = 0;
  if (rc == OP_IO_OK)
    rc = op_h5_get_attr_double(&cd, d, dat->name, "dim", &dim);
  if (rc == OP_IO_OK && dim != (double)dat->dim)
    rc = OP_IO_ERR(&cd, OP_IO_ESHAPE, "attribute 'dim' is %g, the dat has dim %d", dim, dat->dim);
  if (rc == OP_IO_OK)
    rc = op_h5_get_attr_str(&cd, d, dat->name, "type", type, sizeof type, &found_type);
  if (rc == OP_IO_OK && (!found_type || strcmp(type, op_io_type_name(dat->type)) != 0))
    rc = OP_IO_ERR(&cd, OP_IO_ETYPE, "attribute 'type' is '%s', the dat holds %s",
                   found_type ? type : "missing", op_io_type_name(dat->type));
  if (H5Dclose(d) < 0 && rc == OP_IO_OK)
    rc = OP_IO_ERR(&cd, OP_IO_EIO, "cannot close the dataset");
  return rc;
}

static int read_scalars(const op_io_ctx *c, hid_t f, const char *const *names, double *out,
                        int n) {
  if (n == 0)
    return OP_IO_OK;
  op_io_ctx cg = *c;
  cg.what = "group";
  cg.object = "/" CKPT_SCALARS;
  htri_t e = H5Lexists(f, CKPT_SCALARS, H5P_DEFAULT);
  if (e <= 0)
    return OP_IO_ERR(&cg, OP_IO_EFORMAT, "group of scalars missing");
  hid_t g = H5Gopen2(f, CKPT_SCALARS, H5P_DEFAULT);
  if (g < 0)
    return OP_IO_ERR(&cg, OP_IO_EFORMAT, "cannot open the group of scalars");
  int rc = OP_IO_OK;
  for (int i = 0; rc == OP_IO_OK && i < n; ++i) {
    op_io_ctx cs = *c;
    cs.what = "scalar";
    cs.object = names[i];
    htri_t a = H5Aexists(g, names[i]);
    if (a < 0)
      rc = OP_IO_ERR(&cs, OP_IO_EFORMAT, "cannot look up the scalar");
    else if (a == 0)
      rc = OP_IO_ERR(&cs, OP_IO_ENOENT, "scalar missing in the checkpoint");
    else
      rc = op_h5_get_attr_double(&cs, g, "/" CKPT_SCALARS, names[i], &out[i]);
  }
  return close_group(&cg, g, rc);
}

int op_checkpoint_read(const char *file, op_dat *dats, int ndats,
                       const char *const *scalar_names, double *scalars, int nscalars,
                       char *err, size_t errlen) {
  return op_checkpoint_read_for_mesh(file, NULL, dats, ndats, scalar_names, scalars, nscalars,
                                     err, errlen);
}

int op_checkpoint_read_for_mesh(const char *file, const char *mesh, op_dat *dats, int ndats,
                                const char *const *scalar_names, double *scalars, int nscalars,
                                char *err, size_t errlen) {
  op_io_ctx c = op_h5_ctx(err, errlen, file);
  int rc = check_args(&c, (const op_dat *)dats, ndats, scalar_names, scalars, nscalars);
  if (rc != OP_IO_OK)
    return rc;
  hid_t f;
  rc = op_h5_open_read(&c, &f);
  if (rc != OP_IO_OK)
    return rc;
  char **bufs = calloc((size_t)ndats + 1, sizeof *bufs);
  double *vals = calloc((size_t)nscalars + 1, sizeof *vals);
  if (!bufs || !vals)
    rc = OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory");
  if (rc == OP_IO_OK)
    rc = check_format(&c, f, ndats, mesh);
  /* Everything checked first (every process checks the file itself), */
  for (int i = 0; rc == OP_IO_OK && i < ndats; ++i) {
    rc = op_h5_check_dat(&c, f, dats[i], dats[i]->name);
    if (rc == OP_IO_OK)
      rc = check_set_attr(&c, f, dats[i]);
  }
  if (rc == OP_IO_OK)
    rc = read_scalars(&c, f, scalar_names, vals, nscalars);
  int rc2 = op_h5_close(&c, f);
  rc = rc != OP_IO_OK ? rc : rc2;
  /* then read into scratch memory (on many processes collectively: each
   * reads a slice and sends the rows to their owners, whatever the number of
   * processes that wrote the file). */
  for (int i = 0; rc == OP_IO_OK && i < ndats; ++i) {
    op_dat d = dats[i];
    size_t bytes = (size_t)d->set->size * (size_t)d->size;
    bufs[i] = malloc(bytes ? bytes : 1);
    if (!bufs[i]) {
      op_io_ctx cd = c;
      cd.what = "dataset";
      cd.object = d->name;
      rc = OP_IO_ERR(&cd, OP_IO_ENOMEM, "out of memory for %zu bytes", bytes);
      break;
    }
    rc = op_h5_read_dat_rows(&c, file, d, d->name, bufs[i]);
  }
  /* Commit only when everything succeeded. */
  if (rc == OP_IO_OK) {
    for (int i = 0; i < ndats; ++i) {
      op_dat d = dats[i];
      memcpy(op_fetch_data_ptr(d), bufs[i], (size_t)d->set->size * (size_t)d->size);
      op_dat_user_rows_arrived(d); /* written in the user's numbering; the host copy changed */
    }
    for (int i = 0; i < nscalars; ++i)
      scalars[i] = vals[i];
  }
  for (int i = 0; bufs && i < ndats; ++i)
    free(bufs[i]);
  free(bufs);
  free(vals);
  return rc;
}

int op_checkpoint_exists(const char *file) {
  if (!file || !op_io_path_exists(file))
    return 0;
  op_io_ctx c = op_h5_ctx(NULL, 0, file);
  hid_t f;
  if (op_h5_open_read(&c, &f) != OP_IO_OK)
    return 0;
  int ok = check_format(&c, f, -1, NULL) == OP_IO_OK;
  if (op_h5_close(&c, f) != OP_IO_OK)
    ok = 0;
  return ok;
}

int op_checkpoint_int(const char *file, const char *name, double value, long long lo,
                      long long hi, long long *out, char *err, size_t errlen) {
  op_io_ctx c = op_h5_ctx(err, errlen, file);
  c.what = "scalar";
  c.object = name;
  /* lo and hi are within +-2^53 in practice: the comparisons are exact. */
  if (!(value >= (double)lo && value <= (double)hi) || value != floor(value))
    return OP_IO_ERR(&c, OP_IO_ERANGE, "value %.17g is not an integer in [%lld, %lld]", value,
                     lo, hi);
  *out = (long long)value;
  return OP_IO_OK;
}

/* ---- the mesh's fingerprint -------------------------------------------------------------- */

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* The nbytes low bytes of v, least significant first (the same hash on
 * machines of either byte order). */
static uint64_t hash_le(uint64_t h, uint64_t v, int nbytes) {
  for (int b = 0; b < nbytes; ++b) {
    h ^= (v >> (8 * b)) & 0xffu;
    h *= FNV_PRIME;
  }
  return h;
}

static uint64_t hash_values(uint64_t h, const void *data, size_t n, op_type t) {
  for (size_t i = 0; i < n; ++i) {
    if (t == OP_TYPE_DOUBLE) {
      uint64_t v;
      memcpy(&v, (const double *)data + i, sizeof v);
      h = hash_le(h, v, 8);
    } else {
      uint32_t v;
      memcpy(&v, (const char *)data + 4 * i, sizeof v); /* int and float: 4 bytes */
      h = hash_le(h, v, 4);
    }
  }
  return h;
}

/* Appends "name size" for a set not yet named. */
static void name_set(char *text, size_t len, op_set *seen, int *nseen, op_set s) {
  for (int i = 0; i < *nseen; ++i)
    if (seen[i] == s)
      return;
  seen[(*nseen)++] = s;
  size_t used = strlen(text);
  snprintf(text + used, len - used, "%s%s %d", used ? ", " : "", s->name ? s->name : "?",
           op_get_size(s));
}

int op_mesh_fingerprint(const op_map *maps, int nmaps, const op_dat *dats, int ndats, char *fp,
                        size_t fplen, char *err, size_t errlen) {
  op_io_ctx c = {err, errlen, "mesh fingerprint", "(of the maps and dats given)", NULL, NULL};
  if (nmaps < 0 || ndats < 0 || (nmaps && !maps) || (ndats && !dats) || !fp ||
      fplen < OP_MESH_FINGERPRINT_LEN)
    return OP_IO_ERR(&c, OP_IO_EARG, "invalid map or dat lists, or too small a buffer");
  for (int i = 0; i < nmaps; ++i)
    if (!maps[i] || !maps[i]->from || !maps[i]->to)
      return OP_IO_ERR(&c, OP_IO_EARG, "map #%d is NULL or has no sets", i);
  for (int i = 0; i < ndats; ++i)
    if (!dats[i] || !dats[i]->set)
      return OP_IO_ERR(&c, OP_IO_EARG, "dat #%d is NULL or has no set", i);
  char text[OP_MESH_FINGERPRINT_LEN] = "";
  op_set *seen = calloc((size_t)(2 * nmaps + ndats) + 1, sizeof *seen);
  if (!seen)
    return OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory");
  int nseen = 0;
  for (int i = 0; i < nmaps; ++i) {
    name_set(text, sizeof text - 32, seen, &nseen, maps[i]->from);
    name_set(text, sizeof text - 32, seen, &nseen, maps[i]->to);
  }
  for (int i = 0; i < ndats; ++i)
    name_set(text, sizeof text - 32, seen, &nseen, dats[i]->set);
  free(seen);
  /* Every process gathers (collective); the root hashes what it holds: rows
   * in the user's order, entries in the user's numbers. On one process after
   * op_renumber the storage is in the library's order: put back first. */
  uint64_t h = FNV_OFFSET;
  int rc = OP_IO_OK;
  for (int i = 0; i < nmaps; ++i) {
    op_map m = maps[i];
    const int *rows = op_fetch_map_global(m); /* collective: every process, every map */
    if (!rows || rc != OP_IO_OK)
      continue; /* not the root */
    int *user = NULL;
    if (op_num_procs() == 1 && (op_set_storage_ids(m->from) || op_set_user_ids(m->to))) {
      user = malloc(sizeof(int) * (size_t)m->from->size * (size_t)m->dim + 1);
      if (!user) {
        rc = OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory for map '%s'", m->name);
        continue;
      }
      op_map_to_user_order(m, user);
      rows = user;
    }
    h = hash_le(h, (uint64_t)m->dim, 4);
    h = hash_values(h, rows, (size_t)op_get_size(m->from) * (size_t)m->dim, OP_TYPE_INT);
    free(user);
  }
  for (int i = 0; i < ndats; ++i) {
    op_dat d = dats[i];
    const void *rows = op_fetch_data_global(d);
    if (!rows || rc != OP_IO_OK)
      continue;
    void *user = NULL;
    if (op_num_procs() == 1 && op_set_storage_ids(d->set)) {
      rows = op_h5_user_rows(d, &user);
      if (!rows) {
        rc = OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory for dat '%s'", d->name);
        continue;
      }
    }
    h = hash_le(h, (uint64_t)d->dim, 4);
    h = hash_values(h, rows, (size_t)op_get_size(d->set) * (size_t)d->dim, d->type);
    free(user);
  }
  size_t used = strlen(text);
  snprintf(text + used, sizeof text - used, "; hash %016llx", (unsigned long long)h);
  op_broadcast(text, sizeof text); /* the root's hash everywhere */
  snprintf(fp, fplen, "%s", text);
  return op_io_shared(rc, err); /* the root's status everywhere */
}
