/*
 * op_mpi_part_rcb.c - recursive coordinate bisection over distributed points.
 *
 * A group of points to be split into k parts is cut across its longest
 * extent so that the lower side holds round(n * floor(k/2) / k) points; both
 * sides are cut again until every group is one part. All groups of a level
 * are cut together, so a level costs a handful of collective calls whatever
 * the number of groups.
 *
 * The cut is exact and deterministic: points are ordered by the key
 * (coordinate, global number), and the key of rank t in a group is found by
 * radix selection, one byte of the key at a time: a histogram of the byte
 * over the group's undecided points (summed over all processes) shows which
 * byte value holds rank t; points below it go to the lower side, points above
 * to the upper side, and only those equal to it stay undecided. Twelve bytes
 * (eight of the coordinate's order-preserving bits, four of the global
 * number) decide every point, and ties between equal coordinates fall by
 * global number, so the parts depend only on the points, not on how they are
 * spread over the processes.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "op_mpi_check.h"
#include "op_mpi_partition.h"

enum { KEY_BYTES = 12, BINS = 256 };
enum { UNDECIDED = 0, LOWER = 1, UPPER = 2 };

/* Unsigned bits of x that order like x (negative numbers reversed). */
static uint64_t order_bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return (u >> 63) ? ~u : (u | (1ULL << 63));
}

static int key_byte(double x, int gid, int b) {
  if (b < 8) return (int)((order_bits(x) >> (56 - 8 * b)) & 0xff);
  return (int)(((uint32_t)gid >> (24 - 8 * (b - 8))) & 0xff);
}

/* One group of a level: parts [first, first + k). */
typedef struct {
  int first, k;
} group;

void op_mpi_part_rcb(MPI_Comm comm, const op_mpi_part_input *in, int nparts, int *part) {
  int rank;
  OP_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  const int n = in->nlocal, dim = in->cdim, g0 = in->vtxdist[rank];
  const double *x = in->coords;
  for (int i = 0; i < n * dim; i++)
    if (!isfinite(x[i]))
      op_mpi_fatal("RCB: coordinate %d of element %d of set '%s' is %g: coordinates must be finite",
                   i % dim, g0 + i / dim, in->set_name, x[i]);

  int *grp = op_mpi_zalloc(int, n); /* each point's group at this level */
  group *groups = op_mpi_alloc(group, 1);
  int ngroups = 1;
  groups[0].first = 0;
  groups[0].k = nparts;
  unsigned char *side = op_mpi_alloc(unsigned char, n);
  int *undecided = op_mpi_alloc(int, n);

  for (;;) {
    int splitting = 0;
    for (int s = 0; s < ngroups; s++) splitting |= groups[s].k > 1;
    if (!splitting) break;

    /* Size and bounding box of every group. */
    long long *count = op_mpi_zalloc(long long, ngroups);
    double *box = op_mpi_alloc(double, (size_t)ngroups * 2 * dim); /* -min, max per axis */
    for (int s = 0; s < ngroups * 2 * dim; s++) box[s] = -INFINITY;
    for (int i = 0; i < n; i++) {
      double *b = box + (size_t)grp[i] * 2 * dim;
      count[grp[i]]++;
      for (int d = 0; d < dim; d++) {
        if (-x[i * dim + d] > b[d]) b[d] = -x[i * dim + d];
        if (x[i * dim + d] > b[dim + d]) b[dim + d] = x[i * dim + d];
      }
    }
    OP_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, count, ngroups, MPI_LONG_LONG, MPI_SUM, comm));
    OP_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, box, ngroups * 2 * dim, MPI_DOUBLE, MPI_MAX, comm));
    int *axis = op_mpi_alloc(int, ngroups);
    long long *need = op_mpi_alloc(long long, ngroups); /* points still to go to the lower side */
    for (int s = 0; s < ngroups; s++) {
      const double *b = box + (size_t)s * 2 * dim;
      axis[s] = 0;
      for (int d = 1; d < dim; d++)
        if (b[dim + d] + b[d] > b[dim + axis[s]] + b[axis[s]]) axis[s] = d;
      long long k = groups[s].k, kl = k / 2;
      need[s] = k > 1 ? (count[s] * kl + k / 2) / k : 0;
    }

    /* Radix selection, all groups at once. */
    int nund = 0;
    for (int i = 0; i < n; i++) {
      side[i] = groups[grp[i]].k > 1 ? UNDECIDED : LOWER;
      if (side[i] == UNDECIDED) undecided[nund++] = i;
    }
    long long *hist = op_mpi_alloc(long long, (size_t)ngroups * BINS);
    int *chosen = op_mpi_alloc(int, ngroups);
    for (int b = 0; b < KEY_BYTES; b++) {
      memset(hist, 0, sizeof(long long) * (size_t)ngroups * BINS);
      for (int u = 0; u < nund; u++) {
        int i = undecided[u];
        hist[(size_t)grp[i] * BINS + key_byte(x[i * dim + axis[grp[i]]], g0 + i, b)]++;
      }
      OP_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, hist, ngroups * BINS, MPI_LONG_LONG, MPI_SUM, comm));
      for (int s = 0; s < ngroups; s++) {
        const long long *h = hist + (size_t)s * BINS;
        long long below = 0;
        int v = 0;
        while (v < BINS && below + h[v] <= need[s]) below += h[v++];
        chosen[s] = v; /* BINS: every undecided point goes lower */
        need[s] -= below;
      }
      int keep = 0;
      for (int u = 0; u < nund; u++) {
        int i = undecided[u], s = grp[i];
        int v = key_byte(x[i * dim + axis[s]], g0 + i, b);
        if (v < chosen[s]) side[i] = LOWER;
        else if (v > chosen[s]) side[i] = UPPER;
        else undecided[keep++] = i;
      }
      nund = keep;
    }
    /* Twelve bytes name one point: the undecided one is rank `need`, the first upper. */
    for (int u = 0; u < nund; u++) side[undecided[u]] = UPPER;

    /* The next level's groups: each split group becomes its lower and upper halves. */
    int *first_child = op_mpi_alloc(int, ngroups);
    int nnext = 0;
    for (int s = 0; s < ngroups; s++) nnext += groups[s].k > 1 ? 2 : 1;
    group *next = op_mpi_alloc(group, nnext);
    nnext = 0;
    for (int s = 0; s < ngroups; s++) {
      first_child[s] = nnext;
      int k = groups[s].k;
      if (k > 1) {
        next[nnext].first = groups[s].first;
        next[nnext++].k = k / 2;
        next[nnext].first = groups[s].first + k / 2;
        next[nnext++].k = k - k / 2;
      } else {
        next[nnext++] = groups[s];
      }
    }
    for (int i = 0; i < n; i++)
      grp[i] = first_child[grp[i]] + (groups[grp[i]].k > 1 && side[i] == UPPER ? 1 : 0);
    free(groups);
    groups = next;
    ngroups = nnext;
    free(first_child);
    free(count);
    free(box);
    free(axis);
    free(need);
    free(hist);
    free(chosen);
  }
  for (int i = 0; i < n; i++) part[i] = groups[grp[i]].first;
  free(grp);
  free(groups);
  free(side);
  free(undecided);
}
