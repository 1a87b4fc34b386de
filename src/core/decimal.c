/* decimal.c — exact decimals as doubles, rounded once. */
#include "core/decimal.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/digits.h"

/* Both operands exact (|units| < 2^53, 10^scale exact up to 10^22), the
 * division rounds once: the nearest double.  Larger units go through the
 * decimal text, which strtod rounds correctly. */
double pw_decimal_f64(int64_t units, int scale)
{
    if (scale < 0 || scale > 18)
        return 0.0 / 0.0;
    if (units > -((int64_t)1 << 53) && units < ((int64_t)1 << 53))
        return (double)units / (double)pw_pow10_u64[scale];
    char text[48];
    snprintf(text, sizeof text, "%llde-%d", (long long)units, scale);
    return strtod(text, NULL);
}
