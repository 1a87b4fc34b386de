/* decimal.h — exact decimals (units * 10^-scale) as doubles. */
#ifndef PW_CORE_DECIMAL_H
#define PW_CORE_DECIMAL_H
#include <stdint.h>

/* The double nearest to units * 10^-scale (0 <= scale <= 18). */
double pw_decimal_f64(int64_t units, int scale);
#endif
