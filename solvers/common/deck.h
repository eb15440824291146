/*
 * deck.h - the input-deck parser shared by every solver.
 *
 * A solver describes its parameters once, in a static table:
 *
 *   static const deck_key keys[] = {
 *     {"steps",   DECK_INT,    "100",  1, 1e9, NULL,         "time steps to run"},
 *     {"cfl",     DECK_REAL,   "0.9",  0, 1,   NULL,         "Courant number"},
 *     {"limiter", DECK_CHOICE, "minbee", 0, 0, "none|minbee|superbee", "slope limiter"},
 *     {"output",  DECK_STRING, "outputs/euler", 0, 0, NULL,  "output directory"},
 *     {"ppm",     DECK_BOOL,   "yes",  0, 0,   NULL,         "write PPM images"},
 *   };
 *
 * and the same table gives the defaults, the checks, --help and the reference
 * tables in docs/ (deck_write_markdown). A deck file holds `key = value`
 * lines; `#` starts a comment (outside quotes); blank lines are ignored.
 * Every mistake is an error that names FILE:LINE (or the command-line
 * argument) and the key: unknown keys (with the closest known key suggested),
 * duplicates within one file, bad numbers, out-of-range values and unknown
 * choices. Values given on the command line override the deck file.
 */
#ifndef SOLVER_COMMON_DECK_H
#define SOLVER_COMMON_DECK_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { DECK_INT, DECK_REAL, DECK_STRING, DECK_BOOL, DECK_CHOICE } deck_kind;

/* A DECK_STRING key whose value names a file the run reads (a mesh, a
 * matrix, a checkpoint to restart from) says so with DECK_INPUT_FILE in its
 * choices field: a relative path written in a deck file is then taken from
 * the deck's own folder when the file is there, else from the current folder
 * (a value given on the command line, or the default, from the current folder
 * only), so that a deck and the files it names travel together
 * (docs/input-decks.md, "Paths in a deck"). */
#define DECK_INPUT_FILE "<input file>"

/* One parameter. min/max bound DECK_INT and DECK_REAL values (inclusive);
 * min == max == 0 means "no bounds"; use -INFINITY or INFINITY (math.h) for
 * a one-sided range. choices lists a DECK_CHOICE's values as "a|b|c".
 * DECK_BOOL accepts true/false, yes/no, on/off, 1/0 (any case).
 * Every key needs a default (a STRING default may be ""). */
typedef struct {
  const char *key;
  deck_kind kind;
  const char *default_value;
  double min, max;
  const char *choices;
  const char *help;
} deck_key;

typedef struct deck deck;

/* deck_parse_args returns DECK_OK to go on, DECK_HELP after printing --help
 * (the caller adds its own options and exits 0), DECK_VERSION after printing
 * --version (the caller exits 0), or DECK_ERROR with the message in err. */
enum { DECK_ERROR = -1, DECK_OK = 0, DECK_HELP = 1, DECK_VERSION = 2 };

/* Checks the table (unique keys, parsable in-range defaults, choices given)
 * and returns a deck holding the defaults. A bad table is a programming error:
 * the message goes to stderr and NULL comes back, as it does when out of
 * memory. The table must outlive the deck. */
deck *deck_new(const char *solver, const deck_key *table, int nkeys);
void deck_free(deck *d);

/* Reads a deck file; later files and deck_set override earlier values.
 * Returns 0, or -1 with "FILE:LINE: ..." in err (the first error only). */
int deck_read_file(deck *d, const char *path, char *err, size_t errlen);

/* Sets one key from text. origin says where the text came from ("FILE:LINE",
 * "argument 3") and starts any error message. Returns 0 or -1. */
int deck_set(deck *d, const char *key, const char *value, const char *origin,
             char *err, size_t errlen);

/* Handles a solver's command line (argv[0] is skipped):
 *   DECK | --deck DECK | --deck=DECK   the deck file (at most one)
 *   key=value | --key value | --key=value   overrides (the last one wins)
 *   --key                              for a DECK_BOOL key: sets it true
 *   -h | --help                        prints the key table to stdout
 *   --help-markdown                    prints deck_write_markdown's table
 *   --version                          prints the build (build_info.h)
 * The deck file is read first, whatever its position; the overrides are
 * applied after it, in order. */
int deck_parse_args(deck *d, int argc, char **argv, char *err, size_t errlen);

/* Getters. Asking for a key that is not in the table, or with the wrong
 * kind, is a programming error: the message goes to stderr and abort().
 * deck_string serves DECK_STRING and DECK_CHOICE keys; deck_choice returns the
 * position of a DECK_CHOICE's value in its choices list. */
int deck_int(const deck *d, const char *key);
double deck_real(const deck *d, const char *key);
const char *deck_string(const deck *d, const char *key);
int deck_bool(const deck *d, const char *key);
int deck_choice(const deck *d, const char *key);

/* "default", "FILE:LINE" or "argument N" for the key's current value. */
const char *deck_origin(const deck *d, const char *key);
/* The deck file read by deck_read_file/deck_parse_args, or NULL. */
const char *deck_path(const deck *d);
const char *deck_solver(const deck *d);

/* The effective parameters as a valid deck, each line with its origin as a
 * comment; what a value or origin holds is shown as messages show it
 * (op_text_shown: control bytes as \xNN, a value over about 4 KB shortened),
 * so such a value does not read back. Flushes f. */
void deck_print(const deck *d, FILE *f);

/* The effective parameters as one JSON object {"key": value, ...}: numbers
 * for INT/REAL, true/false for BOOL, strings otherwise. */
void deck_json(const deck *d, FILE *f);
struct json_writer;
/* The same object written as the next value of an open JSON writer. */
void deck_json_value(const deck *d, struct json_writer *w);

/* The --help text, and the reference table in Markdown for docs/. */
void deck_print_help(const deck_key *table, int nkeys, const char *solver, FILE *f);
void deck_write_markdown(const deck_key *table, int nkeys, const char *solver, FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* SOLVER_COMMON_DECK_H */
