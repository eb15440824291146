/*
 * op_netpbm.h - private: the libnetpbm set-up shared by op_image.c (PPM
 * writing, the font) and op_ppm.c (reading). libnetpbm reports errors with
 * pm_error(), which exits unless a jmp_buf is registered: every call into it
 * runs through op_pm_guarded, under our own jmp_buf (pm_setjmpbufsave) with
 * the message kept, so that a failure becomes an error code and a message.
 */
#ifndef OP_NETPBM_H
#define OP_NETPBM_H

/* The last message libnetpbm reported (empty when op_pm_guarded began). */
extern char op_pm_msg[512];

/* Runs body(arg) with libnetpbm set up (pm_init once) and its errors caught:
 * a pm_error inside ends body there and comes back here. Returns 0 when body
 * returned, -1 when libnetpbm failed (op_pm_msg then says why, never empty).
 * body keeps what it allocates in *arg, for the caller to free on -1; the
 * previous jmp_buf and message hook are restored either way. */
int op_pm_guarded(void (*body)(void *arg), void *arg);

#endif
