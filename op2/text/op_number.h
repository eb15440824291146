/*
 * op_number.h - the one syntax of a real number in the suite's text inputs
 * (decks, ASCII meshes, Matrix Market files, lists of numbers in a deck key).
 *
 * A number is decimal: an optional sign, digits with an optional decimal
 * point (at least one digit), then an optional exponent "e" or "E", an
 * optional sign and digits. strtod alone would also take hexadecimal
 * ("0x10"), "inf", "nan" and leading blanks, which a mesh or a matrix never
 * means; the readers check the syntax here first, then convert with strtod
 * (correctly rounded), so that one file cannot be read by one reader and
 * refused by another.
 */
#ifndef OP_NUMBER_H
#define OP_NUMBER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  OP_NUMBER_OK = 0,
  OP_NUMBER_SYNTAX = -1,     /* not a decimal number (hexadecimal, a letter, empty, ...) */
  OP_NUMBER_NOT_FINITE = -2, /* "inf", "infinity" or "nan", in any case, with a sign or not */
  OP_NUMBER_OVERFLOW = -3,   /* beyond the largest double (about 1.8e308) */
  OP_NUMBER_UNDERFLOW = -4   /* not zero, but below the smallest normal double (2.2e-308) */
} op_number_status;

/* 1 when the n bytes at s are a decimal number as above (nothing before or
 * after it), else 0. */
int op_number_is_decimal(const char *s, size_t n);

/* Converts the n bytes at s (not NUL-terminated) into *out. A number whose
 * magnitude is below DBL_MIN is refused (OP_NUMBER_UNDERFLOW) whether strtod
 * would round it to a subnormal or to zero: no input of the suite means such
 * a value, and arithmetic on subnormals loses digits. Returns OP_NUMBER_OK
 * or the reason (*out unchanged). */
op_number_status op_number_parse(const char *s, size_t n, double *out);

/* The reason as words for a message: "is not a decimal number", "is not a
 * finite number", "overflows a double", "underflows a double (its magnitude
 * is below 2.2e-308)". */
const char *op_number_reason(op_number_status st);

#ifdef __cplusplus
}
#endif

#endif /* OP_NUMBER_H */
