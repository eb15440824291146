/*
 * test_cuda_plan - what the CUDA kernels consume, checked on the CPU (no GPU,
 * no CUDA): the device image of a plan (op_cuda_plan_pack), the launches over
 * block colours, the shared-memory layout against nshared, the local maps and
 * thread colours, and a replay of the staged scheme exactly as the generated
 * kernel runs it: stage the block's indirect data through ind_maps, run the
 * elements, apply increments one thread colour at a time, write back. The
 * replay also checks, round by round, that no two elements of one thread
 * colour touch the same staged element (a race on the GPU), which the CPU
 * emulation of CUDA cannot see. Then the auto-tuner: option parsing, the
 * candidates, settling on the fastest, rejection, the tune file, what ran
 * instead of what was chosen; and the start-up rule (exit 77 only without a
 * device).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op_cuda.h"
#include "op_cuda_start.h"
#include "op_plan.h"

#define TEST_LCG_SEED 24681357u
#include "test_expect.h"


/* What an argument does in the replayed loop. */
typedef struct {
  int dim;
  op_access acc;
} replay_arg;

/* Every indirect argument's value for element n: a small integer, so that sums
 * are exact whatever the order. */
static double contribution(int n, int i, int d) { return (double)((n * 7 + i * 3 + d) % 11 - 5); }

/* The loop every replay runs, element by element: INC args add their
 * contribution, RW args double and add, WRITE args set, READ args are summed
 * into the element's own direct value `out` (to check what was read). */
static void element(int n, int nargs, const replay_arg *ra, double **ptr, double *out) {
  double acc = 0.0;
  for (int i = 0; i < nargs; i++)
    for (int d = 0; d < ra[i].dim; d++) {
      if (ra[i].acc == OP_READ) acc += ptr[i][d];
      if (ra[i].acc == OP_INC) ptr[i][d] += contribution(n, i, d);
      if (ra[i].acc == OP_RW) ptr[i][d] = 2.0 * ptr[i][d] + contribution(n, i, d);
      if (ra[i].acc == OP_WRITE) ptr[i][d] = contribution(n, i, d);
    }
  *out = acc;
}

/* Replays one staged loop over `set` (all args indirect on dat `data` of dim
 * `dim`, through `maps`) with CUDA blocks of `bs` threads; checks the result
 * against the sequential loop. */
static void replay(const char *what, op_set set, op_dat dat, int nargs, const op_arg *args,
                   const replay_arg *ra, int part, int bs) {
  op_plan *p = op_plan_build(what, set, part, nargs, args, OP_PLAN_STAGED | OP_PLAN_GLOBAL_COLOURS);
  char msg[512];
  CHECK(op_plan_check(p, nargs, args, msg, sizeof msg) == 0, "%s: plan check: %s", what, msg);
  op_cuda_plan_image img;
  op_cuda_plan_pack(p, &img);
  op_cuda_plan_d pd;
  op_cuda_plan_pointers(&img, img.image, &pd); /* as the device would see them */
  const int nb = p->nblocks, dim = dat->dim, nind = dat->set->size;
  CHECK(p->ninds == 1, "%s: %d indirect dats", what, p->ninds);

  /* The image holds the plan's arrays. */
  CHECK(!memcmp(pd.blkmap, p->blkmap, sizeof(int) * (size_t)nb) &&
            !memcmp(pd.offset, p->offset, sizeof(int) * (size_t)nb) &&
            !memcmp(pd.nelems, p->nelems, sizeof(int) * (size_t)nb) &&
            !memcmp(pd.nthrcol, p->nthrcol, sizeof(int) * (size_t)nb) &&
            !memcmp(pd.thrcol, p->thrcol, sizeof(int) * (size_t)set->size) &&
            !memcmp(pd.gcol_elems, p->gcol_elems, sizeof(int) * (size_t)set->size),
        "%s part %d: the device image differs from the plan", what, part);

  /* Reference: the loop in element order. */
  double *ref = malloc(sizeof(double) * (size_t)nind * dim), *got = malloc(sizeof(double) * (size_t)nind * dim);
  double *ref_out = malloc(sizeof(double) * (size_t)set->size), *got_out = malloc(sizeof(double) * (size_t)set->size);
  for (int k = 0; k < nind * dim; k++) ref[k] = got[k] = (double)(k % 13);
  double *ptr[16];
  for (int n = 0; n < set->size; n++) {
    for (int i = 0; i < nargs; i++) ptr[i] = ref + (size_t)args[i].map->map[n * args[i].map->dim + args[i].idx] * dim;
    element(n, nargs, ra, ptr, &ref_out[n]);
  }
  int serial = 0, has_inc = 0, has_read = 0;
  for (int i = 0; i < nargs; i++) {
    serial |= ra[i].acc == OP_RW || ra[i].acc == OP_WRITE;
    has_inc |= ra[i].acc == OP_INC;
    has_read |= ra[i].acc == OP_READ;
  }
  /* Mixed READ and INC of one dat is written in place too (as op2-gen does). */
  if (has_inc && has_read) serial = 1;

  /* Launches: one per block colour, each block of the colour once. */
  int *seen = calloc((size_t)nb + 1, sizeof(int));
  double *shared = malloc(p->nshared + 64);
  int *owner = malloc(sizeof(int) * (p->nshared / sizeof(double) + 8));
  for (int col = 0; col < p->ncolors; col++) {
    const int first = p->colblk_offset[col], count = p->ncolblk[col];
    for (int bx = count - 1; bx >= 0; bx--) { /* any order within a colour */
      const int blk = pd.blkmap[first + bx];
      seen[blk]++;
      const int offset = pd.offset[blk], nelem = pd.nelems[blk], ncol = pd.nthrcol[blk];
      const int size = pd.ind_sizes[0 * nb + blk];
      const int *imap = pd.ind_maps[0] + pd.ind_offs[0 * nb + blk];
      size_t bytes = ((size_t)size * (size_t)dim * sizeof(double) + 7) & ~(size_t)7;
      CHECK(bytes <= p->nshared, "%s: block %d stages %zu bytes, nshared %zu", what, blk, bytes,
            p->nshared);
      for (int k = 0; k < size * dim; k++)
        shared[k] = (has_inc && !serial) ? 0.0 : got[(size_t)imap[k / dim] * dim + k % dim];
      for (int n0 = 0; n0 < nelem; n0 += bs) {
        /* Compute phase (not serial): each thread's increments into its locals. */
        static double keep[1024][16][16];
        for (int t = 0; t < bs && !serial; t++) {
          int nl = n0 + t, n = offset + nl;
          if (nl >= nelem) continue;
          for (int i = 0; i < nargs; i++) {
            if (ra[i].acc == OP_INC) {
              for (int d = 0; d < dim; d++) keep[t][i][d] = 0.0;
              ptr[i] = keep[t][i];
            } else {
              ptr[i] = shared + (size_t)pd.loc_maps[i][n] * dim;
            }
          }
          element(n, nargs, ra, ptr, &got_out[n]);
        }
        /* One round per thread colour; within a round no staged element is
         * touched by two threads (that would be a race on the GPU). */
        for (int c = 0; c < ncol; c++) {
          for (int k = 0; k < size; k++) owner[k] = -1;
          for (int t = 0; t < bs; t++) {
            int nl = n0 + t, n = offset + nl;
            if (nl >= nelem || pd.thrcol[n] != c) continue;
            for (int i = 0; i < nargs; i++) {
              int loc = pd.loc_maps[i][n];
              CHECK(loc >= 0 && loc < size, "%s: local index %d outside [0, %d)", what, loc, size);
              CHECK(imap[loc] == args[i].map->map[n * args[i].map->dim + args[i].idx],
                    "%s: local index does not lead back to the global element", what);
              if (ra[i].acc == OP_READ && !serial) continue;
              CHECK(owner[loc] == -1 || owner[loc] == t,
                    "%s part %d: threads %d and %d of colour %d both touch staged element %d", what,
                    part, owner[loc], t, c, loc);
              owner[loc] = t;
            }
            if (serial) { /* the element itself runs in its colour's round, in place */
              for (int i = 0; i < nargs; i++) ptr[i] = shared + (size_t)pd.loc_maps[i][n] * dim;
              element(n, nargs, ra, ptr, &got_out[n]);
            } else {
              for (int i = 0; i < nargs; i++)
                if (ra[i].acc == OP_INC)
                  for (int d = 0; d < dim; d++)
                    shared[(size_t)pd.loc_maps[i][n] * dim + d] += keep[t][i][d];
            }
          }
          for (int t = 0; t < bs; t++) { /* colours lie in [0, ncol) */
            int nl = n0 + t;
            if (nl < nelem)
              CHECK(pd.thrcol[offset + nl] >= 0 && pd.thrcol[offset + nl] < ncol,
                    "%s: thread colour out of range", what);
          }
        }
      }
      /* Write back. */
      if (has_inc || serial)
        for (int k = 0; k < size * dim; k++) {
          double *g = &got[(size_t)imap[k / dim] * dim + k % dim];
          *g = serial ? shared[k] : *g + shared[k];
        }
    }
  }
  for (int b = 0; b < nb; b++)
    CHECK(seen[b] == 1, "%s: block %d launched %d times", what, b, seen[b]);
  int bad = 0;
  for (int k = 0; k < nind * dim; k++) bad += got[k] != ref[k];
  CHECK(bad == 0, "%s part %d block %d: %d values differ from the sequential loop", what, part, bs,
        bad);
  if (has_read && !serial) {
    bad = 0;
    for (int n = 0; n < set->size; n++) bad += got_out[n] != ref_out[n];
    CHECK(bad == 0, "%s part %d: %d elements read wrong staged values", what, part, bad);
  }

  /* One-level colouring: every element once; within a colour, written data
   * touched by one element only. */
  int *eseen = calloc((size_t)set->size + 1, sizeof(int));
  int *stamp = malloc(sizeof(int) * (size_t)nind), *who = malloc(sizeof(int) * (size_t)nind);
  for (int k = 0; k < nind; k++) stamp[k] = -1;
  int writes = has_inc || serial;
  for (int c = 0; c < p->gcolors; c++)
    for (int j = p->gcol_offset[c]; j < p->gcol_offset[c + 1]; j++) {
      int n = pd.gcol_elems[j];
      eseen[n]++;
      for (int i = 0; i < nargs && writes; i++) {
        int g = args[i].map->map[n * args[i].map->dim + args[i].idx];
        CHECK(stamp[g] != c || who[g] == n, "%s: elements %d and %d of global colour %d share %d",
              what, who[g], n, c, g);
        stamp[g] = c;
        who[g] = n;
      }
    }
  for (int n = 0; n < set->size; n++)
    CHECK(eseen[n] == 1, "%s: element %d in %d global colours", what, n, eseen[n]);
  free(eseen);
  free(stamp);
  free(who);
  free(seen);
  free(shared);
  free(owner);
  free(ref);
  free(got);
  free(ref_out);
  free(got_out);
  op_cuda_plan_image_free(&img);
  op_plan_free(p);
}

static void test_tuner(void) {
  op_cuda_config c;
  char err[256];
  CHECK(op_cuda_parse_config("staged:128:512", &c, err, sizeof err) == 0 &&
            c.strategy == OP_CUDA_STAGED && c.block == 128 && c.part == 512,
        "parse staged:128:512");
  CHECK(op_cuda_parse_config("color", &c, err, sizeof err) == 0 && c.strategy == OP_CUDA_COLOUR,
        "parse color");
  CHECK(op_cuda_parse_config("atomic:100", &c, err, sizeof err) != 0, "block 100 accepted");
  CHECK(op_cuda_parse_config("plain:64:64", &c, err, sizeof err) != 0, "part for plain accepted");
  CHECK(op_cuda_parse_config("warp", &c, err, sizeof err) != 0, "unknown strategy accepted");

  op_cuda_traits ind = {.indirect = 1, .staged_ok = 1, .atomic_ok = 1};
  op_cuda_traits dir = {.coalesced_ok = 1};
  op_cuda_config cand[64];
  int n = op_cuda_tune_candidates(&ind, 256, cand, 64);
  CHECK(n == 14 + 4 + 4, "indirect loop: %d candidates, expected 22", n);
  CHECK(cand[0].strategy == OP_CUDA_ATOMIC && cand[0].part == 0 && cand[0].block == 128,
        "the default (atomic:128, no plan) comes first");
  /* Candidates whose plans would cost too much are not tried; colour is not
   * tried where it would be atomic's order through a gather. */
  op_cuda_traits big = ind;
  big.staged_cost = OP_CUDA_TUNE_MAX_PLAN_COST + 1;
  n = op_cuda_tune_candidates(&big, 256, cand, 64);
  CHECK(n == 8, "a loop whose staged plan costs too much: %d candidates, expected 8", n);
  for (int i = 0; i < n; i++)
    CHECK(cand[i].strategy != OP_CUDA_STAGED, "a staged plan too costly offered (candidate %d)", i);
  big.colour_cost = OP_CUDA_TUNE_MAX_PLAN_COST + 1;
  CHECK(op_cuda_tune_candidates(&big, 256, cand, 64) == 4,
        "staged and colour plans too costly: only atomic's 4 candidates");
  big = ind;
  big.conflict_free = 1;
  n = op_cuda_tune_candidates(&big, 256, cand, 64);
  for (int i = 0; i < n; i++)
    CHECK(cand[i].strategy != OP_CUDA_COLOUR, "colour offered for a loop without clashes");
  /* Without atomics the default is the cheaper plan. */
  big = ind;
  big.atomic_ok = 0;
  big.staged_cost = 1000, big.colour_cost = 10;
  op_cuda_tune_candidates(&big, 256, cand, 64);
  CHECK(cand[0].strategy == OP_CUDA_COLOUR, "no atomics, colour cheaper: default %s",
        op_cuda_strategy_name(cand[0].strategy));
  big.staged_cost = 10, big.colour_cost = 1000;
  op_cuda_tune_candidates(&big, 256, cand, 64);
  CHECK(cand[0].strategy == OP_CUDA_STAGED && cand[0].part == 256,
        "no atomics, staged cheaper: default %s", op_cuda_strategy_name(cand[0].strategy));
  for (int i = 0; i < n; i++)
    CHECK(cand[i].strategy != OP_CUDA_STAGED || cand[i].block <= cand[i].part,
          "candidate %d: block %d > part %d", i, cand[i].block, cand[i].part);
  CHECK(op_cuda_tune_candidates(&dir, 256, cand, 64) == 8, "direct loop: 8 candidates");
  ind.atomic_ok = 0;
  n = op_cuda_tune_candidates(&ind, 256, cand, 64);
  for (int i = 0; i < n; i++)
    CHECK(cand[i].strategy != OP_CUDA_ATOMIC, "atomic offered without atomics");
  ind.atomic_ok = 1;

  /* Tuning: every candidate twice, then the fastest. */
  n = op_cuda_tune_candidates(&ind, 256, cand, 64);
  int fastest = 7, calls = 0;
  for (;;) {
    op_config_loop:;
    op_cuda_config got = op_cuda_tune_choose("loopA", &ind, 256);
    if (op_cuda_tune_settled("loopA", NULL)) break;
    int k;
    for (k = 0; k < n; k++)
      if (!memcmp(&cand[k], &got, sizeof got)) break;
    CHECK(k < n, "the tuner offered a configuration that is not a candidate");
    if (k == 3 && calls < 100) { /* pretend this one cannot run */
      op_cuda_tune_reject("loopA", got);
      calls++;
      goto op_config_loop;
    }
    op_cuda_tune_record("loopA", got, k == fastest ? 1.0 : 2.0 + k);
    if (++calls > 1000) break;
  }
  op_cuda_config best;
  CHECK(op_cuda_tune_settled("loopA", &best) && !memcmp(&best, &cand[fastest], sizeof best),
        "the tuner did not settle on the fastest candidate");
  CHECK(calls == 2 * (n - 1) + 1, "%d calls to tune %d candidates (one rejected)", calls, n);

  /* The tune file: save, reset, load. */
  const char *path = "test_cuda_plan.tune";
  CHECK(op_cuda_tune_save(path, "test device", err, sizeof err) == 0, "save: %s", err);
  op_cuda_tune_reset();
  CHECK(!op_cuda_tune_settled("loopA", NULL), "reset kept a choice");
  CHECK(op_cuda_tune_load(path, err, sizeof err) == 0, "load: %s", err);
  CHECK(op_cuda_tune_settled("loopA", &c) && !memcmp(&c, &best, sizeof c),
        "the tune file did not bring back the choice");
  c = op_cuda_tune_choose("loopA", &ind, 256);
  CHECK(!memcmp(&c, &best, sizeof c), "a loaded choice was not used");
  /* A bad line is ignored with a warning naming the file and line; the good
   * lines around it are used. Numbers that wrap (4294967328 read as 32,
   * 99999999999 as 1215752191), NaN or negative times are bad lines. */
  static const char *const bad_lines[] = {
      "loopB staged 128",                   /* a field missing */
      "loopB staged 4294967328 256",        /* block wraps to 32 with %d */
      "loopB staged 128 99999999999",       /* partition wraps with %d */
      "loopB staged 128 2147483647",        /* partition beyond 2^24 */
      "loopB staged 128 -256",
      "loopB atomic 64 0 nan",
      "loopB atomic 64 0 -1.5",
      "loopB atomic 64 0 inf",
      "loopB atomic 64 0 1e999",
      "loopB atomic 64 0 1.5 trial extra",
      "loopB staged 0x80 256",
      "loopB staged 128 256 0 trial",       /* a trial needs a time */
      "loop\x1b[2JB atomic 64 0",          /* not a loop name */
      "loopB warp 64 0",
      "loopB atomic 64 128",                /* only staged has a partition */
  };
  for (size_t k = 0; k < sizeof bad_lines / sizeof *bad_lines; k++) {
    op_cuda_tune_reset();
    FILE *f = fopen(path, "w");
    fprintf(f, "# comment\nloopZ atomic 64 0 1.0\n%s\nloopY colour 128 0\n", bad_lines[k]);
    fclose(f);
    int ignored = op_cuda_tune_load(path, err, sizeof err);
    CHECK(ignored == 1 && strstr(err, "test_cuda_plan.tune:3:") && strstr(err, "line ignored") &&
              !strchr(err, '\x1b'),
          "bad tune line '%s': %d ignored (%s)", bad_lines[k], ignored, err);
    CHECK(!op_cuda_tune_settled("loopB", NULL), "bad tune line '%s' was used", bad_lines[k]);
    CHECK(op_cuda_tune_settled("loopZ", NULL) && op_cuda_tune_settled("loopY", NULL),
          "good lines around '%s' were not used", bad_lines[k]);
  }
  /* A line longer than a tune file's (or binary data) ends the reading with
   * a warning; what came before is used. */
  op_cuda_tune_reset();
  FILE *f = fopen(path, "w");
  fprintf(f, "loopZ atomic 64 0 1.0\n");
  for (int k = 0; k < 2000; k++) fputc('x', f);
  fprintf(f, "\nloopY colour 128 0\n");
  fclose(f);
  CHECK(op_cuda_tune_load(path, err, sizeof err) == 1 && strstr(err, ":2: line longer") &&
            op_cuda_tune_settled("loopZ", NULL) && !op_cuda_tune_settled("loopY", NULL),
        "a 2000-byte tune line: %s", err);
  CHECK(op_cuda_tune_load("/dev/zero", err, sizeof err) == -1 &&
            strstr(err, "is a character device, not a regular file"),
        "/dev/zero as a tune file: %s", err);
  remove(path);

  /* Tuning carried over runs: each "run" makes a few calls of the loop, saves
   * and resets; the next one loads the file and goes on. The fastest
   * candidate is measured in the second run, and the choice must be it. */
  op_cuda_tune_reset();
  n = op_cuda_tune_candidates(&ind, 256, cand, 64);
  int run_calls = 0, runs = 0;
  for (runs = 1; runs <= 20 && !op_cuda_tune_settled("loopG", NULL); runs++) {
    if (runs > 1) {
      op_cuda_tune_reset();
      CHECK(op_cuda_tune_load(path, err, sizeof err) == 0, "load of trial lines: %s", err);
    }
    for (int call = 0; call < 16; call++) { /* an even number: no candidate split */
      op_cuda_config got = op_cuda_tune_choose("loopG", &ind, 256);
      if (op_cuda_tune_settled("loopG", NULL)) break;
      int k;
      for (k = 0; k < n; k++)
        if (!memcmp(&cand[k], &got, sizeof got)) break;
      CHECK(k < n, "resumed tuning offered a configuration that is not a candidate");
      op_cuda_tune_record("loopG", got, k == 10 ? 0.5 : 3.0 + k);
      run_calls++;
    }
    CHECK(op_cuda_tune_save(path, "test device", err, sizeof err) == 0, "save: %s", err);
  }
  CHECK(op_cuda_tune_settled("loopG", &c) && !memcmp(&c, &cand[10], sizeof c),
        "resumed tuning did not settle on the fastest candidate");
  CHECK(run_calls == 2 * n, "resumed tuning took %d calls for %d candidates (expected %d)",
        run_calls, n, 2 * n);
  CHECK(runs - 1 == (2 * n + 15) / 16, "resumed tuning took %d runs", runs - 1);
  op_cuda_tune_reset();
  CHECK(op_cuda_tune_load(path, err, sizeof err) == 0 && op_cuda_tune_settled("loopG", &c) &&
            !memcmp(&c, &cand[10], sizeof c),
        "the settled choice of a resumed tuning was not saved");
  f = fopen(path, "w");
  fprintf(f, "loopH atomic 64 0 1.5 maybe\n");
  fclose(f);
  CHECK(op_cuda_tune_load(path, err, sizeof err) == 1 && strstr(err, ":1:") &&
            !op_cuda_tune_settled("loopH", NULL),
        "a line with an unknown tag was accepted (%s)", err);
  remove(path);

  /* A loop called once or twice a run runs its default and stays with it:
   * reported as the default, no trial lines saved; a third call starts the
   * tuning, and what it measured is saved. */
  op_cuda_tune_reset();
  CHECK(op_cuda_tune_option("--op-tune-file=test_cuda_plan_few.tune"), "--op-tune-file not taken");
  for (int call = 0; call < 2; call++) {
    c = op_cuda_tune_choose("once", &ind, 256);
    CHECK(c.strategy == OP_CUDA_ATOMIC && c.block == 128, "call %d of a new loop: not the default",
          call + 1);
    op_cuda_tune_record("once", c, 1.0);
  }
  for (int call = 0; call < 3; call++)
    op_cuda_tune_record("thrice", op_cuda_tune_choose("thrice", &ind, 256), 1.0 + call);
  op_cuda_tune_exit(1, "test device");
  f = fopen("test_cuda_plan_few.tune", "r");
  char text[4096] = "";
  if (f) {
    size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = '\0';
    fclose(f);
  }
  CHECK(!strstr(text, "once "), "a loop called twice left lines in the tune file:\n%s", text);
  CHECK(strstr(text, "thrice ") && strstr(text, "trial"),
        "a loop called three times left no trial lines:\n%s", text);
  remove("test_cuda_plan_few.tune");

  /* Forcing. */
  op_cuda_tune_reset();
  CHECK(op_cuda_tune_option("--op-force=atomic:64") && op_cuda_tune_option("--op-force=plain"),
        "--op-force not taken");
  c = op_cuda_tune_choose("loopC", &ind, 256);
  CHECK(c.strategy == OP_CUDA_ATOMIC && c.block == 64, "forced atomic:64 not used");
  c = op_cuda_tune_choose("loopD", &dir, 256);
  CHECK(c.strategy == OP_CUDA_PLAIN && c.block == 256, "forced plain not used for a direct loop");
  CHECK(op_cuda_tune_option("--op-force-loop=loopE=staged:64:128"), "--op-force-loop not taken");
  c = op_cuda_tune_choose("loopE", &ind, 256);
  CHECK(c.strategy == OP_CUDA_STAGED && c.block == 64 && c.part == 128, "per-loop force not used");
  ind.atomic_ok = 0;
  c = op_cuda_tune_choose("loopF", &ind, 256);
  CHECK(c.strategy == OP_CUDA_COLOUR, "forced atomic on a loop that cannot: %s, expected colour",
        op_cuda_strategy_name(c.strategy));
  op_cuda_tune_reset();
  ind.atomic_ok = 1;

  /* What ran instead of what was chosen. A forced choice becomes what ran:
   * later calls ask for it, and its times count under it. */
  CHECK(op_cuda_tune_option("--op-force=staged:256:1024"), "--op-force not taken");
  c = op_cuda_tune_choose("loopR", &ind, 256);
  op_cuda_config ran = {OP_CUDA_ATOMIC, 256, 0};
  op_cuda_tune_ran_as("loopR", c, ran);
  op_cuda_tune_record("loopR", ran, 2.0);
  c = op_cuda_tune_choose("loopR", &ind, 256);
  CHECK(!memcmp(&c, &ran, sizeof c),
        "a forced staged:256:1024 that ran atomic: asked again for %s:%d:%d",
        op_cuda_strategy_name(c.strategy), c.block, c.part);
  CHECK(op_cuda_tune_settled("loopR", &c) && !memcmp(&c, &ran, sizeof c),
        "the settled choice is not what ran");
  /* ... and when the substitute's kernel allows only 128 threads. */
  op_cuda_config ran128 = {OP_CUDA_ATOMIC, 128, 0};
  op_cuda_tune_ran_as("loopR", ran, ran128);
  c = op_cuda_tune_choose("loopR", &ind, 256);
  CHECK(!memcmp(&c, &ran128, sizeof c),
        "forced staged, run atomic with 128 threads: asked for %s:%d:%d",
        op_cuda_strategy_name(c.strategy), c.block, c.part);
  op_cuda_tune_reset();
  /* While tuning, a candidate that ran as another configuration is dropped:
   * never offered again, never chosen, its time not kept. */
  n = op_cuda_tune_candidates(&ind, 256, cand, 64);
  op_cuda_config dropped[64];
  int clamped = 0, offered_again = 0;
  for (int call = 0; call < 400 && !op_cuda_tune_settled("loopT", NULL); call++) {
    op_cuda_config got = op_cuda_tune_choose("loopT", &ind, 256);
    if (op_cuda_tune_settled("loopT", NULL)) break;
    for (int k = 0; k < clamped; k++) offered_again += !memcmp(&dropped[k], &got, sizeof got);
    if (got.block > 128) {
      /* The kernel allows 128 threads: it runs with 128, fastest of all. */
      op_cuda_config r128 = got;
      r128.block = 128;
      if (clamped < 64) dropped[clamped++] = got;
      op_cuda_tune_ran_as("loopT", got, r128);
      op_cuda_tune_record("loopT", r128, 0.1);
      continue;
    }
    op_cuda_tune_record("loopT", got, 1.0 + got.block / 64.0 + got.strategy);
  }
  CHECK(op_cuda_tune_settled("loopT", &c) && c.block <= 128,
        "tuning settled on %s:%d:%d, which ran with fewer threads",
        op_cuda_strategy_name(c.strategy), c.block, c.part);
  CHECK(offered_again == 0, "a candidate that ran with fewer threads was offered %d more time(s)",
        offered_again);
  CHECK(clamped > 0 && clamped < n, "%d of %d candidates clamped", clamped, n);
  op_cuda_tune_reset();

  /* Start-up: 77 only without a device. */
  char why[512];
  CHECK(op_cuda_start_verdict(0, "no error", 2, 1, why, sizeof why) == OP_CUDA_START_RUN,
        "two devices: %s", why);
  CHECK(op_cuda_start_verdict(0, "no error", 0, 1, why, sizeof why) == OP_CUDA_START_SKIP,
        "no device counted: %s", why);
  CHECK(op_cuda_start_verdict(OP_CUDA_ERR_NO_DEVICE, "no CUDA-capable device is detected", 0, 1,
                              why, sizeof why) == OP_CUDA_START_SKIP &&
            strstr(why, "no CUDA-capable device"),
        "no device: %s", why);
  CHECK(op_cuda_start_verdict(OP_CUDA_ERR_INSUFFICIENT_DRIVER, "insufficient driver", 0, 0, why,
                              sizeof why) == OP_CUDA_START_SKIP &&
            strstr(why, "no CUDA driver installed"),
        "no driver installed: %s", why);
  CHECK(op_cuda_start_verdict(OP_CUDA_ERR_INSUFFICIENT_DRIVER, "insufficient driver", 0, 1, why,
                              sizeof why) == OP_CUDA_START_FAIL &&
            strstr(why, "older than the CUDA runtime") && strstr(why, "(error 35)"),
        "a driver older than the runtime must fail: %s", why);
  CHECK(op_cuda_start_verdict(3, "initialization error", 0, 1, why, sizeof why) ==
                OP_CUDA_START_FAIL &&
            strstr(why, "initialization error (error 3)"),
        "an initialization error must fail: %s", why);
  CHECK(op_cuda_start_verdict(999, NULL, 1, 1, why, sizeof why) == OP_CUDA_START_FAIL,
        "an unknown error with a device counted must fail: %s", why);
}

int main(int argc, char **argv) {
  op_init_strip_options(&argc, argv, 0);
  const int nnode = 700, nedge = 3000;
  int *e2n = malloc(sizeof(int) * 2 * nedge);
  for (int e = 0; e < nedge; e++) {
    e2n[2 * e] = (int)(lcg() % nnode);
    e2n[2 * e + 1] = (int)(lcg() % nnode);
  }
  op_set nodes = op_decl_set(nnode, "nodes");
  op_set edges = op_decl_set(nedge, "edges");
  op_map pedge = op_decl_map(edges, nodes, 2, e2n, "pedge");
  op_dat r = op_decl_dat_temp(nodes, 3, "double", "r");
  op_dat u = op_decl_dat_temp(nodes, 2, "double", "u");
  /* Pairs: each node touched once (WRITE / RW through a map). */
  const int npair = nnode / 2;
  int *p2n = malloc(sizeof(int) * 2 * npair);
  for (int k = 0; k < npair; k++) p2n[2 * k] = 2 * k, p2n[2 * k + 1] = 2 * k + 1;
  for (int k = npair - 1; k > 0; k--) {
    int j = (int)(lcg() % (unsigned)(k + 1)), a = p2n[2 * k], b = p2n[2 * k + 1];
    p2n[2 * k] = p2n[2 * j], p2n[2 * k + 1] = p2n[2 * j + 1];
    p2n[2 * j] = a, p2n[2 * j + 1] = b;
  }
  op_set pairs = op_decl_set(npair, "pairs");
  op_map ppair = op_decl_map(pairs, nodes, 2, p2n, "ppair");

  op_arg inc_args[2] = {op_arg_dat(r, 0, pedge, 3, "double", OP_INC),
                        op_arg_dat(r, 1, pedge, 3, "double", OP_INC)};
  replay_arg inc_ra[2] = {{3, OP_INC}, {3, OP_INC}};
  op_arg read_args[2] = {op_arg_dat(u, 0, pedge, 2, "double", OP_READ),
                         op_arg_dat(u, 1, pedge, 2, "double", OP_READ)};
  replay_arg read_ra[2] = {{2, OP_READ}, {2, OP_READ}};
  op_arg mixed_args[2] = {op_arg_dat(u, 0, pedge, 2, "double", OP_READ),
                          op_arg_dat(u, 1, pedge, 2, "double", OP_INC)};
  replay_arg mixed_ra[2] = {{2, OP_READ}, {2, OP_INC}};
  op_arg rw_args[2] = {op_arg_dat(u, 0, ppair, 2, "double", OP_WRITE),
                       op_arg_dat(u, 1, ppair, 2, "double", OP_RW)};
  replay_arg rw_ra[2] = {{2, OP_WRITE}, {2, OP_RW}};
  const int parts[] = {7, 64, 128, 256, 512, 1024};
  const int blocks[] = {64, 256};
  for (size_t ip = 0; ip < sizeof parts / sizeof *parts; ip++)
    for (size_t ib = 0; ib < sizeof blocks / sizeof *blocks; ib++) {
      replay("increments", edges, r, 2, inc_args, inc_ra, parts[ip], blocks[ib]);
      replay("reads", edges, u, 2, read_args, read_ra, parts[ip], blocks[ib]);
      replay("read and increment", edges, u, 2, mixed_args, mixed_ra, parts[ip], blocks[ib]);
      replay("write and rw", pairs, u, 2, rw_args, rw_ra, parts[ip], blocks[ib]);
    }
  test_tuner();
  op_exit();
  free(e2n);
  free(p2n);
  return check_exit("CUDA plan data and tuner");
}
