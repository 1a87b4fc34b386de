/* outbuf.c — buffered output and number formatting. */
#include "core/outbuf.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/bytes.h"
#include "core/decimal.h"
#include "core/error.h"
#include "core/digits.h"
#include "core/f64_text.h"

pw_status pw_outbuf_init(pw_outbuf *o, FILE *out, pw_error *err)
{
    o->out = out;
    o->len = 0;
    o->failed = 0;
    o->hi_value = UINT64_MAX;
    o->cap = PW_OUTBUF_CAP;
    o->buf = malloc(o->cap);
    if (!o->buf)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "no memory for the output buffer");
    return PW_OK;
}

pw_status pw_outbuf_init_memory(pw_outbuf *o, size_t cap, pw_error *err)
{
    o->out = NULL;
    o->len = 0;
    o->failed = 0;
    o->hi_value = UINT64_MAX;
    o->cap = cap ? cap : 4096;
    o->buf = malloc(o->cap);
    if (!o->buf)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "no memory for an output buffer");
    return PW_OK;
}

/* A memory buffer doubles until n more bytes fit. */
static void outbuf_grow(pw_outbuf *o, size_t n)
{
    size_t cap = o->cap;
    while (cap - o->len < n)
        cap *= 2;
    char *nb = realloc(o->buf, cap);
    if (!nb) {
        o->failed = 1;
        return;
    }
    o->buf = nb;
    o->cap = cap;
}

/* A write to the stream failed: keep errno for the message. */
static void outbuf_write_failed(pw_outbuf *o)
{
    o->failed = 1;
    o->write_errno = errno;
}

static void outbuf_write(pw_outbuf *o)
{
    if (!o->out)
        return;
    if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->out) != o->len)
        outbuf_write_failed(o);
    o->len = 0;
}

void pw_outbuf_drain(pw_outbuf *o, size_t n)
{
    if (!o->out) {
        outbuf_grow(o, n);
        return;
    }
    outbuf_write(o);
    if (n > o->cap) {
        /* Only a single huge piece (a 2 MiB jumbo payload in hex) gets here. */
        char *nb = realloc(o->buf, n);
        if (nb) {
            o->buf = nb;
            o->cap = n;
        }
    }
}

pw_status pw_outbuf_flush(pw_outbuf *o, pw_error *err)
{
    outbuf_write(o);
    if (o->out && !o->failed && fflush(o->out) != 0)
        outbuf_write_failed(o);
    return o->failed ? pw_outbuf_error(o, err) : PW_OK;
}

pw_status pw_outbuf_error_at(const pw_outbuf *o, const char *path, pw_error *err)
{
    errno = o->write_errno ? o->write_errno : ENOMEM; /* no errno: a buffer could not grow */
    return pw_fail_errno(err, path, "write failed");
}

pw_status pw_outbuf_error(const pw_outbuf *o, pw_error *err) { return pw_outbuf_error_at(o, "<output>", err); }

void pw_outbuf_free(pw_outbuf *o)
{
    free(o->buf);
    o->buf = NULL;
}

void pw_out_write_through(pw_outbuf *o, const void *p, size_t n)
{
    if (!o->out) {
        pw_out_mem(o, p, n);
        return;
    }
    outbuf_write(o);
    if (n && !o->failed && fwrite(p, 1, n, o->out) != n)
        outbuf_write_failed(o);
}

void pw_out_mem_slow(pw_outbuf *o, const void *p, size_t n)
{
    pw_outbuf_drain(o, n);
    if (o->cap - o->len < n) { /* no memory to grow: write straight through */
        if (o->out && !o->failed && fwrite(p, 1, n, o->out) != n)
            outbuf_write_failed(o);
        if (!o->out)
            o->failed = 1;
        return;
    }
    memcpy(o->buf + o->len, p, n);
    o->len += n;
}

/* Digits go straight into the buffer when it has room: no copy. */
void pw_out_u64_any(pw_outbuf *o, uint64_t v)
{
    if (o->cap - o->len >= 20) {
        unsigned n = decimal_len(v);
        u64_digits(v, o->buf + o->len + n);
        o->len += n;
        return;
    }
    char tmp[24];
    char *s = u64_digits(v, tmp + sizeof tmp);
    pw_out_mem(o, s, (size_t)(tmp + sizeof tmp - s));
}

void pw_out_u64_width(pw_outbuf *o, uint64_t v, int width)
{
    /* Times in ns (9 to 16 digits): the low eight digits in one step, the
     * high ones from the last call's text when they are the same. */
    if (v >= 100000000 && v < 10000000000000000u && width <= 16) {
        uint64_t hi = v / 100000000;
        if (hi != o->hi_value) {
            o->hi_value = hi;
            o->hi_len = decimal_len(hi);
            u32_digits((uint32_t)hi, o->hi_text + o->hi_len);
        }
        size_t n = o->hi_len + 8;
        size_t w = width > (int)n ? (size_t)width : n;
        pw_outbuf_reserve(o, w + 8);
        if (o->cap - o->len >= w + 8) {
            char *d = o->buf + o->len + (w - n);
            for (char *pad = o->buf + o->len; pad < d; pad++)
                *pad = ' ';
            memcpy(d, o->hi_text, 8); /* fixed size: the digits past hi_len are overwritten */
            u32_digits8((uint32_t)(v - hi * 100000000), d + n);
            o->len += w;
            return;
        }
    }
    size_t n = decimal_len(v);
    size_t w = width > (int)n ? (size_t)width : n;
    pw_outbuf_reserve(o, w);
    if (o->cap - o->len < w)
        return; /* a memory buffer that could not grow: already failed */
    for (size_t i = n; i < w; i++) /* padding: usually none, so no memset call */
        o->buf[o->len++] = ' ';
    o->len += n;
    u64_digits(v, o->buf + o->len);
}

/* Text of n / 10^9 (n < 10^15) at p: the whole part, then the nine
 * decimals with trailing zeros dropped; returns its length.  The last
 * nonzero decimal is found in one step: the highest byte of the last
 * eight digits that differs from '0'. */
static size_t nano_text(char *p, uint64_t n)
{
    uint32_t whole = (uint32_t)(n / 1000000000u);
    uint32_t frac = (uint32_t)(n % 1000000000u);
    size_t len = decimal_len(whole);
    u32_digits(whole, p + len);
    if (!frac)
        return len;
    char *d = p + len;
    d[0] = '.';
    d[1] = (char)('0' + frac / 100000000u);
    u32_digits8(frac % 100000000u, d + 10);
    /* byte i = digit i (any host order); '0' bytes become zero */
    uint64_t last8 = pw_le64((const uint8_t *)d + 2) ^ 0x3030303030303030u;
    size_t k = last8 ? 2 + (size_t)(63 - __builtin_clzll(last8)) / 8 + 1 : 2;
    return len + k;
}

/* n / 10^9 for n < 10^5 as %.15g prints it: d[.ddd]e-XX. */
static size_t nano_exp_text(char *p, uint64_t n)
{
    char d[8];
    size_t len = decimal_len(n);
    u32_digits((uint32_t)n, d + len);
    size_t k = len;
    while (d[k - 1] == '0')
        k--;
    char *o = p;
    *o++ = d[0];
    if (k > 1) {
        *o++ = '.';
        for (size_t i = 1; i < k; i++)
            *o++ = d[i];
    }
    unsigned x = 10 - (unsigned)len; /* v = d.ddd * 10^-x, 5 <= x <= 9 */
    memcpy(o, "e-0", 3);
    o[3] = (char)('0' + x);
    return (size_t)(o + 4 - p);
}

/* -n / 10^9 or n / 10^9 (0 < n < 10^15) as %.15g prints it. */
static size_t signed_nano_text(char *p, uint64_t n, int negative)
{
    p[0] = '-';
    size_t neg = negative != 0;
    return neg + (n >= 100000 ? nano_text(p + neg, n) : nano_exp_text(p + neg, n));
}

/* Fast path for whole nanoseconds in seconds, |v| in [1e-9, 1e6) (DUMPI
 * times, S.NNNNNNNNN): their decimal has at most 15 significant digits, so
 * it is the text %.15g gives and the shortest that reads back, provided v
 * is the double nearest to n / 10^9.  That test is exact and in integers
 * (a division costs more than all the rest): with |v| = m * 2^-E, it holds
 * when |m * 10^9 - n * 2^E| < 10^9 / 2; there are no ties (n / 10^9 halfway
 * between two doubles would need 5^9 | n, and those values are exact).
 * Writes at p (room for PW_F64_TEXT_MAX bytes); 0 when v is not such. */
static size_t f64_nano_text(char *p, double v)
{
    double a = v < 0 ? -v : v;
    double x = a * 1e9;
    if (!(x >= 0.5 && x < 1e15))
        return 0;
    uint64_t n = (uint64_t)(x + 0.5);
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    uint64_t m = (bits & (((uint64_t)1 << 52) - 1)) | (uint64_t)1 << 52;
    int e = 1075 - (int)(bits >> 52); /* |v| < 10^6: e > 30; >= 10^-9: e < 83 */
    unsigned __int128 want = (unsigned __int128)m * 1000000000u, got = (unsigned __int128)n << e;
    if ((want > got ? want - got : got - want) >= 500000000u || n >= 1000000000000000u)
        return 0;
    return signed_nano_text(p, n, v < 0);
}

/* The text of v into p (PW_F64_TEXT_MAX bytes), or 0 when only the exact
 * printf rule can tell. */
static size_t f64_text(char *p, double v)
{
    size_t n = f64_nano_text(p, v);
    if (n)
        return n;
    if (isnan(v)) {
        memcpy(p, "nan", 3);
        return 3;
    }
    if (isinf(v)) {
        size_t len = v < 0 ? 4 : 3;
        memcpy(p, v < 0 ? "-inf" : "inf", len);
        return len;
    }
    /* Whole numbers below 10^15 print as %.15g would, without it. */
    if (v > -1e15 && v < 1e15 && v == (double)(int64_t)v && !(v == 0 && signbit(v))) {
        uint64_t u = v < 0 ? (uint64_t)-(int64_t)v : (uint64_t)(int64_t)v;
        p[0] = '-';
        size_t neg = v < 0;
        size_t len = decimal_len(u);
        u64_digits(u, p + neg + len);
        return neg + len;
    }
    return pw_f64_text(v, p);
}

void pw_out_f64(pw_outbuf *o, double v)
{
    char tmp[40 > PW_F64_TEXT_MAX ? 40 : PW_F64_TEXT_MAX];
    pw_outbuf_reserve(o, PW_F64_TEXT_MAX);
    int in_place = o->cap - o->len >= PW_F64_TEXT_MAX;
    size_t n = f64_text(in_place ? o->buf + o->len : tmp, v);
    if (n && in_place) {
        o->len += n;
        return;
    }
    if (n) {
        pw_out_mem(o, tmp, n);
        return;
    }
    /* Too close to call from the 128-bit estimate (exact ties, boundaries):
     * the shortest of %.15g .. %.17g that reads back exactly. */
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    pw_out_str(o, tmp);
}

/* Nanosecond decimals below 10^15 units are written straight from the
 * integer, exactly as pw_out_f64 writes the nearest double (see
 * f64_nano_text: at most 15 significant digits); others go through it. */
void pw_out_decimal(pw_outbuf *o, int64_t units, int scale)
{
    uint64_t n = units < 0 ? (uint64_t)0 - (uint64_t)units : (uint64_t)units;
    if (scale == 9 && n > 0 && n < 1000000000000000u) {
        pw_outbuf_reserve(o, PW_F64_TEXT_MAX);
        if (o->cap - o->len >= PW_F64_TEXT_MAX) {
            o->len += signed_nano_text(o->buf + o->len, n, units < 0);
            return;
        }
    }
    pw_out_f64(o, pw_decimal_f64(units, scale));
}

/* ":hh" of every byte value, each in 4 bytes: one load and one store per
 * byte (the 4th byte is overwritten by the next piece, or lies in the
 * slack beyond the text). */
#define HEX_DIGIT(d) ((char)((d) < 10 ? '0' + (d) : 'a' + (d) - 10))
#define HEX_PIECE(b) {':', HEX_DIGIT((b) >> 4), HEX_DIGIT((b) & 15), 0}
#define HEX_PIECES4(b) HEX_PIECE(b), HEX_PIECE((b) + 1), HEX_PIECE((b) + 2), HEX_PIECE((b) + 3)
#define HEX_PIECES16(b) HEX_PIECES4(b), HEX_PIECES4((b) + 4), HEX_PIECES4((b) + 8), HEX_PIECES4((b) + 12)
#define HEX_PIECES64(b) HEX_PIECES16(b), HEX_PIECES16((b) + 16), HEX_PIECES16((b) + 32), HEX_PIECES16((b) + 48)
static const char hex_pieces[256][4] = {HEX_PIECES64(0), HEX_PIECES64(64), HEX_PIECES64(128),
                                        HEX_PIECES64(192)};

void pw_out_hex_colons(pw_outbuf *o, const uint8_t *p, size_t n)
{
    pw_outbuf_reserve(o, n * 3 + 1);
    if (o->cap - o->len < n * 3 + 1) { /* could not grow: go piecewise */
        for (size_t i = 0; i < n; i++)
            pw_out_mem(o, hex_pieces[p[i]], 3);
        return;
    }
    char *d = o->buf + o->len;
    for (size_t i = 0; i < n; i++, d += 3)
        memcpy(d, hex_pieces[p[i]], 4);
    o->len += n * 3;
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0 when it is not one. */
static size_t utf8_sequence(const unsigned char *s, size_t n)
{
    size_t len = 0;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        len = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        len = 3;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        len = 4;
    if (!len || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return len;
}

void pw_out_json_escaped(pw_outbuf *o, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    size_t run = 0; /* start of the pending run of plain bytes */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = u[i];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\')
            continue;
        if (c >= 0x80) { /* keep valid UTF-8; a stray byte becomes U+00XX */
            size_t l = utf8_sequence(u + i, n - i);
            if (l) {
                i += l - 1;
                continue;
            }
        }
        pw_out_mem(o, s + run, i - run);
        run = i + 1;
        switch (c) {
        case '"': pw_out_mem(o, "\\\"", 2); break;
        case '\\': pw_out_mem(o, "\\\\", 2); break;
        case '\n': pw_out_mem(o, "\\n", 2); break;
        case '\t': pw_out_mem(o, "\\t", 2); break;
        case '\r': pw_out_mem(o, "\\r", 2); break;
        default: {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            pw_out_mem(o, e, 6);
        }
        }
    }
    pw_out_mem(o, s + run, n - run);
}

void pw_out_json_string(pw_outbuf *o, const char *s, size_t n)
{
    pw_out_char(o, '"');
    pw_out_json_escaped(o, s, n);
    pw_out_char(o, '"');
}
