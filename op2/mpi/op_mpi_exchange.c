/* op_mpi_exchange.c - halo exchanges with dirty bits, and the loop protocol. */
#include "op_mpi_exchange.h"

#include <stdlib.h>
#include <string.h>

#include "op_mpi_check.h"

/* Per set: one message to and from each neighbour, execute rows then
 * non-execute rows. */
struct op_mpi_exchange_plan {
  int nsend;
  int *send_rank;
  int *send_off;  /* nsend + 1: rows of the packed send buffer */
  int *send_list; /* local indices to pack, in buffer order */
  int nrecv;
  int *recv_rank;
  int *recv_off;  /* nrecv + 1: rows of the receive buffer */
  int *exec_first, *exec_n, *nonexec_first, *nonexec_n; /* where a message's rows go */
};

struct op_mpi_exchange_state {
  char *sendbuf, *recvbuf;
  MPI_Request *req;
  int nreq;
  int in_flight;
};

static long long sent_messages, sent_bytes;
static const op_mpi_exchange_hooks *hooks;

void op_mpi_exchange_set_hooks(const op_mpi_exchange_hooks *h) { hooks = h; }

/* Rows of neighbour rank r in list h: first index and count (0 when absent). */
static int rows_of(const op_mpi_halo_list *h, int r, int *first) {
  for (int i = 0; i < h->nranks; i++)
    if (h->ranks[i] == r) {
      *first = h->offset[i];
      return h->offset[i + 1] - h->offset[i];
    }
  *first = 0;
  return 0;
}

static int list_length(const op_mpi_halo_list *h) { return h->nranks ? h->offset[h->nranks] : 0; }

/* Ascending union of the ranks of two lists. */
static int union_ranks(const op_mpi_halo_list *a, const op_mpi_halo_list *b, int **out) {
  int *u = op_mpi_alloc(int, a->nranks + b->nranks), n = 0, i = 0, j = 0;
  while (i < a->nranks || j < b->nranks) {
    int r;
    if (j >= b->nranks || (i < a->nranks && a->ranks[i] < b->ranks[j])) r = a->ranks[i++];
    else if (i >= a->nranks || b->ranks[j] < a->ranks[i]) r = b->ranks[j++];
    else r = a->ranks[i++], j++;
    u[n++] = r;
  }
  *out = u;
  return n;
}

void op_mpi_exchange_plan_build(op_mpi_set s) {
  op_mpi_exchange_plan_free(s);
  struct op_mpi_exchange_plan *p = op_mpi_zalloc(struct op_mpi_exchange_plan, 1);
  p->nsend = union_ranks(&s->exp_exec, &s->exp_nonexec, &p->send_rank);
  p->send_off = op_mpi_alloc(int, p->nsend + 1);
  p->send_list = op_mpi_alloc(int, (size_t)list_length(&s->exp_exec) + list_length(&s->exp_nonexec));
  int rows = 0;
  for (int i = 0; i < p->nsend; i++) {
    int f, n;
    p->send_off[i] = rows;
    n = rows_of(&s->exp_exec, p->send_rank[i], &f);
    memcpy(p->send_list + rows, s->exp_exec.list + f, (size_t)n * sizeof(int));
    rows += n;
    n = rows_of(&s->exp_nonexec, p->send_rank[i], &f);
    memcpy(p->send_list + rows, s->exp_nonexec.list + f, (size_t)n * sizeof(int));
    rows += n;
  }
  p->send_off[p->nsend] = rows;

  p->nrecv = union_ranks(&s->imp_exec, &s->imp_nonexec, &p->recv_rank);
  p->recv_off = op_mpi_alloc(int, p->nrecv + 1);
  p->exec_first = op_mpi_alloc(int, p->nrecv);
  p->exec_n = op_mpi_alloc(int, p->nrecv);
  p->nonexec_first = op_mpi_alloc(int, p->nrecv);
  p->nonexec_n = op_mpi_alloc(int, p->nrecv);
  rows = 0;
  for (int i = 0; i < p->nrecv; i++) {
    int f;
    p->recv_off[i] = rows;
    p->exec_n[i] = rows_of(&s->imp_exec, p->recv_rank[i], &f);
    p->exec_first[i] = p->exec_n[i] ? s->imp_exec.list[f] : 0;
    p->nonexec_n[i] = rows_of(&s->imp_nonexec, p->recv_rank[i], &f);
    p->nonexec_first[i] = p->nonexec_n[i] ? s->imp_nonexec.list[f] : 0;
    rows += p->exec_n[i] + p->nonexec_n[i];
  }
  p->recv_off[p->nrecv] = rows;
  s->plan = p;
}

void op_mpi_exchange_plan_free(op_mpi_set s) {
  struct op_mpi_exchange_plan *p = s->plan;
  if (!p) return;
  free(p->send_rank);
  free(p->send_off);
  free(p->send_list);
  free(p->recv_rank);
  free(p->recv_off);
  free(p->exec_first);
  free(p->exec_n);
  free(p->nonexec_first);
  free(p->nonexec_n);
  free(p);
  s->plan = NULL;
}

void op_mpi_exchange_free(op_mpi_dat d) {
  struct op_mpi_exchange_state *x = d->xs;
  if (!x) return;
  free(x->sendbuf);
  free(x->recvbuf);
  free(x->req);
  free(x);
  d->xs = NULL;
}

/* The biggest tag every MPI library must accept. */
enum { TAG_LIMIT = 32767 };

void op_mpi_exchange_begin(op_mpi_dat d) {
  op_mpi_set s = d->set;
  op_mpi_mesh m = s->mesh;
  struct op_mpi_exchange_plan *p = s->plan;
  if (m->stage != OP_MPI_DISTRIBUTED || !p)
    op_mpi_fatal("halo exchange of dat '%s': the mesh is not distributed yet", d->name);
  if (d->index > TAG_LIMIT)
    op_mpi_fatal("dat '%s' is number %d: halo exchanges tag messages with the dat's number, at "
                 "most %d",
                 d->name, d->index, TAG_LIMIT);
  if (!d->xs) {
    d->xs = op_mpi_zalloc(struct op_mpi_exchange_state, 1);
    d->xs->sendbuf = op_mpi_alloc(char, (size_t)p->send_off[p->nsend] * d->size);
    d->xs->recvbuf = op_mpi_alloc(char, (size_t)p->recv_off[p->nrecv] * d->size);
    d->xs->req = op_mpi_alloc(MPI_Request, p->nsend + p->nrecv);
  }
  struct op_mpi_exchange_state *x = d->xs;
  if (x->in_flight) op_mpi_fatal("dat '%s': a halo exchange is already in flight", d->name);
  x->nreq = 0;
  if (hooks && hooks->before_pack) hooks->before_pack(d, p->send_list, p->send_off[p->nsend]);
  for (int i = 0; i < p->nrecv; i++) {
    int n = p->recv_off[i + 1] - p->recv_off[i];
    OP_MPI_CHECK(MPI_Irecv(x->recvbuf + (size_t)p->recv_off[i] * d->size, (int)((size_t)n * d->size),
                           MPI_BYTE, p->recv_rank[i], d->index, m->comm, &x->req[x->nreq++]));
  }
  for (int i = 0; i < p->nsend; i++) {
    char *buf = x->sendbuf + (size_t)p->send_off[i] * d->size;
    int n = p->send_off[i + 1] - p->send_off[i];
    for (int k = 0; k < n; k++)
      memcpy(buf + (size_t)k * d->size, d->data + (size_t)p->send_list[p->send_off[i] + k] * d->size,
             d->size);
    OP_MPI_CHECK(MPI_Isend(buf, (int)((size_t)n * d->size), MPI_BYTE, p->send_rank[i], d->index,
                           m->comm, &x->req[x->nreq++]));
    sent_messages++;
    sent_bytes += (long long)n * (long long)d->size;
    s->messages++;
    s->bytes += (long long)n * (long long)d->size;
  }
  s->exchanges++;
  x->in_flight = 1;
  d->dirty = 0;
}

void op_mpi_exchange_finish(op_mpi_dat d) {
  struct op_mpi_exchange_state *x = d->xs;
  if (!x || !x->in_flight) return;
  struct op_mpi_exchange_plan *p = d->set->plan;
  OP_MPI_CHECK(MPI_Waitall(x->nreq, x->req, MPI_STATUSES_IGNORE));
  for (int i = 0; i < p->nrecv; i++) {
    const char *buf = x->recvbuf + (size_t)p->recv_off[i] * d->size;
    memcpy(d->data + (size_t)p->exec_first[i] * d->size, buf, (size_t)p->exec_n[i] * d->size);
    memcpy(d->data + (size_t)p->nonexec_first[i] * d->size, buf + (size_t)p->exec_n[i] * d->size,
           (size_t)p->nonexec_n[i] * d->size);
  }
  x->in_flight = 0;
  op_mpi_set s = d->set;
  if (hooks && hooks->after_unpack && s->exec_size + s->nonexec_size > 0)
    hooks->after_unpack(d, s->size, s->exec_size + s->nonexec_size);
}

void op_mpi_exchange_counts(long long *messages, long long *bytes) {
  *messages = sent_messages;
  *bytes = sent_bytes;
}

void op_mpi_print_exchanges(op_mpi_mesh m, FILE *out) {
  long long *mine = op_mpi_alloc(long long, 3 * (size_t)m->nsets + 1);
  long long *all = op_mpi_alloc(long long, 3 * (size_t)m->nsets + 1);
  for (int i = 0; i < m->nsets; i++) {
    mine[3 * i] = m->sets[i]->exchanges;
    mine[3 * i + 1] = m->sets[i]->messages;
    mine[3 * i + 2] = m->sets[i]->bytes;
  }
  OP_MPI_CHECK(MPI_Reduce(mine, all, 3 * m->nsets, MPI_LONG_LONG, MPI_SUM, 0, m->comm));
  /* Every process starts the same exchanges (dirty bits are the same everywhere). */
  for (int i = 0; m->rank == 0 && i < m->nsets; i++)
    if (all[3 * i] > 0)
      fprintf(out, "  halo exchanges of set %s: %lld of a dat, %lld messages, %.3f MB\n",
              m->sets[i]->name, all[3 * i] / m->nprocs, all[3 * i + 1], (double)all[3 * i + 2] * 1e-6);
  free(mine);
  free(all);
}

/* ---- the loop protocol ------------------------------------------------------------ */

static int writes_through_map(int nargs, const op_mpi_arg *args) {
  for (int a = 0; a < nargs; a++)
    if (args[a].dat && args[a].map && args[a].acc != OP_READ) return 1;
  return 0;
}

int op_mpi_loop_begin(op_mpi_set set, int nargs, op_mpi_arg *args) {
  if (!set || set->mesh->stage != OP_MPI_DISTRIBUTED)
    op_mpi_fatal("distributed loop: set '%s' is not distributed yet", set ? set->name : "(null)");
  int exec = writes_through_map(nargs, args);
  for (int a = 0; a < nargs; a++) {
    op_mpi_dat d = args[a].dat;
    op_mpi_map p = args[a].map;
    if (!d) continue;
    if (p ? (p->from != set || p->to != d->set) : d->set != set)
      op_mpi_fatal("distributed loop over '%s': argument %d (dat '%s'%s%s) does not fit the set",
                   set->name, a, d->name, p ? ", map " : "", p ? p->name : "");
    int reads = args[a].acc == OP_READ || args[a].acc == OP_RW;
    if (reads && d->dirty && (p || exec) && !(d->xs && d->xs->in_flight)) op_mpi_exchange_begin(d);
  }
  return set->size + (exec ? set->exec_size : 0);
}

void op_mpi_loop_wait(int nargs, op_mpi_arg *args) {
  for (int a = 0; a < nargs; a++)
    if (args[a].dat) op_mpi_exchange_finish(args[a].dat);
}

void op_mpi_loop_end(int nargs, op_mpi_arg *args) {
  for (int a = 0; a < nargs; a++)
    if (args[a].dat && args[a].acc != OP_READ) args[a].dat->dirty = 1;
}
