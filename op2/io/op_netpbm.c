/*
 * op_netpbm.c - libnetpbm's error path made an error code (op_netpbm.h): the
 * one place that registers a jmp_buf and a message hook with libnetpbm.
 */
#include "op_netpbm.h"

#include <pam.h>
#include <setjmp.h>
#include <stdio.h>

char op_pm_msg[512];

/* pm_setusererrormsgfn hook: keeps the message in op_pm_msg. */
static void capture(const char *msg) { snprintf(op_pm_msg, sizeof op_pm_msg, "%s", msg); }

/* pm_init once; clears op_pm_msg. */
static void setup(void) {
  static int done = 0;
  if (!done) {
    pm_init("op2-io", 0); /* libnetpbm 10.x/11 wants pm_init before any other call */
    done = 1;
  }
  op_pm_msg[0] = '\0';
}

/* The jmp_buf and message hook in place before op_pm_guarded. */
static void restore(jmp_buf *old) {
  pm_setjmpbuf(old);
  pm_setusererrormsgfn(NULL);
}

int op_pm_guarded(void (*body)(void *arg), void *arg) {
  jmp_buf jb;
  jmp_buf *old = NULL;
  setup();
  pm_setjmpbufsave(&jb, &old);
  pm_setusererrormsgfn(capture);
  /* No local of this frame changes after setjmp: body keeps its state in
   * *arg, in the caller's frame, which a longjmp back here leaves intact. */
  if (setjmp(jb) == 0) {
    body(arg);
    restore(old);
    return 0;
  }
  restore(old);
  if (!op_pm_msg[0]) snprintf(op_pm_msg, sizeof op_pm_msg, "libnetpbm failed");
  return -1;
}
