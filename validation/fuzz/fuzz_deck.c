/*
 * fuzz_deck - the input-deck parser on arbitrary bytes: as a deck file, and
 * split at NUL bytes into command-line arguments. Whatever comes in, the
 * parser returns OK or an error whose message is printable, within bounds.
 */
#include <math.h>

#include "deck.h"
#include "fuzz_util.h"

static const deck_key keys[] = {
    {"steps", DECK_INT, "100", 1, 1e9, NULL, "steps"},
    {"cfl", DECK_REAL, "0.9", 0, 1, NULL, "Courant number"},
    {"gamma", DECK_REAL, "1.4", 1, INFINITY, NULL, "ratio of specific heats"},
    {"shift", DECK_REAL, "0", 0, 0, NULL, "unbounded"},
    {"output_dir", DECK_STRING, "outputs/fuzz", 0, 0, NULL, "output directory"},
    {"limiter", DECK_CHOICE, "minbee", 0, 0, "none|minbee|vanleer|superbee", "limiter"},
    {"ppm", DECK_BOOL, "yes", 0, 0, NULL, "images"},
};
enum { NKEYS = (int)(sizeof keys / sizeof keys[0]) };

static void check_message(const char *err, size_t len) {
  size_t n = strnlen(err, len);
  if (n >= len) abort(); /* not terminated */
  for (size_t k = 0; k < n; k++) {
    unsigned char c = (unsigned char)err[k];
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) abort(); /* raw control byte */
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[1024];
  deck *d = deck_new("fuzz", keys, NKEYS);
  if (!d) abort();
  err[0] = '\0';
  if (deck_read_file(d, fuzz_file(data, size, ".in"), err, sizeof err) != 0)
    check_message(err, sizeof err);
  deck_free(d);

  /* The same bytes as arguments: argv[1..] split at NUL bytes. */
  char *copy = malloc(size + 1);
  char *argv[66];
  int argc = 1;
  argv[0] = (char *)"fuzz";
  memcpy(copy, data, size);
  copy[size] = '\0';
  for (size_t k = 0; k <= size && argc < 65;) {
    argv[argc++] = copy + k;
    k += strlen(copy + k) + 1;
  }
  argv[argc] = NULL;
  d = deck_new("fuzz", keys, NKEYS);
  err[0] = '\0';
  static int quiet;
  if (!quiet) { /* --help prints the table */
    FILE *out = freopen("/dev/null", "w", stdout);
    (void)out;
    quiet = 1;
  }
  int rc = deck_parse_args(d, argc, argv, err, sizeof err);
  if (rc == DECK_ERROR) check_message(err, sizeof err);
  if (rc == DECK_OK) { /* every value within its range */
    if (deck_int(d, "steps") < 1 || !(deck_real(d, "cfl") >= 0 && deck_real(d, "cfl") <= 1) ||
        !isfinite(deck_real(d, "shift")))
      abort();
    (void)deck_string(d, "output_dir");
  }
  deck_free(d);
  free(copy);
  return 0;
}
