/*
 * op_cuda_tune.c - the CUDA backend's run-time auto-tuner (Giles, OP2 Developers Guide, 2011,
 * section 8; Giles, "OPlus2 for many-core platforms", 2010, section 14: "try
 * different choices on different iterations and monitor the execution times").
 *
 * Per loop name, the tuner offers the candidate configurations (strategy,
 * threads per block, partition size) one after another on successive calls
 * of the loop; every call does the loop's real work, so results are right
 * whatever is being tried. Each candidate is timed TRIALS times (GPU time from
 * CUDA events, the best of them counts); once all have been timed, the loop
 * settles on the fastest. Choices can be forced from the command line, loaded
 * from and saved to a tune file (format in docs/cuda.md). A loop still being
 * tuned when the program ends has its measured candidates saved as "trial"
 * lines, so that the next run with the file goes on from there instead of
 * starting again: a short run (a few calls of a loop) still ends up tuned.
 *
 * Plain C with no CUDA call, so that the unit tests run it without a GPU.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "op2_error.h"
#include "op_cuda.h"
#include "op_number.h"
#include "op_text.h"
#include "op_tmpname.h"

#define TRIALS 2
#define MAX_CANDIDATES 48

static const int block_sizes[] = {64, 128, 256, 512};
static const int part_sizes[] = {64, 128, 256, 512, 1024};
#define NBLOCK ((int)(sizeof block_sizes / sizeof *block_sizes))
#define NPART ((int)(sizeof part_sizes / sizeof *part_sizes))

enum { SRC_TUNED, SRC_FILE, SRC_FORCED, SRC_DEFAULT };

typedef struct {
  char *name;
  int ncand;
  op_cuda_config cand[MAX_CANDIDATES];
  double best[MAX_CANDIDATES];
  int tries[MAX_CANDIDATES];
  int rejected[MAX_CANDIDATES];
  int built;  /* candidates made */
  int cur;    /* candidate being timed */
  int settled;
  int source;
  op_cuda_config chosen;
  long calls, timed_calls;
  double total_ms; /* over timed calls */
  int warned;
  /* A forced or default configuration that could not run as chosen runs as
   * `ran_as` instead (a smaller block, atomic or colour for staged): every
   * call then asks for it, is timed under it and reports it. */
  int substituted;
  op_cuda_config sub_from, ran_as;
  /* Candidates measured by an earlier run ("trial" lines of the tune file). */
  int npre;
  op_cuda_config pre_cfg[MAX_CANDIDATES];
  double pre_ms[MAX_CANDIDATES];
} tune_entry;

typedef struct {
  char *name;
  op_cuda_config cfg;
} forced_loop;

static struct {
  int off;                 /* --op-tune=off */
  char *file;              /* --op-tune-file */
  int force_direct, force_indirect;
  op_cuda_config forced_direct, forced_indirect;
  forced_loop *loops;
  int nloops;
  tune_entry *entries;
  int nentries, cap;
} T;

static const char *names[OP_CUDA_NSTRATEGIES] = {"plain", "coalesced", "staged", "atomic",
                                                 "colour"};

const char *op_cuda_strategy_name(int s) {
  return s >= 0 && s < OP_CUDA_NSTRATEGIES ? names[s] : "?";
}

int op_cuda_strategy_from_name(const char *name) {
  for (int s = 0; s < OP_CUDA_NSTRATEGIES; s++)
    if (!strcmp(name, names[s])) return s;
  if (!strcmp(name, "color")) return OP_CUDA_COLOUR;
  return -1;
}

static int is_indirect_strategy(int s) {
  return s == OP_CUDA_STAGED || s == OP_CUDA_ATOMIC || s == OP_CUDA_COLOUR;
}

static int parse_int(const char *s, size_t n, int *out) {
  char buf[32];
  if (n == 0 || n >= sizeof buf) return -1;
  memcpy(buf, s, n);
  buf[n] = '\0';
  char *end;
  errno = 0;
  long v = strtol(buf, &end, 10);
  if (errno || *end || v < 0 || v > (1 << 24)) return -1;
  *out = (int)v;
  return 0;
}

int op_cuda_parse_config(const char *text, op_cuda_config *cfg, char *err, size_t errlen) {
  memset(cfg, 0, sizeof *cfg);
  const char *c1 = strchr(text, ':');
  size_t n = c1 ? (size_t)(c1 - text) : strlen(text);
  char sname[32];
  if (n == 0 || n >= sizeof sname) {
    snprintf(err, errlen, "\"%s\": expected STRATEGY[:block[:part]]", text);
    return -1;
  }
  memcpy(sname, text, n);
  sname[n] = '\0';
  cfg->strategy = op_cuda_strategy_from_name(sname);
  if (cfg->strategy < 0) {
    snprintf(err, errlen,
             "\"%s\": unknown strategy \"%s\" (plain, coalesced, staged, atomic, colour)", text,
             sname);
    return -1;
  }
  if (!c1) return 0;
  const char *c2 = strchr(c1 + 1, ':');
  size_t nb = c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1);
  if (parse_int(c1 + 1, nb, &cfg->block) != 0 || cfg->block < 32 || cfg->block > 1024 ||
      cfg->block % 32) {
    snprintf(err, errlen, "\"%s\": the block size must be a multiple of 32 in [32, 1024]", text);
    return -1;
  }
  if (!c2) return 0;
  if (parse_int(c2 + 1, strlen(c2 + 1), &cfg->part) != 0 || cfg->part < 1) {
    snprintf(err, errlen, "\"%s\": the partition size must be a positive integer", text);
    return -1;
  }
  if (cfg->strategy != OP_CUDA_STAGED) {
    snprintf(err, errlen, "\"%s\": only the staged strategy takes a partition size", text);
    return -1;
  }
  return 0;
}

static op_cuda_config parse_or_die(const char *opt, const char *text) {
  op_cuda_config cfg;
  char err[256];
  if (op_cuda_parse_config(text, &cfg, err, sizeof err) != 0) op_fatal("option %s: %s", opt, err);
  return cfg;
}

int op_cuda_tune_option(const char *arg) {
  if (!strncmp(arg, "--op-tune=", 10)) {
    const char *v = arg + 10;
    if (!strcmp(v, "auto"))
      T.off = 0;
    else if (!strcmp(v, "off"))
      T.off = 1;
    else
      op_fatal("option %s: expected auto or off", arg);
    return 1;
  }
  if (!strncmp(arg, "--op-tune-file=", 15)) {
    OP_CHECK(arg[15], "option %s: a file name is needed", arg);
    free(T.file);
    T.file = op_strdup(arg + 15);
    return 1;
  }
  if (!strncmp(arg, "--op-force=", 11)) {
    op_cuda_config cfg = parse_or_die(arg, arg + 11);
    if (is_indirect_strategy(cfg.strategy)) {
      T.force_indirect = 1;
      T.forced_indirect = cfg;
    } else {
      T.force_direct = 1;
      T.forced_direct = cfg;
    }
    return 1;
  }
  if (!strncmp(arg, "--op-force-loop=", 16)) {
    const char *eq = strchr(arg + 16, '=');
    OP_CHECK(eq && eq > arg + 16, "option %s: expected --op-force-loop=NAME=STRATEGY[:block[:part]]",
             arg);
    op_cuda_config cfg = parse_or_die(arg, eq + 1);
    T.loops = op_realloc(T.loops, sizeof(*T.loops) * (size_t)(T.nloops + 1));
    size_t n = (size_t)(eq - (arg + 16));
    char *name = op_malloc(n + 1);
    memcpy(name, arg + 16, n);
    name[n] = '\0';
    T.loops[T.nloops].name = name;
    T.loops[T.nloops].cfg = cfg;
    T.nloops++;
    return 1;
  }
  return 0;
}

const char *op_cuda_tune_usage(void) {
  return "  --op-tune=auto|off  CUDA: time the candidate configurations of every loop on its\n"
         "                      first calls and keep the fastest (auto, default), or use the\n"
         "                      defaults (off)\n"
         "  --op-tune-file=F    CUDA: load loop configurations from F if it exists; write the\n"
         "                      chosen ones to F at op_exit\n"
         "  --op-force=S[:B[:P]]  CUDA: strategy S (plain, coalesced for direct loops; staged,\n"
         "                      atomic, colour for indirect ones), B threads per block, P\n"
         "                      elements per partition (staged); repeat for each family\n"
         "  --op-force-loop=NAME=S[:B[:P]]  CUDA: the same for one loop\n";
}

void op_cuda_tune_reset(void) {
  for (int i = 0; i < T.nentries; i++) free(T.entries[i].name);
  free(T.entries);
  for (int i = 0; i < T.nloops; i++) free(T.loops[i].name);
  free(T.loops);
  free(T.file);
  memset(&T, 0, sizeof T);
}

static tune_entry *find(const char *name, int create) {
  for (int i = 0; i < T.nentries; i++)
    if (!strcmp(T.entries[i].name, name)) return &T.entries[i];
  if (!create) return NULL;
  if (T.nentries == T.cap) {
    T.cap = T.cap ? 2 * T.cap : 16;
    T.entries = op_realloc(T.entries, sizeof(*T.entries) * (size_t)T.cap);
  }
  tune_entry *e = &T.entries[T.nentries++];
  memset(e, 0, sizeof *e);
  e->name = op_strdup(name);
  return e;
}

/* The configuration used when nothing is tuned, forced or loaded, and for
 * the first calls of a loop being tuned (a loop called once or twice a run
 * never gets past it). One that needs no plan where the loop allows it:
 * atomic (one thread per element; 128 threads, what the tuner chose for
 * every atomic loop of airfoil and jacobi on an H200); else the cheaper of
 * staged and colour to plan. */
static op_cuda_config default_config(const op_cuda_traits *t, int default_part) {
  op_cuda_config c = {OP_CUDA_PLAIN, 256, 0};
  if (!t->indirect) {
    if (t->coalesced_ok) c.strategy = OP_CUDA_COALESCED;
  } else if (t->atomic_ok) {
    c.strategy = OP_CUDA_ATOMIC;
    c.block = 128;
  } else if (t->staged_ok && t->staged_cost <= t->colour_cost) {
    c.strategy = OP_CUDA_STAGED;
    c.part = default_part;
    c.block = default_part >= 256 ? 256 : default_part >= 128 ? 128 : 64;
  } else {
    c.strategy = OP_CUDA_COLOUR;
  }
  return c;
}

/* May the tuner try strategy s (it is possible) without building a plan
 * that costs too much? Colour is not tried where it would run atomic's
 * elements in atomic's order (no clashes at all) through one more gather. */
static int worth_trying(const op_cuda_traits *t, int s) {
  if (s == OP_CUDA_STAGED) return t->staged_cost <= OP_CUDA_TUNE_MAX_PLAN_COST;
  if (s == OP_CUDA_COLOUR)
    return t->colour_cost <= OP_CUDA_TUNE_MAX_PLAN_COST && !(t->conflict_free && t->atomic_ok);
  return 1;
}

static void settle(tune_entry *e);

static int same(op_cuda_config a, op_cuda_config b) {
  return a.strategy == b.strategy && a.block == b.block && a.part == b.part;
}

static int allowed(const op_cuda_traits *t, int s) {
  switch (s) {
    case OP_CUDA_PLAIN: return !t->indirect;
    case OP_CUDA_COALESCED: return !t->indirect && t->coalesced_ok;
    case OP_CUDA_STAGED: return t->indirect && t->staged_ok;
    case OP_CUDA_ATOMIC: return t->indirect && t->atomic_ok;
    case OP_CUDA_COLOUR: return t->indirect;
  }
  return 0;
}

int op_cuda_tune_candidates(const op_cuda_traits *t, int default_part, op_cuda_config *out,
                            int max) {
  int n = 0;
#define ADD(S, B, P)                                                    \
  do {                                                                  \
    op_cuda_config c_ = {(S), (B), (P)};                                \
    int dup_ = 0;                                                       \
    for (int k_ = 0; k_ < n; k_++) dup_ |= same(out[k_], c_);           \
    if (!dup_ && n < max) out[n++] = c_;                                \
  } while (0)
  op_cuda_config d = default_config(t, default_part);
  ADD(d.strategy, d.block, d.part);
  for (int s = 0; s < OP_CUDA_NSTRATEGIES; s++) {
    if (!allowed(t, s) || !worth_trying(t, s)) continue;
    for (int b = 0; b < NBLOCK; b++) {
      if (s != OP_CUDA_STAGED) {
        ADD(s, block_sizes[b], 0);
        continue;
      }
      /* Threads beyond the partition size would idle: block <= part. */
      for (int p = 0; p < NPART; p++)
        if (block_sizes[b] <= part_sizes[p]) ADD(s, block_sizes[b], part_sizes[p]);
    }
  }
#undef ADD
  return n;
}

/* Fills a forced configuration's missing block and partition sizes. */
static op_cuda_config complete(op_cuda_config c, int default_part) {
  if (!c.block) c.block = 256;
  if (c.strategy == OP_CUDA_STAGED && !c.part) c.part = default_part;
  if (c.strategy != OP_CUDA_STAGED) c.part = 0;
  return c;
}

/* A forced strategy the loop cannot use: the nearest one it can. */
static op_cuda_config substitute(tune_entry *e, op_cuda_config c, const op_cuda_traits *t,
                                 int default_part, const char *why) {
  if (allowed(t, c.strategy)) return c;
  op_cuda_config d = c;
  if (c.strategy == OP_CUDA_COALESCED)
    d.strategy = OP_CUDA_PLAIN;
  else if (c.strategy == OP_CUDA_STAGED || c.strategy == OP_CUDA_ATOMIC)
    d.strategy = t->atomic_ok ? OP_CUDA_ATOMIC : OP_CUDA_COLOUR;
  d.part = 0;
  if (!e->warned) {
    op_warn("CUDA loop \"%s\": %s strategy %s is not possible for this loop; using %s", e->name,
            why, op_cuda_strategy_name(c.strategy), op_cuda_strategy_name(d.strategy));
    e->warned = 1;
  }
  (void)default_part;
  return d;
}

/* Settles a loop on a configuration it does not tune (forced or default), or
 * on what that configuration was found to run as. */
static op_cuda_config fix(tune_entry *e, int source, op_cuda_config c) {
  e->settled = 1;
  e->source = source;
  e->chosen = e->substituted && same(c, e->sub_from) ? e->ran_as : c;
  return e->chosen;
}

op_cuda_config op_cuda_tune_choose(const char *name, const op_cuda_traits *t, int default_part) {
  tune_entry *e = find(name, 1);
  e->calls++;
  for (int i = T.nloops - 1; i >= 0; i--) {
    if (strcmp(T.loops[i].name, name) != 0) continue;
    op_cuda_config c = complete(T.loops[i].cfg, default_part);
    if (is_indirect_strategy(c.strategy) != !!t->indirect)
      op_fatal("option --op-force-loop=%s=%s: loop \"%s\" is %s; use %s", name,
               op_cuda_strategy_name(c.strategy), name, t->indirect ? "indirect" : "direct",
               t->indirect ? "staged, atomic or colour" : "plain or coalesced");
    return fix(e, SRC_FORCED, substitute(e, c, t, default_part, "the forced"));
  }
  if ((t->indirect && T.force_indirect) || (!t->indirect && T.force_direct)) {
    op_cuda_config c =
        complete(t->indirect ? T.forced_indirect : T.forced_direct, default_part);
    return fix(e, SRC_FORCED, substitute(e, c, t, default_part, "the forced"));
  }
  if (e->settled && e->source == SRC_FILE && !allowed(t, e->chosen.strategy)) {
    op_warn("CUDA loop \"%s\": strategy %s from the tune file is not possible; tuning again",
            name, op_cuda_strategy_name(e->chosen.strategy));
    e->settled = 0;
    e->source = SRC_TUNED;
  }
  if (e->settled) return e->chosen;
  if (T.off) return fix(e, SRC_DEFAULT, default_config(t, default_part));
  if (!e->built) {
    e->ncand = op_cuda_tune_candidates(t, default_part, e->cand, MAX_CANDIDATES);
    e->built = 1;
    e->cur = 0;
    /* Candidates an earlier run measured count as timed. */
    for (int i = 0; i < e->ncand; i++)
      for (int k = 0; k < e->npre; k++)
        if (same(e->cand[i], e->pre_cfg[k])) {
          e->tries[i] = TRIALS;
          e->best[i] = e->pre_ms[k];
        }
  }
  while (e->cur < e->ncand && (e->rejected[e->cur] || e->tries[e->cur] >= TRIALS)) e->cur++;
  if (e->cur >= e->ncand) {
    settle(e);
    if (e->settled) return e->chosen;
  }
  if (e->cur < e->ncand) return e->cand[e->cur];
  /* Every candidate rejected cannot happen (colour and plain always run), but be safe. */
  return default_config(t, default_part);
}

static void settle(tune_entry *e) {
  int best = -1;
  for (int i = 0; i < e->ncand; i++)
    if (!e->rejected[i] && e->tries[i] > 0 && (best < 0 || e->best[i] < e->best[best])) best = i;
  if (best < 0) return;
  e->settled = 1;
  e->source = SRC_TUNED;
  e->chosen = e->cand[best];
}

void op_cuda_tune_reject(const char *name, op_cuda_config cfg) {
  tune_entry *e = find(name, 1);
  if (e->settled && same(e->chosen, cfg)) {
    e->settled = 0;
    e->source = SRC_TUNED;
  }
  for (int i = 0; i < e->ncand; i++)
    if (same(e->cand[i], cfg)) e->rejected[i] = 1;
  while (e->cur < e->ncand && e->rejected[e->cur]) e->cur++;
  if (e->built && e->cur >= e->ncand) settle(e);
}

void op_cuda_tune_ran_as(const char *name, op_cuda_config asked, op_cuda_config ran) {
  tune_entry *e = find(name, 1);
  if (same(asked, ran)) return;
  if (e->settled && (e->source == SRC_FORCED || e->source == SRC_DEFAULT)) {
    /* A substitute that itself ran otherwise (staged run atomic, whose kernel
     * then allowed fewer threads) is replaced, still standing for the choice. */
    if (!e->substituted || !same(asked, e->ran_as)) e->sub_from = asked;
    e->substituted = 1;
    e->ran_as = ran;
    if (same(e->chosen, asked)) e->chosen = ran;
    return;
  }
  /* Tuned, being tuned or from the tune file: what cannot run as asked is
   * not a candidate (its time would be another configuration's). */
  op_cuda_tune_reject(name, asked);
}

void op_cuda_tune_record(const char *name, op_cuda_config cfg, double ms) {
  tune_entry *e = find(name, 1);
  if (e->settled) {
    if (same(cfg, e->chosen)) {
      e->timed_calls++;
      e->total_ms += ms;
    }
    return;
  }
  if (!e->built || e->cur >= e->ncand || !same(e->cand[e->cur], cfg)) return;
  int i = e->cur;
  if (e->tries[i] == 0 || ms < e->best[i]) e->best[i] = ms;
  e->tries[i]++;
  if (e->tries[i] >= TRIALS) {
    e->cur++;
    while (e->cur < e->ncand && (e->rejected[e->cur] || e->tries[e->cur] >= TRIALS)) e->cur++;
    if (e->cur >= e->ncand) settle(e);
  }
}

int op_cuda_tune_is_fixed(const char *name) {
  tune_entry *e = find(name, 0);
  return e && e->settled && (e->source == SRC_FORCED || e->source == SRC_DEFAULT);
}

int op_cuda_tune_settled(const char *name, op_cuda_config *cfg) {
  tune_entry *e = find(name, 0);
  if (!e || !e->settled) return 0;
  if (cfg) *cfg = e->chosen;
  return 1;
}

/* A loop called too few times to get past its default (its first TRIALS
 * calls) with nothing measured by an earlier run: it ran the default, and
 * that is what it is reported and remembered as (no trial lines). */
static int default_only(const tune_entry *e) {
  if (e->settled || !e->built || e->npre != 0 || e->calls > TRIALS || e->rejected[0]) return 0;
  for (int k = 1; k < e->ncand; k++)
    if (e->tries[k] > 0) return 0;
  return 1;
}

static double entry_ms(const tune_entry *e) {
  if (e->timed_calls > 0) return e->total_ms / (double)e->timed_calls;
  for (int i = 0; i < e->ncand; i++)
    if (same(e->cand[i], e->chosen) && e->tries[i] > 0) return e->best[i];
  return 0.0;
}

static void save_trial(FILE *f, int *header, const char *name, op_cuda_config c, double ms) {
  if (!*header) fprintf(f, "# still being tuned: candidates measured so far (trial)\n");
  *header = 1;
  fprintf(f, "%s %s %d %d %.6f trial\n", name, op_cuda_strategy_name(c.strategy), c.block, c.part,
          ms);
}

int op_cuda_tune_save(const char *path, const char *device_name, char *err, size_t errlen) {
  char tmp[4400];
  if (!op_tmp_name(path, tmp, sizeof tmp)) { /* this process's alone: runs may share the file */
    snprintf(err, errlen, "tune file name too long: %s", path);
    return -1;
  }
  FILE *f = fopen(tmp, "w");
  if (!f) {
    snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
    return -1;
  }
  fprintf(f, "# OP2 CUDA loop configurations: loop strategy block part [ms per call]\n");
  fprintf(f, "# device: %s\n", device_name ? device_name : "?");
  for (int i = 0; i < T.nentries; i++) {
    const tune_entry *e = &T.entries[i];
    if (!e->settled || (e->source != SRC_TUNED && e->source != SRC_FILE)) continue;
    fprintf(f, "%s %s %d %d %.6f\n", e->name, op_cuda_strategy_name(e->chosen.strategy),
            e->chosen.block, e->chosen.part, entry_ms(e));
  }
  /* Loops still being tuned: what has been measured so far, for the next run
   * (a loop not called in this run keeps the trial lines it was loaded with). */
  int header = 0;
  for (int i = 0; i < T.nentries; i++) {
    const tune_entry *e = &T.entries[i];
    if (e->settled || default_only(e)) continue;
    if (!e->built)
      for (int k = 0; k < e->npre; k++) save_trial(f, &header, e->name, e->pre_cfg[k], e->pre_ms[k]);
    else
      for (int k = 0; k < e->ncand; k++)
        if (e->tries[k] > 0 && !e->rejected[k])
          save_trial(f, &header, e->name, e->cand[k], e->best[k]);
  }
  if (fclose(f) != 0 || rename(tmp, path) != 0) {
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

/* A tune file is small: one line per loop. */
#define TUNE_MAX_LINE 1024
#define TUNE_MAX_BYTES (1u << 20)
#define TUNE_MAX_PART (1 << 24)

/* A decimal integer in [lo, hi], the whole token (no sign games, no wrap:
 * "4294967328" is out of range, not 32). */
static int token_int(const char *t, long lo, long hi, int *out) {
  char *end;
  errno = 0;
  long v = strtol(t, &end, 10);
  if (end == t || *end || errno == ERANGE || v < lo || v > hi) return -1;
  *out = (int)v;
  return 0;
}

static int valid_loop_name(const char *t) {
  if (!*t || strlen(t) > 255) return 0;
  for (; *t; t++)
    if (!((*t >= 'a' && *t <= 'z') || (*t >= 'A' && *t <= 'Z') || (*t >= '0' && *t <= '9') ||
          *t == '_' || *t == '.' || *t == '-'))
      return 0;
  return 1;
}

/* One line "loop strategy block part [ms [trial]]" (comment removed); 0 for
 * a blank line, 1 with the fields, -1 with the reason in why. */
static int parse_tune_line(char *line, char **name, op_cuda_config *c, double *ms, int *trial,
                           char *why, size_t whylen) {
  char *hash = strchr(line, '#');
  if (hash) *hash = '\0';
  char *tok[7];
  int n = 0;
  for (char *p = strtok(line, " \t\r"); p; p = strtok(NULL, " \t\r")) {
    if (n == 6) {
      snprintf(why, whylen, "more than six fields");
      return -1;
    }
    tok[n++] = p;
  }
  if (n == 0) return 0;
  if (n < 4) {
    snprintf(why, whylen, "%d field(s), expected \"loop strategy block part [ms [trial]]\"", n);
    return -1;
  }
  if (!valid_loop_name(tok[0])) {
    snprintf(why, whylen, "loop name is not a name (letters, digits, _ . -, at most 255)");
    return -1;
  }
  *name = tok[0];
  c->strategy = op_cuda_strategy_from_name(tok[1]);
  if (c->strategy < 0) {
    snprintf(why, whylen, "unknown strategy (plain, coalesced, staged, atomic, colour)");
    return -1;
  }
  if (token_int(tok[2], 32, 1024, &c->block) != 0 || c->block % 32) {
    snprintf(why, whylen, "the block size must be a multiple of 32 in [32, 1024]");
    return -1;
  }
  int staged = c->strategy == OP_CUDA_STAGED;
  if (token_int(tok[3], staged ? 1 : 0, staged ? TUNE_MAX_PART : 0, &c->part) != 0) {
    if (staged)
      snprintf(why, whylen, "the partition size of staged must be an integer in [1, %d]",
               TUNE_MAX_PART);
    else
      snprintf(why, whylen, "the partition size must be 0 (only staged takes one)");
    return -1;
  }
  *ms = 0.0;
  *trial = 0;
  if (n >= 5) {
    if (op_number_parse(tok[4], strlen(tok[4]), ms) != OP_NUMBER_OK || *ms < 0.0) {
      snprintf(why, whylen, "the time must be a finite number of milliseconds, not negative");
      return -1;
    }
  }
  if (n == 6) {
    if (strcmp(tok[5], "trial") != 0) {
      snprintf(why, whylen, "unknown tag (only \"trial\")");
      return -1;
    }
    if (!(*ms > 0.0)) {
      snprintf(why, whylen, "a trial line needs a positive time");
      return -1;
    }
    *trial = 1;
  }
  return 1;
}

int op_cuda_tune_load(const char *path, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  struct stat st;
  if (stat(path, &st) != 0 && errno == ENOENT) return 0; /* nothing saved yet */
  op_text_reader r;
  if (op_text_open(&r, path, "tune file", TUNE_MAX_LINE, TUNE_MAX_BYTES, err, errlen) != 0)
    return -1;
  int ignored = 0, got;
  char *line;
  size_t len;
  while ((got = op_text_next(&r, &line, &len, err, errlen)) == 1) {
    char *name = NULL, why[160];
    op_cuda_config c;
    double ms;
    int trial;
    int k = parse_tune_line(line, &name, &c, &ms, &trial, why, sizeof why);
    if (k == 0) continue;
    if (k < 0) {
      /* As docs/cuda.md says: a bad line is ignored with a warning; the loop
       * it names (if any) is tuned. */
      op_text_format(err, errlen, "%s:%ld: %s; line ignored", r.shown, r.line, why);
      op_warn("tune file %s", err);
      ignored++;
      continue;
    }
    tune_entry *e = find(name, 1);
    if (trial) {
      if (e->npre < MAX_CANDIDATES) {
        e->pre_cfg[e->npre] = c;
        e->pre_ms[e->npre] = ms;
        e->npre++;
      }
      continue;
    }
    e->settled = 1;
    e->source = SRC_FILE;
    e->chosen = c;
  }
  op_text_close(&r);
  if (got < 0) {
    /* Too long a line, binary data, too big a file: what was read is used. */
    op_warn("tune file %s; the rest of the file is ignored", err);
    ignored++;
  }
  return ignored;
}

void op_cuda_tune_describe(FILE *f) {
  for (int i = 0; i < T.nentries; i++) {
    const tune_entry *e = &T.entries[i];
    if (e->settled)
      fprintf(f, "%s: %s block %d part %d (from the tune file)\n", e->name,
              op_cuda_strategy_name(e->chosen.strategy), e->chosen.block, e->chosen.part);
    for (int k = 0; k < e->npre; k++)
      fprintf(f, "%s: candidate %s block %d part %d measured at %.6f ms (trial)\n", e->name,
              op_cuda_strategy_name(e->pre_cfg[k].strategy), e->pre_cfg[k].block,
              e->pre_cfg[k].part, e->pre_ms[k]);
  }
}

void op_cuda_tune_init(void) {
  if (!T.file) return;
  char err[1200];
  if (op_cuda_tune_load(T.file, err, sizeof err) < 0) op_fatal("tune file: %s", err);
}

void op_cuda_tune_exit(int diags, const char *device_name) {
  if (diags >= 1 && T.nentries > 0) {
    printf("\nOP2 CUDA loop configurations (%s):\n", device_name ? device_name : "?");
    for (int i = 0; i < T.nentries; i++) {
      const tune_entry *e = &T.entries[i];
      if (e->calls == 0) continue;
      if (default_only(e)) {
        printf("  %-20s %-9s block %4d part %5d  %9.4f ms per call  (default: called %ld "
               "time%s, too few to tune)\n",
               e->name, op_cuda_strategy_name(e->cand[0].strategy), e->cand[0].block,
               e->cand[0].part, e->best[0], e->calls, e->calls == 1 ? "" : "s");
        continue;
      }
      if (!e->settled) {
        int tried = 0;
        for (int k = 0; k < e->ncand; k++) tried += e->tries[k] >= TRIALS || e->rejected[k];
        printf("  %-20s still tuning: %d of %d candidates tried in %ld calls\n", e->name, tried,
               e->ncand, e->calls);
        continue;
      }
      const char *src = e->source == SRC_TUNED    ? "tuned"
                        : e->source == SRC_FILE   ? "from the tune file"
                        : e->source == SRC_FORCED ? "forced"
                                                  : "default";
      printf("  %-20s %-9s block %4d part %5d  %9.4f ms per call  (%s", e->name,
             op_cuda_strategy_name(e->chosen.strategy), e->chosen.block, e->chosen.part,
             entry_ms(e), src);
      if (e->source == SRC_TUNED) printf(" over %d candidates", e->ncand);
      printf(")\n");
    }
  }
  int tuning = 0;
  for (int i = 0; i < T.nentries; i++)
    tuning += T.entries[i].calls > 0 && !T.entries[i].settled && !default_only(&T.entries[i]);
  if (tuning > 0)
    printf("OP2 CUDA: %d loop%s still being tuned at exit: %s times include trial "
           "configurations%s\n",
           tuning, tuning == 1 ? "" : "s", tuning == 1 ? "its" : "their",
           T.file ? "; the candidates measured are saved in the tune file, and the next run "
                    "with it goes on from there"
                  : " (--op-tune-file=F carries the tuning over to the next run)");
  if (T.file) {
    char err[1200];
    if (op_cuda_tune_save(T.file, device_name, err, sizeof err) != 0)
      op_warn("tune file not saved: %s", err);
    else if (diags >= 1)
      printf("OP2 CUDA loop configurations saved to %s\n", T.file);
  }
}
