/* op_mpi_summary.c - the distribution a run starts with, printed by rank 0. */
#include <stdlib.h>

#include "op_mpi_check.h"
#include "op_mpi_halo.h"

/* Beyond this many processes the table gives the least, mean and largest. */
enum { SUMMARY_ROWS = 64, FIELDS = 5 };

static int neighbours(const op_mpi_set s) {
  /* Processes this one receives halo rows from. */
  int n = 0, i = 0, j = 0;
  const op_mpi_halo_list *a = &s->imp_exec, *b = &s->imp_nonexec;
  while (i < a->nranks || j < b->nranks) {
    if (j >= b->nranks || (i < a->nranks && a->ranks[i] < b->ranks[j])) i++;
    else if (i >= a->nranks || b->ranks[j] < a->ranks[i]) j++;
    else i++, j++;
    n++;
  }
  return n;
}

void op_mpi_print_summary(op_mpi_mesh m, FILE *out) {
  if (m->stage != OP_MPI_DISTRIBUTED) op_mpi_fatal("op_mpi_print_summary: the mesh is not distributed");
  int P = m->nprocs;
  int *mine = op_mpi_alloc(int, (size_t)m->nsets * FIELDS);
  for (int i = 0; i < m->nsets; i++) {
    op_mpi_set s = m->sets[i];
    int *f = mine + (size_t)i * FIELDS;
    f[0] = s->size, f[1] = s->core_size, f[2] = s->exec_size, f[3] = s->nonexec_size;
    f[4] = neighbours(s);
  }
  int *all = m->rank == 0 ? op_mpi_alloc(int, (size_t)P * m->nsets * FIELDS) : NULL;
  OP_MPI_CHECK(MPI_Gather(mine, m->nsets * FIELDS, MPI_INT, all, m->nsets * FIELDS, MPI_INT, 0, m->comm));
  free(mine);
  if (m->rank != 0) return;

  long long prime_max = 0;
  int pi = m->prime ? m->prime->index : 0;
  for (int r = 0; r < P; r++) {
    long long v = all[((size_t)r * m->nsets + pi) * FIELDS];
    if (v > prime_max) prime_max = v;
  }
  double mean = m->prime ? (double)m->prime->global_size / P : 0.0;
  fprintf(out, "OP2 MPI: %d processes; partitioner %s on set '%s'; ", P, m->partitioner,
          m->prime ? m->prime->name : "?");
  if (m->edge_cut >= 0) fprintf(out, "edge cut %lld; ", m->edge_cut);
  else fprintf(out, "edge cut n/a (no map given); ");
  fprintf(out, "imbalance %.3f (largest part / mean)\n", mean > 0 ? (double)prime_max / mean : 0.0);
  fprintf(out, "  %-16s %6s %10s %10s %10s %10s %10s\n", "set", "rank", "owned", "core", "exec halo",
          "nonexec", "neighbours");
  for (int i = 0; i < m->nsets; i++) {
    if (P <= SUMMARY_ROWS) {
      for (int r = 0; r < P; r++) {
        const int *f = all + ((size_t)r * m->nsets + i) * FIELDS;
        fprintf(out, "  %-16s %6d %10d %10d %10d %10d %10d\n", m->sets[i]->name, r, f[0], f[1], f[2],
                f[3], f[4]);
      }
      continue;
    }
    const char *label[3] = {"least", "mean", "largest"};
    double stat[3][FIELDS];
    for (int k = 0; k < FIELDS; k++) {
      stat[0][k] = 1e300, stat[1][k] = 0, stat[2][k] = -1;
      for (int r = 0; r < P; r++) {
        double v = all[((size_t)r * m->nsets + i) * FIELDS + k];
        if (v < stat[0][k]) stat[0][k] = v;
        if (v > stat[2][k]) stat[2][k] = v;
        stat[1][k] += v / P;
      }
    }
    for (int q = 0; q < 3; q++)
      fprintf(out, "  %-16s %6s %10.0f %10.0f %10.0f %10.0f %10.0f\n", m->sets[i]->name, label[q],
              stat[q][0], stat[q][1], stat[q][2], stat[q][3], stat[q][4]);
  }
  /* Every set's balance: the time of a loop over a set goes with its
   * largest part, whichever set the partitioner split. */
  fprintf(out, "  imbalance (largest part / mean) per set:");
  for (int i = 0; i < m->nsets; i++) {
    long long most = 0;
    for (int r = 0; r < P; r++) {
      long long v = all[((size_t)r * m->nsets + i) * FIELDS];
      if (v > most) most = v;
    }
    double avg = (double)m->sets[i]->global_size / P;
    fprintf(out, "%s %s %.3f", i ? "," : "", m->sets[i]->name, avg > 0 ? (double)most / avg : 0.0);
  }
  fprintf(out, "\n");
  fflush(out);
  free(all);
}
