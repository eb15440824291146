/*
 * check.c - support for check.h.
 */
#include "check.h"

#include <stdarg.h>

int check_failures = 0;

int check_has(const char *file, int line, const char *func, const char *text, ...)
{
  va_list ap;
  int ok = 1;
  va_start(ap, text);
  for (const char *s = va_arg(ap, const char *); s != NULL; s = va_arg(ap, const char *)) {
    if (text == NULL || strstr(text, s) == NULL) {
      fprintf(stderr, "%s:%d: %s: check failed: \"%s\" does not contain \"%s\"\n", file, line,
              func, text ? text : "(null)", s);
      ok = 0;
    }
  }
  va_end(ap);
  if (!ok)
    check_failures++;
  return ok;
}
