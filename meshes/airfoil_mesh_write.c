/* The ASCII mesh file (OP2's new_grid.dat) written: from a mesh's arrays, or as the mesh is
 * generated (airfoil_mesh_emit), through one buffer. The reader is airfoil_mesh_io.c. */
#include "airfoil_mesh.h"
#include "op_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------- */
/* Writing                                                                                  */

typedef struct {
    FILE *f;
    char *buf;
    size_t len, cap;
    int failed;
} out_buffer;

static void out_flush(out_buffer *o)
{
    if (o->len > 0 && !o->failed && fwrite(o->buf, 1, o->len, o->f) != o->len)
        o->failed = 1;
    o->len = 0;
}

static char *out_room(out_buffer *o, size_t need)
{
    if (o->cap - o->len < need)
        out_flush(o);
    return o->buf + o->len;
}

static void out_int(out_buffer *o, int v, char sep)
{
    char *p = out_room(o, 16);
    char tmp[12];
    int n = 0;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *p++ = '-';
    while (n)
        *p++ = tmp[--n];
    *p++ = sep;
    o->len = (size_t)(p - o->buf);
}

static void out_double(out_buffer *o, double v, char sep)
{
    char *p = out_room(o, 400); /* %f of any double: at most 309 integer digits */
    int n = snprintf(p, 400, "%f", v);
    if (n < 0 || n >= 399) {
        o->failed = 1;
        return;
    }
    p[n] = sep;
    o->len += (size_t)n + 1;
}

/* Opens path for writing through a 1 MiB buffer. */
static int out_open(out_buffer *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->f = fopen(path, "wb");
    if (!o->f) {
        op_text_format(err, errlen, "cannot open '%s' for writing: %s", path, strerror(errno));
        return -1;
    }
    o->cap = 1 << 20;
    if (!(o->buf = malloc(o->cap))) {
        op_text_format(err, errlen, "%s:%d: out of memory for the write buffer of '%s'", __FILE__,
                __LINE__, path);
        fclose(o->f);
        remove(path);
        return -1;
    }
    return 0;
}

/* Flushes and closes; on any failure (or when failed says the caller's
 * part failed) removes the partial file. */
static int out_close(out_buffer *o, const char *path, int failed, char *err, size_t errlen)
{
    out_flush(o);
    free(o->buf);
    int write_errno = o->failed || ferror(o->f) ? (errno ? errno : EIO) : 0;
    if (fclose(o->f) != 0 && !write_errno)
        write_errno = errno ? errno : EIO;
    if (write_errno || failed) {
        if (write_errno)
            op_text_format(err, errlen, "error writing '%s': %s", path, strerror(write_errno));
        remove(path);
        return -1;
    }
    return 0;
}

static void out_header(out_buffer *o, int nnode, int ncell, int nedge, int nbedge)
{
    out_int(o, nnode, ' ');
    out_int(o, ncell, ' ');
    out_int(o, nedge, ' ');
    out_int(o, nbedge, '\n');
}

static void out_node(void *ctx, double x, double y)
{
    out_double(ctx, x, ' ');
    out_double(ctx, y, '\n');
}

static void out_cell(void *ctx, const int n[4])
{
    for (int q = 0; q < 4; q++)
        out_int(ctx, n[q], q == 3 ? '\n' : ' ');
}

static void out_edge(void *ctx, int n1, int n2, int c1, int c2)
{
    out_int(ctx, n1, ' ');
    out_int(ctx, n2, ' ');
    out_int(ctx, c1, ' ');
    out_int(ctx, c2, '\n');
}

static void out_bedge(void *ctx, int n1, int n2, int c, int flag)
{
    out_int(ctx, n1, ' ');
    out_int(ctx, n2, ' ');
    out_int(ctx, c, ' ');
    out_int(ctx, flag, '\n');
}

int airfoil_mesh_write_ascii(const char *path, const airfoil_mesh *m, char *err, size_t errlen)
{
    out_buffer o;
    if (out_open(&o, path, err, errlen) != 0)
        return -1;
    out_header(&o, m->nnode, m->ncell, m->nedge, m->nbedge);
    for (size_t k = 0; k < (size_t)m->nnode; k++)
        out_node(&o, m->x[2 * k], m->x[2 * k + 1]);
    for (size_t k = 0; k < (size_t)m->ncell; k++)
        out_cell(&o, m->cell + 4 * k);
    for (size_t k = 0; k < (size_t)m->nedge; k++)
        out_edge(&o, m->edge[2 * k], m->edge[2 * k + 1], m->ecell[2 * k], m->ecell[2 * k + 1]);
    for (size_t k = 0; k < (size_t)m->nbedge; k++)
        out_bedge(&o, m->bedge[2 * k], m->bedge[2 * k + 1], m->becell[k], m->bound[k]);
    return out_close(&o, path, 0, err, errlen);
}

int airfoil_mesh_write_generated(const char *path, int ni, int nj, char *err, size_t errlen)
{
    int counts[4];
    if (airfoil_mesh_counts(ni, nj, counts, err, errlen) != 0)
        return -1;
    out_buffer o;
    if (out_open(&o, path, err, errlen) != 0)
        return -1;
    out_header(&o, counts[0], counts[1], counts[2], counts[3]);
    const airfoil_mesh_sink sink = {out_node, out_cell, out_edge, out_bedge, &o};
    const int failed = airfoil_mesh_emit(ni, nj, &sink, err, errlen) != 0;
    return out_close(&o, path, failed, err, errlen);
}

