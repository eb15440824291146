/*
 * op_at_exit.c - the list of teardowns op_exit runs (op_at_exit.h). A
 * fixed table: joining happens where modules allocate, and must not itself
 * allocate what op_exit would then have to free.
 */
#include <stddef.h>

#include "op2_error.h"
#include "op_at_exit.h"

static struct {
  op_teardown_fn fn;
  const char *name;
} joined[OP_AT_EXIT_MAX];
static int njoined;

void op_at_exit(op_teardown_fn fn, const char *name) {
  OP_CHECK(fn && name, "op_at_exit: a teardown needs a function and a name");
  for (int i = 0; i < njoined; i++)
    if (joined[i].fn == fn) return;
  OP_CHECK(njoined < OP_AT_EXIT_MAX,
           "op_at_exit(\"%s\"): more than %d modules to tear down at op_exit (raise "
           "OP_AT_EXIT_MAX in op_at_exit.h)",
           name, OP_AT_EXIT_MAX);
  joined[njoined].fn = fn;
  joined[njoined].name = name;
  njoined++;
}

void op_at_exit_run(void) {
  /* Taken off before it runs: a teardown that joins again (or joins another
   * module) is appended and run next, and never twice from one entry. */
  while (njoined > 0) {
    njoined--;
    const op_teardown_fn fn = joined[njoined].fn;
    joined[njoined].fn = NULL;
    joined[njoined].name = NULL;
    fn();
  }
}

int op_at_exit_count(void) { return njoined; }

const char *op_at_exit_name(int i) { return i >= 0 && i < njoined ? joined[i].name : NULL; }
