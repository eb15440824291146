/*
 * op_output.c - the text and binary dumps of a dat (op_print_dat_to_txtfile /
 * op_print_dat_to_binfile), in the formats OP2 writes so that files from
 * either library can be compared. (op_printf is op_dist.c's: it prints on the
 * root process.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_renumber.h"
#include "op_dat_handle.h"
#include "op_decl.h"
#include "op_dist.h"
#include "op_tmpname.h"

typedef int (*dat_writer)(FILE *f, op_dat dat, int rows, const char *data);

static int write_text(FILE *f, op_dat dat, int rows, const char *data) {
  if (fprintf(f, "%d %d\n", rows, dat->dim) < 0) return -1;
  const size_t n = (size_t)rows;
  for (size_t e = 0; e < n; e++) {
    for (int d = 0; d < dat->dim; d++) {
      const size_t k = e * (size_t)dat->dim + (size_t)d;
      int r;
      switch (dat->type) {
        /* + 0.0 prints a negative zero as +0, as OP2 does. */
        case OP_TYPE_DOUBLE: r = fprintf(f, " %+2.15lE", ((const double *)data)[k] + 0.0); break;
        case OP_TYPE_FLOAT: r = fprintf(f, " %+f", (double)((const float *)data)[k]); break;
        default: r = fprintf(f, " %+d", ((const int *)data)[k]); break;
      }
      if (r < 0) return -1;
    }
    if (fputc('\n', f) == EOF) return -1;
  }
  return 0;
}

static int write_binary(FILE *f, op_dat dat, int rows, const char *data) {
  const int head[2] = {rows, dat->dim};
  const size_t n = (size_t)rows;
  if (fwrite(head, sizeof head, 1, f) != 1) return -1;
  if (n && fwrite(data, (size_t)dat->size, n, f) != n) return -1;
  return 0;
}

/* Writes file.tmp and renames it over file: a failed run leaves any earlier
 * file as it was. Failures are fatal, naming the file. On many processes the
 * root writes the whole dat in the user's numbering, as OP2 does. */
static void write_dat_file(op_dat dat, const char *file, const char *what, const char *mode,
                           dat_writer writer) {
  op_dat_require_live(dat, what);
  OP_CHECK(file && *file, "%s(\"%s\"): file name missing", what, dat->name);
  /* In the user's numbering: global numbers on many processes (gathered by
   * the layer), the user's order after op_renumber on one. */
  const char *data = op_fetch_data_global(dat); /* collective */
  if (!op_is_root()) return;
  const int rows = op_get_size(dat->set);
  char *user = NULL;
  if (op_set_storage_ids(dat->set)) {
    user = op_malloc((size_t)dat->set->size * (size_t)dat->size);
    op_dat_to_user_order(dat, user);
    data = user;
  }
  size_t n = strlen(file) + 128;
  char *tmp = op_malloc(n);
  if (!op_tmp_name(file, tmp, n)) op_fatal("%s(\"%s\"): file name too long", what, dat->name);
  FILE *f = fopen(tmp, mode);
  if (!f) op_fatal("%s(\"%s\"): cannot create %s", what, dat->name, tmp);
  int bad = writer(f, dat, rows, data) != 0;
  bad |= fclose(f) != 0;
  if (bad || rename(tmp, file) != 0) {
    remove(tmp);
    op_fatal("%s(\"%s\"): cannot write %s", what, dat->name, file);
  }
  free(tmp);
  free(user);
}

void op_print_dat_to_txtfile(op_dat dat, const char *file) {
  write_dat_file(dat, file, "op_print_dat_to_txtfile", "w", write_text);
}

void op_print_dat_to_binfile(op_dat dat, const char *file) {
  write_dat_file(dat, file, "op_print_dat_to_binfile", "wb", write_binary);
}
