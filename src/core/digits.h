/* digits.h — decimal digits of unsigned integers, two at a time, written
 * backwards into a caller's buffer (the output buffer and the double
 * formatter share them). */
#ifndef PW_CORE_DIGITS_H
#define PW_CORE_DIGITS_H
#include <stdint.h>
#include <string.h>

/* 10^0 .. 10^19, every power of ten a uint64_t holds. */
static const uint64_t pw_pow10_u64[20] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u, 1000000000u,
    10000000000u, 100000000000u, 1000000000000u, 10000000000000u, 100000000000000u,
    1000000000000000u, 10000000000000000u, 100000000000000000u, 1000000000000000000u,
    10000000000000000000u};

static const char digit_pairs[] = "00010203040506070809101112131415161718192021222324"
                                  "25262728293031323334353637383940414243444546474849"
                                  "50515253545556575859606162636465666768697071727374"
                                  "75767778798081828384858687888990919293949596979899";

/* Digits of a 32-bit value, backwards from `end`; returns the first. */
static inline char *u32_digits(uint32_t v, char *p)
{
    while (v >= 100) {
        unsigned i = (v % 100) * 2;
        v /= 100;
        *--p = digit_pairs[i + 1];
        *--p = digit_pairs[i];
    }
    if (v >= 10) {
        *--p = digit_pairs[v * 2 + 1];
        *--p = digit_pairs[v * 2];
    } else {
        *--p = (char)('0' + v);
    }
    return p;
}

/* The 8 digits of v < 10^8 (leading zeros kept) as the bytes of one
 * 64-bit word, byte i (from the low end) digit i, the most significant
 * first, each a value 0..9 (not yet text).  The value splits into two
 * 4-digit lanes, each lane into two 2-digit lanes, each of those into two
 * digits, by multiplications that stand for exact divisions at these
 * sizes (x / 100 = x * 5243 >> 19 for x < 10^4, x / 10 = x * 103 >> 10 for
 * x < 100).  No table, no loop, no chain of divisions. */
static inline uint64_t u32_digits8_word(uint32_t v)
{
    uint64_t x = (uint64_t)(v / 10000) | (uint64_t)(v % 10000) << 32;
    uint64_t hundreds = (x * 5243 >> 19) & 0x0000007F0000007Fu;
    x = hundreds | (x - hundreds * 100) << 16;
    uint64_t tens = (x * 103 >> 10) & 0x000F000F000F000Fu;
    return tens | (x - tens * 10) << 8;
}

/* Exactly 8 digits of v < 10^8 (leading zeros kept), backwards from p:
 * the word above as text, one store on a little-endian machine. */
static inline char *u32_digits8(uint32_t v, char *p)
{
    uint64_t x = u32_digits8_word(v) | 0x3030303030303030u;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    p -= 8;
    memcpy(p, &x, 8);
    return p;
}

/* Digits of v, written backwards from `end`; returns the first digit.
 * Nanosecond clocks have 12 digits or more: splitting off 8 low digits
 * keeps the arithmetic in 32 bits, which is several times cheaper. */
static inline char *u64_digits(uint64_t v, char *end)
{
    char *p = end;
    while (v >= 100000000) {
        p = u32_digits8((uint32_t)(v % 100000000), p);
        v /= 100000000;
    }
    return u32_digits((uint32_t)v, p);
}

/* Number of decimal digits of v (1 for 0): the bit length gives it to
 * within one, a table settles it. */
static inline unsigned decimal_len(uint64_t v)
{
    unsigned t = (unsigned)((64 - __builtin_clzll(v | 1)) * 1233) >> 12;
    return t + (v >= pw_pow10_u64[t]) + (v == 0);
}
#endif
