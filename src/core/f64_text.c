/* f64_text.c — %.Pg (P = 15, 16, 17) digits of a double by fixed-precision
 * scaling, in the manner of Grisu with a fallback: y = v * 10^k lands in
 * [10^16, 10^17) as a 128-bit fixed-point number (64 fraction bits) whose
 * error is under 2 units of 2^-64.  Rounding y to P digits and testing that
 * the result falls inside v's rounding interval are then plain comparisons,
 * trusted only when they clear the error bound by a margin. */
#include "core/f64_text.h"

#include <stdint.h>
#include <string.h>

#include "core/compiler.h"
#include "core/digits.h"
#include "core/pow10_table.h"

typedef unsigned __int128 u128;

/* Comparisons closer than this many units of 2^-64 are not trusted. */
#define F64_MARGIN 8

/* A positive finite double as m * 2^e, with the gaps to its neighbours. */
typedef struct {
    uint64_t m;
    int e;
    int narrow_below; /* m = 2^52 above the first binade: the gap below is half */
} f64_parts;

/* floor(E * log10(2)) for |E| < 1650: 78913 / 2^18 is close enough there. */
static int floor_log10_pow2(int E)
{
    int64_t p = (int64_t)E * 78913;
    return (int)(p >= 0 ? p / 262144 : -((-p + 262143) / 262144));
}

/* y * 2^64 = m * 2^e * 10^k * 2^64, from the 192-bit product m * T shifted
 * right; returns 0 when the shift falls outside what the table allows. */
static int scale(const f64_parts *f, int k, u128 *y, int *shift)
{
    if (k < PW_POW10_K_MIN || k > PW_POW10_K_MAX)
        return 0;
    uint64_t thi = pw_pow10_table[k - PW_POW10_K_MIN].hi;
    uint64_t tlo = pw_pow10_table[k - PW_POW10_K_MIN].lo;
    int s = -(f->e + pw_pow10_table[k - PW_POW10_K_MIN].log2 - 127 + 64);
    if (s < 1 || s > 64)
        return 0;
    u128 plo = (u128)f->m * tlo;
    u128 phi = (u128)f->m * thi;
    u128 mid = (plo >> 64) + (uint64_t)phi;
    uint64_t w0 = (uint64_t)plo;
    u128 top = ((phi >> 64) + (mid >> 64)) << 64 | (uint64_t)mid;
    *y = s == 64 ? top : (top << (64 - s)) | (w0 >> s);
    *shift = s;
    return 1;
}

static u128 abs_diff(u128 a, u128 b) { return a > b ? a - b : b - a; }

/* Lays out P-digit r (r < 10^P) with decimal exponent x the way %.Pg does:
 * trailing zeros dropped, fixed notation for -4 <= x < P, else d.ddde+XX. */
static size_t layout(uint64_t r, int p, int x, char *out)
{
    char d[17];
    u64_digits(r, d + p); /* r >= 10^(p-1): exactly p digits */
    int n = p;
    while (n > 1 && d[n - 1] == '0')
        n--;
    char *o = out;
    if (x < -4 || x >= p) {
        *o++ = d[0];
        if (n > 1) {
            *o++ = '.';
            memcpy(o, d + 1, (size_t)n - 1);
            o += n - 1;
        }
        *o++ = 'e';
        *o++ = x < 0 ? '-' : '+';
        unsigned ax = (unsigned)(x < 0 ? -x : x);
        if (ax >= 100)
            *o++ = (char)('0' + ax / 100);
        *o++ = (char)('0' + ax / 10 % 10);
        *o++ = (char)('0' + ax % 10);
    } else if (x >= 0) {
        int whole = x + 1;
        for (int i = 0; i < whole; i++)
            *o++ = i < n ? d[i] : '0';
        if (n > whole) {
            *o++ = '.';
            memcpy(o, d + whole, (size_t)(n - whole));
            o += n - whole;
        }
    } else {
        *o++ = '0';
        *o++ = '.';
        for (int i = -1; i > x; i--)
            *o++ = '0';
        memcpy(o, d, (size_t)n);
        o += n;
    }
    return (size_t)(o - out);
}

/* 5^n for 0 <= n <= 27, the largest that fits 64 bits. */
static uint64_t pow5(int n)
{
    uint64_t r = 1;
    while (n-- > 0)
        r *= 5;
    return r;
}

/* Whether v * 10^n is exactly an odd multiple of 1/2, that is, v lies
 * exactly halfway between two multiples of 10^-n: m * 2^(e+1) * 10^n must be
 * an odd integer.  Float32 values widened to double often do. */
static int exact_tie(const f64_parts *f, int n)
{
    if (__builtin_ctzll(f->m) + f->e + 1 + n != 0)
        return 0;
    return n >= 0 || (n >= -22 && f->m % pow5(-n) == 0); /* 5^23 > m */
}

/* Whether decimal r * 10^n equals N * 2^g exactly (N odd), a boundary of
 * v's rounding interval: the 2-adic parts and the odd parts must agree. */
static int decimal_is_boundary(uint64_t r, int n, uint64_t big_n, int g)
{
    int tz = __builtin_ctzll(r);
    if (tz + n != g || n > 27 || n < -27)
        return 0;
    u128 lhs = (u128)(r >> tz) * pow5(n > 0 ? n : 0);
    u128 rhs = (u128)big_n * pow5(n < 0 ? -n : 0);
    return lhs == rhs;
}

/* Rounds y = v * 10^k to P digits and tests the round trip.  Returns 1 with
 * *r set when that text reads back as v, 0 when it does not, -1 when too
 * close to call. */
static PW_HOT_INLINE int try_precision(const f64_parts *f, int k, u128 y,
                                                               u128 h_up, u128 h_lo, int p,
                                                               uint64_t *r)
{
    uint64_t d = pw_pow10_u64[17 - p];
    uint64_t yi = (uint64_t)(y >> 64);
    uint64_t q = yi / d;
    u128 rem = (u128)(yi - q * d) << 64 | (uint64_t)y;
    u128 half = (u128)d << 63;
    if (abs_diff(rem, half) > F64_MARGIN)
        q += rem > half;
    else if (exact_tie(f, k - (17 - p)))
        q += q & 1; /* printf rounds a tie to even */
    else
        return -1;
    u128 dec = (u128)(q * d) << 64;
    u128 dist = abs_diff(dec, y);
    int above = dec >= y;
    u128 lim = above ? h_up : h_lo;
    *r = q;
    if (abs_diff(dist, lim) > F64_MARGIN)
        return dist < lim;
    /* On the boundary itself strtod rounds to the even neighbour. */
    uint64_t big_n = above ? 2 * f->m + 1 : f->narrow_below ? 4 * f->m - 1 : 2 * f->m - 1;
    int g = f->e - (!above && f->narrow_below ? 2 : 1);
    if (decimal_is_boundary(q * d, -k, big_n, g))
        return (f->m & 1) == 0;
    return -1;
}

/* The digits and exponent of the shortest round-tripping %.Pg of positive
 * v = f; returns P, or 0 when undecided. */
static int shortest_digits(const f64_parts *f, uint64_t *r, int *x)
{
    int top_bit = 63 - __builtin_clzll(f->m);
    int k = 16 - floor_log10_pow2(f->e + top_bit);
    u128 y;
    int s;
    if (!scale(f, k, &y, &s))
        return 0;
    if ((uint64_t)(y >> 64) >= pw_pow10_u64[17]) { /* estimate one low */
        k--;
        if (!scale(f, k, &y, &s))
            return 0;
    }
    u128 tt = (u128)pw_pow10_table[k - PW_POW10_K_MIN].hi << 64 |
              pw_pow10_table[k - PW_POW10_K_MIN].lo;
    u128 h_up = tt >> (s + 1);
    u128 h_lo = f->narrow_below ? tt >> (s + 2) : h_up;
    /* Unrolled, so that each division by 10^(17 - p) is by a constant. */
#pragma GCC unroll 3
    for (int p = 15; p <= 17; p++) {
        int ok = try_precision(f, k, y, h_up, h_lo, p, r);
        if (ok < 0)
            return 0;
        if (ok) {
            *x = 16 - k;
            return p;
        }
    }
    return 0;
}

size_t pw_f64_text(double v, char *out)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    size_t sign = bits >> 63;
    out[0] = '-';
    unsigned bexp = (unsigned)(bits >> 52) & 0x7ff;
    uint64_t frac = bits & (((uint64_t)1 << 52) - 1);
    if (bexp == 0x7ff)
        return 0;
    if (bexp == 0 && frac == 0) {
        out[sign] = '0';
        return sign + 1;
    }
    f64_parts f = {frac, -1074, 0};
    if (bexp) {
        f.m = frac | (uint64_t)1 << 52;
        f.e = (int)bexp - 1075;
        f.narrow_below = frac == 0 && bexp > 1;
    }
    uint64_t r;
    int x;
    int p = shortest_digits(&f, &r, &x);
    if (!p)
        return 0;
    if (r == pw_pow10_u64[p]) { /* rounding carried into a new digit */
        r /= 10;
        x++;
    }
    return sign + layout(r, p, x, out + sign);
}
