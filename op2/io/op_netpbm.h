/*
 * op_netpbm.h - private: the libnetpbm set-up shared by op_image.c (PPM
 * writing, the font) and op_ppm.c (reading). libnetpbm reports errors with
 * pm_error(), which exits unless a jmp_buf is registered: every call into it
 * runs under our own jmp_buf (pm_setjmpbufsave) with op_pm_capture as the
 * message hook, so that a failure becomes an error code and a message.
 */
#ifndef OP_NETPBM_H
#define OP_NETPBM_H

/* The last message libnetpbm reported (after op_pm_setup: empty). */
extern char op_pm_msg[512];

/* pm_init once; clears op_pm_msg. */
void op_pm_setup(void);
/* pm_setusererrormsgfn hook: keeps the message in op_pm_msg. */
void op_pm_capture(const char *msg);

#endif
