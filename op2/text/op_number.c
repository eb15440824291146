/*
 * op_number.c - the suite's one syntax of a real number (op_number.h).
 */
#include "op_number.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int digit(char c) { return c >= '0' && c <= '9'; }

int op_number_is_decimal(const char *s, size_t n) {
  size_t i = 0, digits = 0;
  if (i < n && (s[i] == '+' || s[i] == '-')) i++;
  for (; i < n && digit(s[i]); i++) digits++;
  if (i < n && s[i] == '.')
    for (i++; i < n && digit(s[i]); i++) digits++;
  if (digits == 0) return 0;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    if (i >= n || !digit(s[i])) return 0;
    while (i < n && digit(s[i])) i++;
  }
  return i == n;
}

/* "inf", "infinity", "nan" with an optional sign (what strtod takes). */
static int names_non_finite(const char *s, size_t n) {
  if (n > 0 && (s[0] == '+' || s[0] == '-')) s++, n--;
  return (n == 3 && (strncasecmp(s, "inf", 3) == 0 || strncasecmp(s, "nan", 3) == 0)) ||
         (n == 8 && strncasecmp(s, "infinity", 8) == 0);
}

op_number_status op_number_parse(const char *s, size_t n, double *out) {
  if (!op_number_is_decimal(s, n))
    return names_non_finite(s, n) ? OP_NUMBER_NOT_FINITE : OP_NUMBER_SYNTAX;
  char small[128];
  char *buf = n < sizeof small ? small : malloc(n + 1);
  if (!buf) return OP_NUMBER_SYNTAX; /* a number of more than 127 bytes without memory */
  memcpy(buf, s, n);
  buf[n] = '\0';
  errno = 0;
  double v = strtod(buf, NULL);
  int range = errno == ERANGE;
  if (buf != small) free(buf);
  /* Zero written as zero ("0", "-0.0e5") is zero; a non-zero digit in the
   * mantissa makes the number non-zero, however small. */
  const char *mantissa_end = memchr(s, 'e', n);
  if (!mantissa_end) mantissa_end = memchr(s, 'E', n);
  if (!mantissa_end) mantissa_end = s + n;
  int nonzero = 0;
  for (const char *p = s; p < mantissa_end; p++) nonzero |= *p >= '1' && *p <= '9';
  if (isinf(v) || (range && fabs(v) > 1.0)) return OP_NUMBER_OVERFLOW;
  if (nonzero && fabs(v) < DBL_MIN) return OP_NUMBER_UNDERFLOW;
  *out = v;
  return OP_NUMBER_OK;
}

const char *op_number_reason(op_number_status st) {
  switch (st) {
    case OP_NUMBER_OK:
      return "is a number";
    case OP_NUMBER_SYNTAX:
      return "is not a decimal number";
    case OP_NUMBER_NOT_FINITE:
      return "is not a finite number";
    case OP_NUMBER_OVERFLOW:
      return "overflows a double";
    case OP_NUMBER_UNDERFLOW:
      return "underflows a double (its magnitude is below 2.2e-308)";
  }
  return "is not a number";
}
