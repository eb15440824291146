/*
 * deck.c - the strict input-deck parser (see deck.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "deck.h"
#include "build_info.h"
#include "op_number.h"
#include "op_text.h"
#include "result_json.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define SRC_FILE (strrchr(__FILE__, '/') ? strrchr(__FILE__, '/') + 1 : __FILE__)

typedef struct {
  long long i;   /* DECK_INT */
  double r;      /* DECK_REAL */
  int b;         /* DECK_BOOL */
  int choice;    /* DECK_CHOICE: position in the choices list */
  char *s;       /* DECK_STRING value, or the DECK_CHOICE name */
  char *origin;  /* "default", "FILE:LINE", "argument N" */
} deck_value;

struct deck {
  char *solver;
  const deck_key *table;
  int nkeys;
  deck_value *v;
  char *path;    /* the deck file read, or NULL */
};

/* ---- small helpers ---------------------------------------------------- */

/* 1 when the key names a file the run reads (DECK_INPUT_FILE, deck.h). */
static int is_input_file(const deck_key *k)
{
  return k->choices != NULL && strcmp(k->choices, DECK_INPUT_FILE) == 0;
}

static void msg(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Messages quote what the user wrote, which may be anything: the whole
 * message goes through op_text_shown (control bytes escaped, an overlong
 * value shortened in the middle). */
static void msg(char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  op_text_vformat(err, errlen, fmt, ap);
  va_end(ap);
}

static char *dup_string(const char *s)
{
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p != NULL)
    memcpy(p, s, n);
  return p;
}

static char *dup_range(const char *s, size_t n)
{
  char *p = malloc(n + 1);
  if (p != NULL) {
    memcpy(p, s, n);
    p[n] = '\0';
  }
  return p;
}

/* The shortest text that reads back as v. */
static void format_real(double v, char *buf, size_t len)
{
  if (isinf(v)) {
    snprintf(buf, len, "%s", v < 0 ? "-inf" : "inf");
    return;
  }
  if (v == floor(v) && fabs(v) < 1e15) { /* 1000000, not 1e+06 */
    snprintf(buf, len, "%.0f", v);
    return;
  }
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, len, "%.*g", prec, v);
    if (strtod(buf, NULL) == v)
      return;
  }
}

static int has_range(const deck_key *k)
{
  return (k->kind == DECK_INT || k->kind == DECK_REAL) && !(k->min == 0 && k->max == 0);
}

/* "[0, 1]", "[1, inf)", "(-inf, 10]" or "any" */
static void format_range(const deck_key *k, char *buf, size_t len)
{
  if (!has_range(k)) {
    snprintf(buf, len, "any");
    return;
  }
  char lo[40], hi[40];
  format_real(k->min, lo, sizeof lo);
  format_real(k->max, hi, sizeof hi);
  snprintf(buf, len, "%s%s, %s%s", isinf(k->min) ? "(" : "[", lo, hi, isinf(k->max) ? ")" : "]");
}

static const char *kind_name(deck_kind kind)
{
  switch (kind) {
  case DECK_INT: return "int";
  case DECK_REAL: return "real";
  case DECK_STRING: return "string";
  case DECK_BOOL: return "bool";
  case DECK_CHOICE: return "choice";
  }
  return "?";
}

static int find_key(const deck *d, const char *key)
{
  for (int i = 0; i < d->nkeys; i++)
    if (strcmp(d->table[i].key, key) == 0)
      return i;
  return -1;
}

/* Edit distance, ignoring case, over the first 63 characters of each:
 * insertions, deletions, substitutions and transpositions of two neighbours
 * (optimal string alignment), each costing 1, so that "stpes" is one edit
 * from "steps". */
static int distance(const char *a, const char *b, size_t nb_max)
{
  enum { MAXLEN = 63 };
  int d[MAXLEN + 1][MAXLEN + 1];
  int na = (int)strlen(a), nb = (int)strlen(b);
  if (na > MAXLEN)
    na = MAXLEN;
  if (nb > (int)nb_max)
    nb = (int)nb_max;
  if (nb > MAXLEN)
    nb = MAXLEN;
  for (int i = 0; i <= na; i++)
    d[i][0] = i;
  for (int j = 0; j <= nb; j++)
    d[0][j] = j;
  for (int i = 1; i <= na; i++)
    for (int j = 1; j <= nb; j++) {
      int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
      int best = d[i - 1][j - 1] + (ca != cb);
      if (d[i - 1][j] + 1 < best)
        best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best)
        best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
          tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[na][nb];
}

/* How far a typed key is from a known one: the edit distance to the whole
 * key, or one more than the distance to one of its '_'-separated words
 * ("steps" finds "max_steps"). */
static int key_distance(const char *typed, const char *key)
{
  int best = distance(typed, key, strlen(key));
  for (const char *w = key; *w;) {
    size_t n = strcspn(w, "_");
    if (w != key || w[n] != '\0') {
      int d = distance(typed, w, n) + 1;
      if (d < best)
        best = d;
    }
    w += n;
    if (*w == '_')
      w++;
  }
  return best;
}

/* "did you mean 'a'?" or "'a' or 'b'" for the (at most three) keys within
 * 1 + len/4 edits of the typed one, nearest first; else a pointer to --help. */
static void unknown_key(const deck *d, const char *prefix, const char *key, char *err,
                        size_t errlen)
{
  enum { MAX_SUGGEST = 3 };
  int pick[MAX_SUGGEST], n = 0;
  const int limit = 1 + (int)strlen(key) / 4;
  /* Nearest first; among keys equally near, the table's order. */
  for (int want = 0; want <= limit && n < MAX_SUGGEST; want++)
    for (int i = 0; i < d->nkeys && n < MAX_SUGGEST; i++)
      if (key_distance(key, d->table[i].key) == want)
        pick[n++] = i;
  if (d->nkeys == 0)
    msg(err, errlen, "%s: unknown key '%s' (%s takes no keys)", prefix, key, d->solver);
  else if (n == 0)
    msg(err, errlen, "%s: unknown key '%s' (no key is close; --help lists them all)", prefix, key);
  else if (n == 1)
    msg(err, errlen, "%s: unknown key '%s' (did you mean '%s'?)", prefix, key, d->table[pick[0]].key);
  else if (n == 2)
    msg(err, errlen, "%s: unknown key '%s' (did you mean '%s' or '%s'?)", prefix, key,
        d->table[pick[0]].key, d->table[pick[1]].key);
  else
    msg(err, errlen, "%s: unknown key '%s' (did you mean '%s', '%s' or '%s'?)", prefix, key,
        d->table[pick[0]].key, d->table[pick[1]].key, d->table[pick[2]].key);
}

static int is_bool_word(const char *s, int *value)
{
  static const char *const yes[] = {"true", "yes", "on", "1"};
  static const char *const no[] = {"false", "no", "off", "0"};
  for (int i = 0; i < 4; i++) {
    if (strcasecmp(s, yes[i]) == 0) {
      *value = 1;
      return 1;
    }
    if (strcasecmp(s, no[i]) == 0) {
      *value = 0;
      return 1;
    }
  }
  return 0;
}

/* Position of name in "a|b|c", or -1. */
static int find_choice(const char *choices, const char *name)
{
  size_t n = strlen(name);
  int pos = 0;
  const char *p = choices;
  for (;;) {
    const char *bar = strchr(p, '|');
    size_t len = bar ? (size_t)(bar - p) : strlen(p);
    if (len == n && strncmp(p, name, n) == 0)
      return pos;
    if (!bar)
      return -1;
    p = bar + 1;
    pos++;
  }
}

/* The n-th alternative of "a|b|c", copied. */
static char *choice_name(const char *choices, int n)
{
  const char *p = choices;
  for (int i = 0; i < n; i++)
    p = strchr(p, '|') + 1;
  const char *bar = strchr(p, '|');
  return dup_range(p, bar ? (size_t)(bar - p) : strlen(p));
}

static void trim(const char **begin, const char **end)
{
  while (*begin < *end && (**begin == ' ' || **begin == '\t'))
    (*begin)++;
  while (*end > *begin && ((*end)[-1] == ' ' || (*end)[-1] == '\t' || (*end)[-1] == '\r' ||
                           (*end)[-1] == '\n'))
    (*end)--;
}

/* Parses text as a value of key k into out (out->s is allocated for STRING
 * and CHOICE). Returns 0, or -1 with the reason (no prefix) in why. */
static int parse_value(const deck_key *k, const char *text, deck_value *out, char *why,
                       size_t whylen)
{
  const char *b = text, *e = text + strlen(text);
  char range[100];
  memset(out, 0, sizeof *out);
  if (k->kind != DECK_STRING)
    trim(&b, &e);
  size_t n = (size_t)(e - b);
  char *t = dup_range(b, n);
  if (t == NULL) {
    msg(why, whylen, "out of memory");
    return -1;
  }
  int rc = -1;
  switch (k->kind) {
  case DECK_INT: {
    if (n == 0) {
      msg(why, whylen, "empty value (expected an integer)");
      break;
    }
    char *end;
    errno = 0;
    long long v = strtoll(t, &end, 10);
    if (end == t || *end != '\0') {
      msg(why, whylen, "bad integer '%s'", t);
      break;
    }
    if (errno == ERANGE || v > INT_MAX || v < INT_MIN) {
      msg(why, whylen, "integer '%s' overflows an int", t);
      break;
    }
    if (has_range(k) && ((double)v < k->min || (double)v > k->max)) {
      format_range(k, range, sizeof range);
      msg(why, whylen, "value %lld out of range %s", v, range);
      break;
    }
    out->i = v;
    rc = 0;
    break;
  }
  case DECK_REAL: {
    if (n == 0) {
      msg(why, whylen, "empty value (expected a real number)");
      break;
    }
    /* The suite's one number syntax (op_number.h): decimal, finite, zero or
     * a normal double. */
    double v = 0.0;
    const op_number_status st = op_number_parse(t, n, &v);
    if (st == OP_NUMBER_SYNTAX) {
      msg(why, whylen, "bad real number '%s'", t);
      break;
    }
    if (st == OP_NUMBER_NOT_FINITE) {
      msg(why, whylen, "'%s' is not a finite number", t);
      break;
    }
    if (st != OP_NUMBER_OK) {
      msg(why, whylen, "real number '%s' %s", t,
          st == OP_NUMBER_OVERFLOW ? "overflows a double" : "underflows a double");
      break;
    }
    if (has_range(k) && (v < k->min || v > k->max)) {
      format_range(k, range, sizeof range);
      char shown[40];
      format_real(v, shown, sizeof shown);
      msg(why, whylen, "value %s out of range %s", shown, range);
      break;
    }
    out->r = v;
    rc = 0;
    break;
  }
  case DECK_BOOL:
    if (!is_bool_word(t, &out->b)) {
      msg(why, whylen, "bad boolean '%s' (expected true/false, yes/no, on/off or 1/0)", t);
      break;
    }
    rc = 0;
    break;
  case DECK_CHOICE: {
    int c = find_choice(k->choices, t);
    if (c < 0) {
      msg(why, whylen, "unknown choice '%s' (choices: %s)", t, k->choices);
      break;
    }
    out->choice = c;
    out->s = choice_name(k->choices, c);
    if (out->s == NULL) {
      msg(why, whylen, "out of memory");
      break;
    }
    rc = 0;
    break;
  }
  case DECK_STRING:
    out->s = t;
    return 0;
  default:
    msg(why, whylen, "key kind %d is not a deck_kind", (int)k->kind);
    break;
  }
  free(t);
  return rc;
}

/* Sets key idx from text; errors start with prefix. */
static int set_index(deck *d, int idx, const char *text, const char *origin, const char *prefix,
                     char *err, size_t errlen)
{
  char why[512];
  deck_value nv;
  if (parse_value(&d->table[idx], text, &nv, why, sizeof why) != 0) {
    msg(err, errlen, "%s: key '%s': %s", prefix, d->table[idx].key, why);
    return -1;
  }
  nv.origin = dup_string(origin);
  if (nv.origin == NULL) {
    free(nv.s);
    msg(err, errlen, "%s: key '%s': out of memory", prefix, d->table[idx].key);
    return -1;
  }
  free(d->v[idx].s);
  free(d->v[idx].origin);
  d->v[idx] = nv;
  return 0;
}

/* ---- life cycle ------------------------------------------------------- */

static int valid_key_name(const char *s)
{
  if (s == NULL || *s == '\0')
    return 0;
  for (const char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          *p == '_' || *p == '.' || *p == '-'))
      return 0;
  return *s != '-';
}

static int check_table_entry(const deck *d, int i, char *why, size_t whylen)
{
  const deck_key *k = &d->table[i];
  if (!valid_key_name(k->key)) {
    msg(why, whylen, "entry %d: key '%s' is not a name (letters, digits, '_', '.', '-')", i,
        k->key ? k->key : "(null)");
    return -1;
  }
  if (strcmp(k->key, "deck") == 0 || strcmp(k->key, "help") == 0) {
    msg(why, whylen, "key '%s' is reserved for the command line", k->key);
    return -1;
  }
  for (int j = 0; j < i; j++)
    if (strcmp(d->table[j].key, k->key) == 0) {
      msg(why, whylen, "key '%s' appears twice in the table", k->key);
      return -1;
    }
  if (k->kind < DECK_INT || k->kind > DECK_CHOICE) {
    msg(why, whylen, "key '%s': kind %d is not a deck_kind", k->key, (int)k->kind);
    return -1;
  }
  if (k->help == NULL || k->help[0] == '\0') {
    msg(why, whylen, "key '%s' has no help text", k->key);
    return -1;
  }
  if (k->default_value == NULL) {
    msg(why, whylen, "key '%s' has no default", k->key);
    return -1;
  }
  if (has_range(k) && (isnan(k->min) || isnan(k->max) || k->min > k->max)) {
    msg(why, whylen, "key '%s': empty range [%g, %g]", k->key, k->min, k->max);
    return -1;
  }
  if (k->kind != DECK_STRING && is_input_file(k)) {
    msg(why, whylen, "key '%s': DECK_INPUT_FILE on a key that is not a DECK_STRING", k->key);
    return -1;
  }
  if (k->kind == DECK_CHOICE) {
    const char *c = k->choices;
    if (c == NULL || *c == '\0' || *c == '|' || c[strlen(c) - 1] == '|' || strstr(c, "||")) {
      msg(why, whylen, "key '%s': choices '%s' are not of the form \"a|b|c\"", k->key,
          c ? c : "(null)");
      return -1;
    }
  }
  return 0;
}

deck *deck_new(const char *solver, const deck_key *table, int nkeys)
{
  if (solver == NULL || nkeys < 0 || (nkeys > 0 && table == NULL)) {
    fprintf(stderr, "%s:%d: %s: bad arguments (solver %s, %d keys)\n", SRC_FILE, __LINE__,
            __func__, solver ? solver : "(null)", nkeys);
    return NULL;
  }
  deck *d = calloc(1, sizeof *d);
  if (d == NULL) {
    fprintf(stderr, "%s:%d: %s: %s: out of memory\n", SRC_FILE, __LINE__, __func__, solver);
    return NULL;
  }
  d->table = table;
  d->nkeys = nkeys;
  d->solver = dup_string(solver);
  d->v = calloc((size_t)(nkeys > 0 ? nkeys : 1), sizeof *d->v);
  if (d->solver == NULL || d->v == NULL) {
    fprintf(stderr, "%s:%d: %s: %s: out of memory\n", SRC_FILE, __LINE__, __func__, solver);
    deck_free(d);
    return NULL;
  }
  for (int i = 0; i < nkeys; i++) {
    char why[600];
    if (check_table_entry(d, i, why, sizeof why) != 0 ||
        set_index(d, i, table[i].default_value, "default", "default", why, sizeof why) != 0) {
      fprintf(stderr, "%s:%d: %s: bad key table of %s: %s\n", SRC_FILE, __LINE__, __func__,
              solver, why);
      deck_free(d);
      return NULL;
    }
  }
  return d;
}

void deck_free(deck *d)
{
  if (d == NULL)
    return;
  if (d->v != NULL)
    for (int i = 0; i < d->nkeys; i++) {
      free(d->v[i].s);
      free(d->v[i].origin);
    }
  free(d->v);
  free(d->solver);
  free(d->path);
  free(d);
}

/* ---- setting values --------------------------------------------------- */

int deck_set(deck *d, const char *key, const char *value, const char *origin, char *err,
             size_t errlen)
{
  int idx = find_key(d, key);
  if (idx < 0) {
    unknown_key(d, origin, key, err, errlen);
    return -1;
  }
  return set_index(d, idx, value, origin, origin, err, errlen);
}

/* A value in quotes, starting at v (the opening quote) and ending before
 * end: in double quotes \" and \\ stand for " and \ (any other backslash is
 * kept, so Windows-style paths need no doubling); single quotes take the text
 * literally. After the closing quote only blanks may follow, and a comment
 * when comments are allowed (a deck line, not a command-line argument).
 * Returns 0 with the allocated value in *value, or -1 with the message. */
static int quoted_value(const char *v, const char *end, int comments, char **value,
                        const char *where, const char *key, char *err, size_t errlen)
{
  char quote = *v++;
  char *out = malloc((size_t)(end - v) + 1);
  if (out == NULL) {
    msg(err, errlen, "%s: out of memory", where);
    return -1;
  }
  size_t n = 0;
  while (v < end && *v != quote) {
    if (quote == '"' && *v == '\\' && v + 1 < end && (v[1] == '"' || v[1] == '\\'))
      v++;
    out[n++] = *v++;
  }
  out[n] = '\0';
  if (v == end) {
    msg(err, errlen, "%s: key '%s': unterminated quoted value", where, key);
    free(out);
    return -1;
  }
  v++;
  while (v < end && (*v == ' ' || *v == '\t'))
    v++;
  if (v < end && !(comments && *v == '#')) {
    msg(err, errlen, "%s: key '%s': unexpected text after the closing quote: '%.*s'", where,
        key, (int)(end - v), v);
    free(out);
    return -1;
  }
  *value = out;
  return 0;
}

/* Splits one deck line into key and value (both allocated).
 * Returns 1 for a key/value line, 0 for a blank or comment line, -1 on error. */
static int split_line(const deck *d, const char *line, const char *where, char **key,
                      char **value, char *err, size_t errlen)
{
  const char *p = line;
  while (*p == ' ' || *p == '\t')
    p++;
  const char *end = p + strlen(p);
  trim(&p, &end);
  if (p == end || *p == '#')
    return 0;

  const char *eq = p;
  while (eq < end && *eq != '=' && *eq != '#')
    eq++;
  if (eq == end || *eq == '#') {
    /* No '=': name the key when the line starts with one. */
    const char *w = p;
    while (w < eq && *w != ' ' && *w != '\t')
      w++;
    char *first = dup_range(p, (size_t)(w - p));
    const char *stop = eq;
    trim(&p, &stop);
    if (first != NULL && find_key(d, first) >= 0)
      msg(err, errlen, "%s: key '%s': missing '=' (expected '%s = value')", where, first, first);
    else
      msg(err, errlen, "%s: expected 'key = value', found '%.*s'", where, (int)(stop - p), p);
    free(first);
    return -1;
  }
  const char *kb = p, *ke = eq;
  trim(&kb, &ke);
  if (kb == ke) {
    msg(err, errlen, "%s: missing key before '='", where);
    return -1;
  }
  *key = dup_range(kb, (size_t)(ke - kb));
  if (*key == NULL) {
    msg(err, errlen, "%s: out of memory", where);
    return -1;
  }

  const char *v = eq + 1;
  while (v < end && (*v == ' ' || *v == '\t'))
    v++;
  if (v < end && (*v == '"' || *v == '\'')) {
    int rc = quoted_value(v, end, 1, value, where, *key, err, errlen);
    if (rc != 0)
      free(*key);
    return rc == 0 ? 1 : -1;
  }
  const char *ve = v;
  while (ve < end && *ve != '#')
    ve++;
  trim(&v, &ve);
  if (v == ve) {
    msg(err, errlen, "%s: key '%s': missing value (write \"\" for an empty string)", where, *key);
    free(*key);
    return -1;
  }
  *value = dup_range(v, (size_t)(ve - v));
  if (*value == NULL) {
    msg(err, errlen, "%s: out of memory", where);
    free(*key);
    return -1;
  }
  return 1;
}

/* A deck is a short text file: a line longer than this, or a file larger,
 * is not a deck (/dev/zero, a binary, a mesh given by mistake). */
#define DECK_MAX_LINE 16384
#define DECK_MAX_BYTES (1u << 20)

int deck_read_file(deck *d, const char *path, char *err, size_t errlen)
{
  op_text_reader r;
  if (op_text_open(&r, path, "deck", DECK_MAX_LINE, DECK_MAX_BYTES, err, errlen) != 0)
    return -1;
  int *set_at = calloc((size_t)(d->nkeys > 0 ? d->nkeys : 1), sizeof *set_at);
  char *path_copy = dup_string(path);
  if (set_at == NULL || path_copy == NULL) {
    msg(err, errlen, "%s: out of memory", r.shown);
    free(set_at);
    free(path_copy);
    op_text_close(&r);
    return -1;
  }
  int rc = 0, got;
  char *line;
  size_t len;
  while ((got = op_text_next(&r, &line, &len, err, errlen)) == 1) {
    char where[OP_TEXT_SHOWN + 32];
    snprintf(where, sizeof where, "%s:%ld", r.shown, r.line);
    char *key = NULL, *value = NULL;
    const char *text = line; /* op_text_next skips a byte-order mark */
    int kind = split_line(d, text, where, &key, &value, err, errlen);
    if (kind < 0) {
      rc = -1;
      break;
    }
    if (kind == 0)
      continue;
    int idx = find_key(d, key);
    if (idx < 0) {
      unknown_key(d, where, key, err, errlen);
      rc = -1;
    } else if (set_at[idx] != 0) {
      msg(err, errlen, "%s: duplicate key '%s' (first set at line %d)", where, key, set_at[idx]);
      rc = -1;
    } else {
      rc = set_index(d, idx, value, where, where, err, errlen);
      set_at[idx] = (int)r.line;
    }
    free(key);
    free(value);
    if (rc != 0)
      break;
  }
  if (got < 0)
    rc = -1; /* the reader's message is in err */
  free(set_at);
  op_text_close(&r);
  if (rc == 0) {
    free(d->path);
    d->path = path_copy;
  } else {
    free(path_copy);
  }
  return rc;
}

/* ---- the command line ------------------------------------------------- */

typedef struct {
  int arg;            /* position in argv */
  const char *key;    /* points into argv or is allocated (see owned) */
  const char *value;
  char *owned;        /* the allocated key, if any */
} override;

static void free_overrides(override *o, int n)
{
  for (int i = 0; i < n; i++)
    free(o[i].owned);
  free(o);
}

/* The input files a deck names, taken from the deck's own folder where they
 * are there (DECK_INPUT_FILE in deck.h): only values written in the deck
 * file, relative and not empty; the value becomes the path joined to the
 * deck's folder, so that what the run prints and reads is that file. */
static int resolve_input_files(deck *d, char *err, size_t errlen)
{
  if (d->path == NULL)
    return 0;
  const char *slash = strrchr(d->path, '/');
  if (slash == NULL)
    return 0; /* the deck is in the current folder: nothing to join */
  size_t dirlen = (size_t)(slash - d->path);
  for (int i = 0; i < d->nkeys; i++) {
    const deck_key *k = &d->table[i];
    deck_value *v = &d->v[i];
    if (k->kind != DECK_STRING || !is_input_file(k) || v->s == NULL ||
        v->s[0] == '\0' || v->s[0] == '/' || v->origin == NULL ||
        strncmp(v->origin, "argument ", 9) == 0 || strcmp(v->origin, "default") == 0)
      continue;
    size_t n = dirlen + 1 + strlen(v->s) + 1;
    char *joined = malloc(n);
    if (joined == NULL) {
      msg(err, errlen, "%s: key '%s': out of memory", d->solver, k->key);
      return -1;
    }
    snprintf(joined, n, "%.*s/%s", (int)dirlen, d->path, v->s);
    struct stat st;
    if (stat(joined, &st) == 0) {
      free(v->s);
      v->s = joined;
    } else {
      free(joined);
    }
  }
  return 0;
}

int deck_parse_args(deck *d, int argc, char **argv, char *err, size_t errlen)
{
  const char *deck_file = NULL;
  int deck_arg = 0, help = 0, n = 0, rc = DECK_OK;
  override *o = calloc((size_t)(argc > 0 ? argc : 1), sizeof *o);
  if (o == NULL) {
    msg(err, errlen, "%s: command line: out of memory", d->solver);
    return DECK_ERROR;
  }
  for (int i = 1; i < argc && rc == DECK_OK; i++) {
    const char *a = argv[i];
    char where[64];
    snprintf(where, sizeof where, "argument %d", i);
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      help = help ? help : 1;
      continue;
    }
    if (strcmp(a, "--help-markdown") == 0) {
      help = 2;
      continue;
    }
    if (strcmp(a, "--version") == 0) {
      help = 3;
      continue;
    }
    const char *file = NULL;
    if (strcmp(a, "--deck") == 0) {
      if (i + 1 >= argc) {
        msg(err, errlen, "%s '--deck': needs a file name", where);
        rc = DECK_ERROR;
        break;
      }
      file = argv[++i];
    } else if (strncmp(a, "--deck=", 7) == 0) {
      file = a + 7;
    } else if (a[0] != '-' && strchr(a, '=') == NULL) {
      file = a;
    }
    if (file != NULL) {
      if (deck_file != NULL) {
        msg(err, errlen, "%s '%s': a second deck file (the first is '%s', argument %d)", where,
            file, deck_file, deck_arg);
        rc = DECK_ERROR;
      } else if (file[0] == '\0') {
        msg(err, errlen, "%s: empty deck file name", where);
        rc = DECK_ERROR;
      }
      deck_file = file;
      deck_arg = i;
      continue;
    }

    o[n].arg = i;
    if (a[0] != '-') { /* key=value */
      const char *eq = strchr(a, '=');
      o[n].owned = dup_range(a, (size_t)(eq - a));
      o[n].value = eq + 1;
    } else if (a[1] == '-' && a[2] != '\0') { /* --key=value, --key value, --flag */
      const char *name = a + 2;
      const char *eq = strchr(name, '=');
      if (eq != NULL) {
        o[n].owned = dup_range(name, (size_t)(eq - name));
        o[n].value = eq + 1;
      } else {
        o[n].key = name;
        int idx = find_key(d, name), b;
        if (idx < 0) {
          char prefix[128];
          snprintf(prefix, sizeof prefix, "%s '%.60s'", where, a);
          unknown_key(d, prefix, name, err, errlen);
          rc = DECK_ERROR;
          break;
        }
        if (d->table[idx].kind == DECK_BOOL &&
            (i + 1 >= argc || !is_bool_word(argv[i + 1], &b))) {
          o[n].value = "true";
        } else if (i + 1 >= argc) {
          msg(err, errlen, "%s '%s': key '%s': needs a value", where, a, name);
          rc = DECK_ERROR;
          break;
        } else {
          o[n].value = argv[++i];
        }
      }
    } else {
      msg(err, errlen, "%s '%s': unknown option (--help lists the keys)", where, a);
      rc = DECK_ERROR;
      break;
    }
    if (o[n].owned != NULL)
      o[n].key = o[n].owned;
    else if (o[n].key == NULL) {
      msg(err, errlen, "%s: out of memory", where);
      rc = DECK_ERROR;
      break;
    }
    n++;
  }

  if (rc == DECK_OK && help == 3) {
    solver_print_version(d->solver);
    rc = DECK_VERSION;
  } else if (rc == DECK_OK && help) {
    if (help == 2)
      deck_write_markdown(d->table, d->nkeys, d->solver, stdout);
    else
      deck_print_help(d->table, d->nkeys, d->solver, stdout);
    rc = DECK_HELP;
  }
  if (rc == DECK_OK && deck_file != NULL && deck_read_file(d, deck_file, err, errlen) != 0)
    rc = DECK_ERROR;
  for (int j = 0; j < n && rc == DECK_OK; j++) {
    char origin[64], prefix[256];
    const char *a = argv[o[j].arg];
    snprintf(origin, sizeof origin, "argument %d", o[j].arg);
    snprintf(prefix, sizeof prefix, "%s '%.180s'", origin, a);
    int idx = find_key(d, o[j].key);
    if (idx < 0) {
      unknown_key(d, prefix, o[j].key[0] ? o[j].key : "", err, errlen);
      rc = DECK_ERROR;
      break;
    }
    /* A value in quotes means what it means in a deck: output_dir='""' is the
     * empty string, not a directory named "". */
    const char *value = o[j].value;
    char *unquoted = NULL;
    if (value[0] == '"' || value[0] == '\'') {
      if (quoted_value(value, value + strlen(value), 0, &unquoted, prefix, o[j].key, err,
                       errlen) != 0) {
        rc = DECK_ERROR;
        break;
      }
      value = unquoted;
    }
    if (set_index(d, idx, value, origin, prefix, err, errlen) != 0)
      rc = DECK_ERROR;
    free(unquoted);
  }
  free_overrides(o, argc > 0 ? argc : 1);
  if (rc == DECK_OK && resolve_input_files(d, err, errlen) != 0)
    rc = DECK_ERROR;
  return rc;
}

/* ---- getters ---------------------------------------------------------- */

static int lookup(const deck *d, const char *key, deck_kind kind, int also_choice,
                  const char *func)
{
  int idx = find_key(d, key);
  if (idx < 0) {
    fprintf(stderr, "%s:%d: %s: %s has no key '%s'\n", SRC_FILE, __LINE__, func, d->solver, key);
    abort();
  }
  deck_kind k = d->table[idx].kind;
  if (k != kind && !(also_choice && k == DECK_CHOICE)) {
    fprintf(stderr, "%s:%d: %s: %s key '%s' is of kind %s, not %s\n", SRC_FILE, __LINE__, func,
            d->solver, key, kind_name(k), kind_name(kind));
    abort();
  }
  return idx;
}

int deck_int(const deck *d, const char *key)
{
  return (int)d->v[lookup(d, key, DECK_INT, 0, __func__)].i;
}

double deck_real(const deck *d, const char *key)
{
  return d->v[lookup(d, key, DECK_REAL, 0, __func__)].r;
}

const char *deck_string(const deck *d, const char *key)
{
  return d->v[lookup(d, key, DECK_STRING, 1, __func__)].s;
}

int deck_bool(const deck *d, const char *key)
{
  return d->v[lookup(d, key, DECK_BOOL, 0, __func__)].b;
}

int deck_choice(const deck *d, const char *key)
{
  return d->v[lookup(d, key, DECK_CHOICE, 0, __func__)].choice;
}

const char *deck_origin(const deck *d, const char *key)
{
  int idx = find_key(d, key);
  if (idx < 0) {
    fprintf(stderr, "%s:%d: %s: %s has no key '%s'\n", SRC_FILE, __LINE__, __func__, d->solver,
            key);
    abort();
  }
  return d->v[idx].origin;
}

const char *deck_path(const deck *d) { return d->path; }
const char *deck_solver(const deck *d) { return d->solver; }

/* ---- output ----------------------------------------------------------- */

/* The longest value the printout shows whole: a path as long as any file
 * system takes; a longer one (which a deck line could not hold either) keeps
 * its start and end, as in messages. */
#define PRINTED_VALUE_MAX 4200

/* A string value as deck text, for the printout: in double quotes, with " and
 * \ escaped, then made safe to print as every message is (a control byte or
 * a byte that is not UTF-8 becomes \xNN: the value may hold anything a
 * command line can). Allocated; NULL when out of memory. */
static char *quoted_shown(const char *s)
{
  size_t n = 3;
  for (const char *p = s; *p; p++)
    n += (*p == '"' || *p == '\\') ? 2 : 1;
  const size_t shown_len = 4 * n + 16 < PRINTED_VALUE_MAX ? 4 * n + 16 : PRINTED_VALUE_MAX;
  char *q = malloc(n);
  char *shown = malloc(shown_len);
  if (q == NULL || shown == NULL) {
    free(q);
    free(shown);
    return NULL;
  }
  size_t k = 0;
  q[k++] = '"';
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      q[k++] = '\\';
    q[k++] = *s;
  }
  q[k++] = '"';
  q[k] = '\0';
  op_text_shown(shown, shown_len, q);
  free(q);
  return shown;
}

/* The value of key i as deck text (strings quoted, made safe to print), or
 * NULL when out of memory. Allocated. */
static char *value_text(const deck *d, int i)
{
  const deck_value *v = &d->v[i];
  char buf[64];
  switch (d->table[i].kind) {
  case DECK_INT: snprintf(buf, sizeof buf, "%lld", v->i); break;
  case DECK_REAL: format_real(v->r, buf, sizeof buf); break;
  case DECK_BOOL: snprintf(buf, sizeof buf, "%s", v->b ? "true" : "false"); break;
  case DECK_CHOICE: snprintf(buf, sizeof buf, "%s", v->s); break;
  case DECK_STRING: return quoted_shown(v->s);
  }
  return dup_string(buf);
}

void deck_print(const deck *d, FILE *f)
{
  int wk = 0, wv = 0;
  char **text = calloc((size_t)(d->nkeys > 0 ? d->nkeys : 1), sizeof *text);
  if (text == NULL) {
    fprintf(stderr, "%s:%d: %s: %s: out of memory\n", SRC_FILE, __LINE__, __func__, d->solver);
    return;
  }
  for (int i = 0; i < d->nkeys; i++) {
    text[i] = value_text(d, i);
    int k = (int)strlen(d->table[i].key), v = text[i] ? (int)strlen(text[i]) : 0;
    wk = k > wk ? k : wk;
    wv = v > wv ? v : wv;
  }
  if (wv > 40)
    wv = 40; /* one long path should not push every comment off the screen */
  char shown[OP_TEXT_SHOWN];
  if (d->path)
    fprintf(f, "# %s parameters (deck %s)\n", d->solver,
            op_text_shown(shown, sizeof shown, d->path));
  else
    fprintf(f, "# %s parameters (no deck: defaults and command line)\n", d->solver);
  for (int i = 0; i < d->nkeys; i++) {
    const char *t = text[i] ? text[i] : "(out of memory)";
    int v = (int)strlen(t);
    fprintf(f, "%-*s = %s%*s  # %s\n", wk, d->table[i].key, t, v < wv ? wv - v : 0, "",
            op_text_shown(shown, sizeof shown, d->v[i].origin));
    free(text[i]);
  }
  free(text);
  fflush(f); /* before any message the run prints on stderr */
}

void deck_json_value(const deck *d, json_writer *w)
{
  json_begin_object(w);
  for (int i = 0; i < d->nkeys; i++) {
    json_key(w, d->table[i].key);
    switch (d->table[i].kind) {
    case DECK_INT: json_int(w, d->v[i].i); break;
    case DECK_REAL: json_number(w, d->v[i].r); break;
    case DECK_BOOL: json_bool(w, d->v[i].b); break;
    case DECK_STRING:
    case DECK_CHOICE: json_string(w, d->v[i].s); break;
    }
  }
  json_end_object(w);
}

void deck_json(const deck *d, FILE *f)
{
  json_writer w;
  json_init(&w, f, 1);
  deck_json_value(d, &w);
  if (json_finish(&w) != 0)
    fprintf(stderr, "%s:%d: %s: writing the parameters of %s as JSON failed\n", SRC_FILE,
            __LINE__, __func__, d->solver);
}

/* What a key accepts, for --help and the docs. */
static void allowed_text(const deck_key *k, char *buf, size_t len)
{
  switch (k->kind) {
  case DECK_INT:
  case DECK_REAL: format_range(k, buf, len); break;
  case DECK_BOOL: snprintf(buf, len, "true|false"); break;
  case DECK_CHOICE: snprintf(buf, len, "%s", k->choices); break;
  case DECK_STRING: snprintf(buf, len, "text"); break;
  }
}

void deck_print_help(const deck_key *table, int nkeys, const char *solver, FILE *f)
{
  int wk = 3, wt = 4, wd = 7, wa = 7;
  char allowed[256];
  for (int i = 0; i < nkeys; i++) {
    allowed_text(&table[i], allowed, sizeof allowed);
    int lk = (int)strlen(table[i].key), lt = (int)strlen(kind_name(table[i].kind));
    int ld = (int)strlen(table[i].default_value) + (table[i].kind == DECK_STRING ? 2 : 0);
    int la = (int)strlen(allowed);
    wk = lk > wk ? lk : wk;
    wt = lt > wt ? lt : wt;
    wd = ld > wd ? ld : wd;
    wa = la > wa ? la : wa;
  }
  fprintf(f,
          "usage: %s [DECK | --deck DECK] [key=value ...] [--key value ...] [--help] [--version]\n"
          "\n"
          "The deck file holds 'key = value' lines; '#' starts a comment. Values on the\n"
          "command line override the deck. Keys:\n\n",
          solver);
  fprintf(f, "  %-*s  %-*s  %-*s  %-*s  %s\n", wk, "key", wt, "type", wd, "default", wa,
          "allowed", "meaning");
  for (int i = 0; i < nkeys; i++) {
    char def[256];
    allowed_text(&table[i], allowed, sizeof allowed);
    if (table[i].kind == DECK_STRING)
      snprintf(def, sizeof def, "\"%s\"", table[i].default_value);
    else
      snprintf(def, sizeof def, "%s", table[i].default_value);
    fprintf(f, "  %-*s  %-*s  %-*s  %-*s  %s\n", wk, table[i].key, wt, kind_name(table[i].kind),
            wd, def, wa, allowed, table[i].help);
  }
}

/* Writes s with the characters Markdown tables treat specially escaped. */
static void md_text(FILE *f, const char *s)
{
  for (; *s; s++) {
    if (*s == '|' || *s == '*' || *s == '_' || *s == '`' || *s == '<' || *s == '[')
      fputc('\\', f);
    fputc(*s, f);
  }
}

/* A code span in a Markdown table: only '|' needs escaping there. */
static void md_code(FILE *f, const char *prefix, const char *s, const char *suffix)
{
  fputc('`', f);
  fputs(prefix, f);
  for (; *s; s++) {
    if (*s == '|')
      fputc('\\', f);
    fputc(*s, f);
  }
  fputs(suffix, f);
  fputc('`', f);
}

void deck_write_markdown(const deck_key *table, int nkeys, const char *solver, FILE *f)
{
  fprintf(f, "### %s\n\n", solver);
  fputs("| key | type | default | allowed | meaning |\n", f);
  fputs("|---|---|---|---|---|\n", f);
  for (int i = 0; i < nkeys; i++) {
    const deck_key *k = &table[i];
    fputs("| ", f);
    md_code(f, "", k->key, "");
    fprintf(f, " | %s | ", kind_name(k->kind));
    if (k->kind == DECK_STRING)
      md_code(f, "\"", k->default_value, "\"");
    else
      md_code(f, "", k->default_value, "");
    fputs(" | ", f);
    if (k->kind == DECK_CHOICE) {
      const char *p = k->choices;
      for (;;) {
        const char *bar = strchr(p, '|');
        int len = bar ? (int)(bar - p) : (int)strlen(p);
        fprintf(f, "`%.*s`", len, p);
        if (!bar)
          break;
        fputs(", ", f);
        p = bar + 1;
      }
    } else if (k->kind == DECK_BOOL) {
      fputs("`true`, `false`", f);
    } else if (has_range(k)) {
      char range[100];
      format_range(k, range, sizeof range);
      fprintf(f, "`%s`", range);
    } else {
      fputs(k->kind == DECK_STRING ? "text" : "any", f);
    }
    fputs(" | ", f);
    md_text(f, k->help);
    fputs(" |\n", f);
  }
  fputc('\n', f);
}
