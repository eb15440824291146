/*
 * op_text.h - text from outside the program (decks, meshes, matrices, tune
 * files, file names, command-line values): read it with bounds, and show it
 * in a message without harm.
 *
 * Every text reader of the suite goes through here, so that no input can make
 * a reader grow without bound (/dev/zero has no line end; a pipe has no end)
 * and no message echoes raw bytes to a terminal or a 100 KB path in full.
 * Plain C, no dependencies: the mesh, deck and matrix readers link it too.
 */
#ifndef OP_TEXT_H
#define OP_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The size of buffer that op_text_shown callers use for a name in a message:
 * long names are shortened to fit it. */
#define OP_TEXT_SHOWN 200

/* Copies s into out (outlen bytes, outlen >= 16) ready to print: a control
 * byte other than newline and tab, and a byte that is not part of valid
 * UTF-8, becomes \xNN; text longer than fits keeps its start and its end with
 * "..." between them, cut at character boundaries. Returns out. */
const char *op_text_shown(char *out, size_t outlen, const char *s);
/* The same for n bytes of s (which may hold NUL bytes). */
const char *op_text_shown_n(char *out, size_t outlen, const char *s, size_t n);

/* Formats a message (printf) and stores it as op_text_shown would: for
 * messages that quote what a user or a file wrote. */
void op_text_vformat(char *out, size_t outlen, const char *fmt, va_list ap);
void op_text_format(char *out, size_t outlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* op_text_format, then returns -1: the error path of a reader. */
int op_text_fail(char *out, size_t outlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A line reader with a cap on the length of a line and of the whole file.
 * Lines come without their "\n" or "\r\n". */
typedef struct {
  FILE *f;
  int own;                     /* opened by op_text_open: closed by op_text_close */
  const char *what;            /* "deck", "matrix file", ... for messages */
  char shown[OP_TEXT_SHOWN];   /* the file name, made safe to print */
  size_t max_line;
  unsigned long long max_bytes, bytes;
  long line;                   /* number of the line last returned (1-based) */
  char *buf;                   /* read buffer */
  size_t start, end, cap;      /* unread bytes are buf[start, end) */
  int eof;
} op_text_reader;

/* What a file that is not a regular file is, for a message ("a directory",
 * "a named pipe (FIFO)", "a character device", ...), or NULL for a regular
 * file. */
const char *op_text_file_kind(unsigned mode);
/* Opens path for reading when it is a regular file. Anything else is refused
 * by name without waiting: opening a named pipe blocks until something writes
 * into it, and a device or a pipe need not end. A directory gives "PATH: is a
 * directory, not a WHAT", any other kind "PATH: is a named pipe (FIFO), not a
 * regular file: give the WHAT as a file"; a missing or unreadable file "PATH:
 * cannot open the WHAT: <reason>". Returns the stream, or NULL with the
 * message in err. */
FILE *op_text_fopen_regular(const char *path, const char *what, char *err, size_t errlen);
/* The same check for a path another library opens (HDF5): 0 when path is a
 * regular file or does not exist (the caller reports that as it does), -1
 * with the message above when it is something else. */
int op_text_check_regular(const char *path, const char *what, char *err, size_t errlen);

/* Opens path for reading (op_text_fopen_regular: a regular file only). A
 * directory, a named pipe, a device, a missing or unreadable file are errors
 * naming the file and what it was meant to be. Returns 0, or -1 with the
 * message in err. */
int op_text_open(op_text_reader *r, const char *path, const char *what, size_t max_line,
                 unsigned long long max_bytes, char *err, size_t errlen);
/* Reads from an open stream (not closed by op_text_close); name is for
 * messages. */
int op_text_attach(op_text_reader *r, FILE *f, const char *name, const char *what,
                   size_t max_line, unsigned long long max_bytes, char *err, size_t errlen);
/* Next line: 1 (the line in *line, NUL-terminated, *len bytes, valid until the
 * next call; a UTF-8 byte-order mark at the start of line 1 is skipped), 0 at the end of the file,
 * -1 with "FILE:LINE: ..." in err: a line longer than max_line, a NUL byte (binary data), more than
 * max_bytes in all, or a read error. */
int op_text_next(op_text_reader *r, char **line, size_t *len, char *err, size_t errlen);
/* Raises the cap on the whole file (a reader that learns the file's size
 * from its header). */
void op_text_set_max_bytes(op_text_reader *r, unsigned long long max_bytes);
void op_text_close(op_text_reader *r);

#ifdef __cplusplus
}
#endif

#endif /* OP_TEXT_H */
