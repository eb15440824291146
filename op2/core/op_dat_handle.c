/*
 * op_dat_handle.c - a dat's handle after the dat is gone. An op_dat is a
 * pointer the application keeps: after op_free_dat_temp, or after op_exit,
 * it may still pass it to op_fetch_data or to a loop. Freeing the record
 * behind the pointer would make such a call read freed memory (and, once
 * the address is reused by a new dat, silently read another dat's rows).
 * So the record stays, with its name, as a tombstone: its rows, device copy
 * and type name are freed, `freed` says why it is dead, and every call that
 * takes a dat asks op_dat_require_live first, which stops the program
 * naming the dat. The tombstones (a few dozen bytes and the name each) are
 * freed when the process exits, after anything the application can still
 * call: they must outlive op_exit, so they cannot join op_exit's teardown.
 */
#include <stdlib.h>

#include "op2.h"
#include "op2_error.h"
#include "op_dat_handle.h"
#include "op_state.h"

static op_dat *tombs;
static size_t ntombs, cap_tombs;

static void tombs_free(void) {
  for (size_t i = 0; i < ntombs; i++) {
    free(tombs[i]);
  }
  free(tombs);
  tombs = NULL;
  ntombs = cap_tombs = 0;
}

void op_dat_retire(op_dat dat, int why) {
  if (!cap_tombs && atexit(tombs_free) != 0)
    op_warn("cannot register the release of freed dats' names at exit: they stay until then");
  if (ntombs == cap_tombs) {
    cap_tombs = cap_tombs ? 2 * cap_tombs : 16;
    tombs = op_realloc(tombs, sizeof(*tombs) * cap_tombs);
  }
  if (!dat->user_owned) free(dat->data);
  free(dat->type_name);
  dat->data = NULL;
  dat->data_d = NULL;
  dat->type_name = NULL;
  dat->set = NULL; /* the set itself may be gone (op_exit) */
  dat->freed = why;
  tombs[ntombs++] = dat;
}

void op_dat_require_live(op_dat dat, const char *call) {
  OP_CHECK(dat, "%s: dat is NULL", call);
  if (dat->freed == OP_DAT_FREED_TEMP)
    op_fatal("%s: dat \"%s\" was freed by op_free_dat_temp; declare it again to use it", call,
             dat->name);
  if (dat->freed)
    op_fatal("%s: dat \"%s\" is used after op_exit, which freed every dat", call, dat->name);
}
