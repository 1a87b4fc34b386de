/* f64_text.h — the shortest of %.15g, %.16g and %.17g that reads back as the
 * same double, without printf or strtod.  Digits come from one 128-bit
 * multiplication by a cached power of ten; every rounding and round-trip
 * decision is checked against the error bound of that product, and the rare
 * value too close to call is left to the caller's exact (printf) path. */
#ifndef PW_CORE_F64_TEXT_H
#define PW_CORE_F64_TEXT_H
#include <stddef.h>

/* Longest text written: sign, 17 digits, point, "e-324". */
#define PW_F64_TEXT_MAX 32

/* Writes the text of a finite v to out and returns its length, or returns 0
 * when the 128-bit estimate cannot decide (exact ties, boundaries). */
size_t pw_f64_text(double v, char *out);
#endif
