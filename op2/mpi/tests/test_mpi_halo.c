/*
 * test_mpi_halo.c - the halo lists a partitioner leads to, against their
 * definitions (op_mpi_halo.h), on the airfoil mesh read from a file and on a
 * structured grid of odd sizes:
 *   - every element is owned by exactly one process;
 *   - every map entry of a row a process runs (owned or execute halo) is held
 *     there (owned or halo), and names the same element as the whole mesh;
 *   - execute halo complete: every row, of any map, naming an element a
 *     process owns is run by that process; core elements name owned ones only;
 *   - nothing extra: an execute-halo element names an owned element, a
 *     non-execute one is named by a row the process runs; halos hold only
 *     elements owned elsewhere;
 *   - what a process imports from a neighbour is what that neighbour exports;
 *   - the partition is the same when made twice, and its edge cut is the
 *     number of graph edges between parts;
 *   - (block and RCB, whose parts do not depend on the process count) the
 *     sizes equal those the census counts for the whole mesh on one process.
 *
 * usage: test_mpi_halo LIB:ROUTINE airfoil FILE.h5 | grid NX NY
 */
#include <string.h>

#include "mpi_test_mesh.h"
#include "op_mpi_census.h"
#include "op_mpi_dist.h"
#include "op_mpi_halo.h"
#include "op_mpi_partition.h"

/* The test's own view of a mesh: the distributed one and the whole one. */
typedef struct {
  op_mpi_mesh dist, whole;
} pair;

static void check_ownership(op_mpi_mesh m) {
  for (int i = 0; i < m->nsets; i++) {
    op_mpi_set s = m->sets[i];
    int *count = calloc((size_t)s->global_size + 1, sizeof(int));
    for (int e = 0; e < s->size; e++) count[s->gid[e]]++;
    MPI_Allreduce(MPI_IN_PLACE, count, s->global_size, MPI_INT, MPI_SUM, m->comm);
    for (int g = 0; g < s->global_size; g++)
      CHECK(count[g] == 1, "set %s: element %d owned %d times", s->name, g, count[g]);
    /* Halo elements are owned elsewhere: never among this process's owned ones. */
    for (int e = s->size; e < s->size + s->exec_size + s->nonexec_size; e++) {
      int l = op_mpi_local_index(s, s->gid[e]);
      CHECK(l == e, "set %s: halo element %d (global %d) also at local %d", s->name, e, s->gid[e],
            l);
    }
    CHECK(s->core_size >= 0 && s->core_size <= s->size, "set %s: core %d of %d", s->name,
          s->core_size, s->size);
    free(count);
  }
}

/* Rows (global numbers) of map index i in the whole mesh. */
static const int *whole_rows(pair *p, int i) { return p->whole->maps[i]->slice; }

static void check_maps(pair *p) {
  op_mpi_mesh m = p->dist;
  for (int i = 0; i < m->nmaps; i++) {
    op_mpi_map mp = m->maps[i];
    int total = mp->to->size + mp->to->exec_size + mp->to->nonexec_size;
    const int *ref = whole_rows(p, i);
    for (int e = 0; e < mp->from->size + mp->from->exec_size; e++)
      for (int j = 0; j < mp->dim; j++) {
        int l = mp->map[(size_t)e * mp->dim + j];
        CHECK(l >= 0 && l < total, "map %s row %d entry %d: local %d outside [0, %d)", mp->name, e,
              j, l, total);
        if (l < 0 || l >= total) continue;
        int want = ref[(size_t)mp->from->gid[e] * mp->dim + j];
        CHECK(mp->to->gid[l] == want,
              "map %s row %d (global %d) entry %d: names %d, the mesh says %d", mp->name, e,
              mp->from->gid[e], j, mp->to->gid[l], want);
        if (e < mp->from->core_size)
          CHECK(l < mp->to->size, "map %s: core row %d names halo element %d", mp->name, e, l);
      }
  }
}

/* Every row naming an owned element is run here; exec elements name an owned one. */
static void check_exec_complete(pair *p) {
  op_mpi_mesh m = p->dist;
  for (int i = 0; i < m->nmaps; i++) {
    op_mpi_map mp = m->maps[i];
    op_mpi_map wm = p->whole->maps[i];
    const int *ref = whole_rows(p, i);
    char *owned = calloc((size_t)mp->to->global_size + 1, 1);
    for (int e = 0; e < mp->to->size; e++) owned[mp->to->gid[e]] = 1;
    for (int r = 0; r < wm->from->global_size; r++)
      for (int j = 0; j < mp->dim; j++)
        if (owned[ref[(size_t)r * mp->dim + j]]) {
          int l = op_mpi_local_index(mp->from, r);
          CHECK(l >= 0 && l < mp->from->size + mp->from->exec_size,
                "map %s: row %d names owned element %d of %s but is not run here (local %d)",
                mp->name, r, ref[(size_t)r * mp->dim + j], mp->to->name, l);
        }
    free(owned);
  }
  /* No element in an execute halo without an entry owned here. */
  for (int s = 0; s < m->nsets; s++) {
    op_mpi_set set = m->sets[s];
    for (int e = set->size; e < set->size + set->exec_size; e++) {
      int names_owned = 0;
      for (int i = 0; i < m->nmaps; i++) {
        op_mpi_map mp = m->maps[i];
        if (mp->from != set) continue;
        for (int j = 0; j < mp->dim; j++) names_owned |= mp->map[(size_t)e * mp->dim + j] < mp->to->size;
      }
      CHECK(names_owned, "set %s: exec element %d (global %d) names nothing owned here", set->name,
            e, set->gid[e]);
    }
    /* Every non-execute element is named by a row run here. */
    int total = set->size + set->exec_size + set->nonexec_size;
    char *named = calloc((size_t)total + 1, 1);
    for (int i = 0; i < m->nmaps; i++) {
      op_mpi_map mp = m->maps[i];
      if (mp->to != set) continue;
      for (size_t q = 0; q < (size_t)(mp->from->size + mp->from->exec_size) * mp->dim; q++) named[mp->map[q]] = 1;
    }
    for (int e = set->size + set->exec_size; e < total; e++)
      CHECK(named[e], "set %s: non-exec element %d (global %d) is named by no row run here",
            set->name, e, set->gid[e]);
    free(named);
  }
}

/* Imports from r equal r's exports, element for element. */
static void check_lists_agree(op_mpi_mesh m) {
  for (int s = 0; s < m->nsets; s++) {
    op_mpi_set set = m->sets[s];
    const op_mpi_halo_list *ex[2] = {&set->exp_exec, &set->exp_nonexec};
    const op_mpi_halo_list *im[2] = {&set->imp_exec, &set->imp_nonexec};
    for (int kind = 0; kind < 2; kind++) {
      int P = m->nprocs;
      int *scount = calloc((size_t)P, sizeof(int)), *sdisp = calloc((size_t)P, sizeof(int));
      int *rcount = calloc((size_t)P, sizeof(int)), *rdisp = calloc((size_t)P, sizeof(int));
      int nsend = ex[kind]->nranks ? ex[kind]->offset[ex[kind]->nranks] : 0;
      int *sbuf = malloc(sizeof(int) * (size_t)(nsend + 1));
      for (int i = 0; i < ex[kind]->nranks; i++) {
        int r = ex[kind]->ranks[i];
        scount[r] = ex[kind]->offset[i + 1] - ex[kind]->offset[i];
        sdisp[r] = ex[kind]->offset[i];
        CHECK(r != m->rank, "set %s exports to itself", set->name);
      }
      for (int k = 0; k < nsend; k++) sbuf[k] = set->gid[ex[kind]->list[k]];
      MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, m->comm);
      int nrecv = 0;
      for (int r = 0; r < P; r++) rdisp[r] = nrecv, nrecv += rcount[r];
      int *rbuf = malloc(sizeof(int) * (size_t)(nrecv + 1));
      MPI_Alltoallv(sbuf, scount, sdisp, MPI_INT, rbuf, rcount, rdisp, MPI_INT, m->comm);
      int nimp = im[kind]->nranks ? im[kind]->offset[im[kind]->nranks] : 0;
      CHECK(nimp == nrecv, "set %s kind %d: imports %d, neighbours export %d", set->name, kind,
            nimp, nrecv);
      for (int i = 0; i < im[kind]->nranks && nimp == nrecv; i++) {
        int r = im[kind]->ranks[i];
        CHECK(rcount[r] == im[kind]->offset[i + 1] - im[kind]->offset[i], "set %s: count from %d",
              set->name, r);
        for (int k = 0; k < rcount[r] && k < im[kind]->offset[i + 1] - im[kind]->offset[i]; k++)
          CHECK(set->gid[im[kind]->list[im[kind]->offset[i] + k]] == rbuf[rdisp[r] + k],
                "set %s: import %d from %d is %d, export says %d", set->name, k, r,
                set->gid[im[kind]->list[im[kind]->offset[i] + k]], rbuf[rdisp[r] + k]);
      }
      free(scount), free(sdisp), free(rcount), free(rdisp), free(sbuf), free(rbuf);
    }
  }
}

/* For partitioners whose parts do not depend on the process count: the
 * census of the whole mesh on one process gives every rank's sizes. */
static void check_census(pair *p, const char *lib, const char *routine, int prime_set, int prime_map,
                         int coords) {
  op_mpi_mesh m = p->dist, w = p->whole;
  op_mpi_partition_parts(w, lib, routine, w->sets[prime_set], w->maps[prime_map],
                         coords >= 0 ? w->dats[coords] : NULL, m->nprocs);
  op_mpi_census c;
  op_mpi_census_take(w, w->maps[prime_map], &c);
  CHECK(w->edge_cut == m->edge_cut, "edge cut %lld on one process, %lld distributed", w->edge_cut,
        m->edge_cut);
  CHECK(c.edge_cut == m->edge_cut, "edge cut %lld by the census, %lld distributed", c.edge_cut,
        m->edge_cut);
  for (int s = 0; s < m->nsets; s++) {
    op_mpi_set set = m->sets[s];
    size_t at = (size_t)s * c.nparts + m->rank;
    int nb = 0; /* neighbours I receive from */
    for (int r = 0; r < m->nprocs; r++) {
      int from = 0;
      for (int i = 0; i < set->imp_exec.nranks; i++) from |= set->imp_exec.ranks[i] == r;
      for (int i = 0; i < set->imp_nonexec.nranks; i++) from |= set->imp_nonexec.ranks[i] == r;
      nb += from;
    }
    CHECK(c.owned[at] == set->size && c.exec[at] == set->exec_size &&
              c.nonexec[at] == set->nonexec_size && c.recv_from[at] == nb,
          "set %s: census owned/exec/nonexec/neighbours %d/%d/%d/%d, distributed %d/%d/%d/%d",
          set->name, c.owned[at], c.exec[at], c.nonexec[at], c.recv_from[at], set->size,
          set->exec_size, set->nonexec_size, nb);
    int sent = 0;
    sent += set->exp_exec.nranks ? set->exp_exec.offset[set->exp_exec.nranks] : 0;
    sent += set->exp_nonexec.nranks ? set->exp_nonexec.offset[set->exp_nonexec.nranks] : 0;
    CHECK(c.sent[at] == sent, "set %s: census sends %d rows, distributed %d", set->name, c.sent[at],
          sent);
  }
  op_mpi_census_free(&c);
}

/* The edge cut recorded, counted again from the graph PT-Scotch is given:
 * arcs between parts, each edge being two arcs. */
static void check_cut(op_mpi_mesh m, op_mpi_map map) {
  int *xadj, *adj;
  op_mpi_graph_build(m, map, &xadj, &adj);
  int n = map->to->slice_size, narcs = xadj[n];
  int *np = malloc(sizeof(int) * (size_t)(narcs + 1));
  op_mpi_lookup(m->comm, map->to->slice_starts, map->to->part, narcs, adj, np);
  long long arcs = 0;
  for (int v = 0; v < n; v++)
    for (int a = xadj[v]; a < xadj[v + 1]; a++) {
      arcs += np[a] != map->to->part[v];
      CHECK(adj[a] != map->to->slice_start + v, "graph of %s: self loop at %d", map->name, adj[a]);
    }
  MPI_Allreduce(MPI_IN_PLACE, &arcs, 1, MPI_LONG_LONG, MPI_SUM, m->comm);
  CHECK(arcs % 2 == 0 && arcs / 2 == m->edge_cut,
        "edge cut %lld, the graph has %lld arcs between parts", m->edge_cut, arcs);
  free(xadj), free(adj), free(np);
}

/* Partitions a second copy and compares every set's parts. */
static void check_repeatable(op_mpi_mesh a, op_mpi_mesh b) {
  for (int s = 0; s < a->nsets; s++)
    for (int e = 0; e < a->sets[s]->slice_size; e++)
      CHECK(a->sets[s]->part[e] == b->sets[s]->part[e], "set %s element %d: part %d, then %d",
            a->sets[s]->name, a->sets[s]->slice_start + e, a->sets[s]->part[e],
            b->sets[s]->part[e]);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc < 4) {
    fprintf(stderr, "usage: test_mpi_halo LIB:ROUTINE airfoil FILE.h5 | grid NX NY\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char *pt = argv[1];
  int airfoil = !strcmp(argv[2], "airfoil");
  pair p;
  test_airfoil a, aw, a2;
  test_grid g, gw, g2;
  char lib[32], routine[32];
  snprintf(lib, sizeof lib, "%.*s", (int)strcspn(pt, ":"), pt);
  snprintf(routine, sizeof routine, "%s", strchr(pt, ':') ? strchr(pt, ':') + 1 : "");
  int prime_set, prime_map, coords;
  if (airfoil) {
    test_airfoil_read(&a, MPI_COMM_WORLD, argv[3]);
    test_airfoil_read(&a2, MPI_COMM_WORLD, argv[3]);
    test_airfoil_read(&aw, MPI_COMM_SELF, argv[3]);
    p.dist = a.m, p.whole = aw.m;
    prime_set = a.cells->index, prime_map = a.pecell->index, coords = a.p_xc->index;
    op_mpi_partition_parts(a2.m, lib, routine, a2.cells, a2.pecell, a2.p_xc, a2.m->nprocs);
    test_airfoil_distribute(&a, pt, stdout);
  } else {
    int nx = atoi(argv[3]), ny = argc > 4 ? atoi(argv[4]) : nx;
    test_grid_make(&g, MPI_COMM_WORLD, nx, ny);
    test_grid_make(&g2, MPI_COMM_WORLD, nx, ny);
    test_grid_make(&gw, MPI_COMM_SELF, nx, ny);
    p.dist = g.m, p.whole = gw.m;
    prime_set = g.cells->index, prime_map = g.stencil->index, coords = g.xc->index;
    op_mpi_partition_parts(g2.m, lib, routine, g2.cells, g2.stencil, g2.xc, g2.m->nprocs);
    test_grid_distribute(&g, pt, stdout);
  }
  check_repeatable(p.dist, airfoil ? a2.m : g2.m);
  check_cut(airfoil ? a2.m : g2.m, airfoil ? a2.pecell : g2.stencil);
  check_ownership(p.dist);
  check_maps(&p);
  check_exec_complete(&p);
  check_lists_agree(p.dist);
  if (strcmp(lib, "PTSCOTCH")) check_census(&p, lib, routine, prime_set, prime_map, coords);
  op_mpi_mesh_free(p.dist);
  op_mpi_mesh_free(p.whole);
  op_mpi_mesh_free(airfoil ? a2.m : g2.m);
  int rc = check_mpi_exit("test_mpi_halo");
  MPI_Finalize();
  return rc;
}
