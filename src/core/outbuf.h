/* outbuf.h — a large private output buffer with fast number formatting,
 * so record writers never call printf per field.  Bytes go to a FILE* in
 * big blocks; the first write error is kept and reported at flush. */
#ifndef PW_CORE_OUTBUF_H
#define PW_CORE_OUTBUF_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/compiler.h"
#include "core/digits.h"
#include "perfweave.h"

typedef struct pw_outbuf {
    FILE *out;        /* NULL: a memory buffer that grows instead of writing */
    char *buf;
    size_t len;
    size_t cap;
    int failed; /* a write to `out` failed */
    int write_errno; /* errno of that write (0: memory ran out) */
    /* The high digits (value / 10^8) of the last large number written by
     * pw_out_u64_width, as text: successive times share them. */
    uint64_t hi_value;
    size_t hi_len;
    char hi_text[8];
} pw_outbuf;

/* 128 KiB: large enough that a write costs little per byte, small enough
 * that the buffer stays in L2 while it fills and while the kernel copies
 * it out (1 MiB buffers, two for Paraver's views, evicted the emulator's
 * channels and the input windows on every fill). */
#define PW_OUTBUF_CAP ((size_t)1 << 17)
/* The longest piece a single put call may add with no room check. */
#define PW_OUTBUF_SLACK 64

pw_status pw_outbuf_init(pw_outbuf *o, FILE *out, pw_error *err);
/* A buffer that only collects bytes in memory (o->buf[0 .. o->len)); a
 * failed growth sets o->failed. */
pw_status pw_outbuf_init_memory(pw_outbuf *o, size_t cap, pw_error *err);
/* The error of a failed outbuf, with the errno of the write that failed. */
pw_status pw_outbuf_error(const pw_outbuf *o, pw_error *err);
/* The same, naming the file `path` the buffer writes. */
pw_status pw_outbuf_error_at(const pw_outbuf *o, const char *path, pw_error *err);
/* Writes out what is buffered; PW_E_IO when this or an earlier write failed. */
pw_status pw_outbuf_flush(pw_outbuf *o, pw_error *err);
void pw_outbuf_free(pw_outbuf *o);
/* Slow path: empties the buffer to make room for n bytes. */
void pw_outbuf_drain(pw_outbuf *o, size_t n);

static inline void pw_outbuf_reserve(pw_outbuf *o, size_t n)
{
    if (o->cap - o->len < n)
        pw_outbuf_drain(o, n);
}
/* Appends a large piece formatted elsewhere: to a file, it is written
 * straight after what the buffer holds, without a copy into the buffer. */
void pw_out_write_through(pw_outbuf *o, const void *p, size_t n);
/* Slow path of pw_out_mem: the buffer is full. */
void pw_out_mem_slow(pw_outbuf *o, const void *p, size_t n);
/* Inline so that short constant pieces become a few stores. */
static inline void pw_out_mem(pw_outbuf *o, const void *p, size_t n)
{
    if (o->cap - o->len >= n) {
        memcpy(o->buf + o->len, p, n);
        o->len += n;
    } else {
        pw_out_mem_slow(o, p, n);
    }
}
static inline void pw_out_char(pw_outbuf *o, char c)
{
    pw_outbuf_reserve(o, 1);
    if (o->len < o->cap) /* a memory buffer that could not grow drops it */
        o->buf[o->len++] = c;
}
static inline void pw_out_str(pw_outbuf *o, const char *s) { pw_out_mem(o, s, strlen(s)); }
/* Slow path of pw_out_u64: any value. */
void pw_out_u64_any(pw_outbuf *o, uint64_t v);
/* Inline for one-digit values (counts, tags, ranks, thread ids). */
static inline void pw_out_u64(pw_outbuf *o, uint64_t v)
{
    if (v < 10 && o->len < o->cap) {
        o->buf[o->len++] = (char)('0' + v);
        return;
    }
    pw_out_u64_any(o, v);
}
static inline void pw_out_i64(pw_outbuf *o, int64_t v)
{
    if (v < 0) {
        pw_out_char(o, '-');
        pw_out_u64_any(o, (uint64_t)0 - (uint64_t)v);
    } else {
        pw_out_u64(o, (uint64_t)v);
    }
}
/* Shortest text that reads back as the same double; "nan"/"inf" as C does. */
void pw_out_f64(pw_outbuf *o, double v);
/* The exact decimal units * 10^-scale, as pw_out_f64 writes the double
 * nearest to it (the same bytes; without the conversion when it can). */
void pw_out_decimal(pw_outbuf *o, int64_t units, int scale);
/* The decimal digits of v < 10^8 at p, without leading zeros; returns
 * their number.  All eight digits are made in one word
 * (u32_digits8_word); its leading zero digits are its low zero bytes,
 * which one count of trailing zero bits finds and one shift drops.  No
 * loop, no table; it may write up to 8 bytes at p whatever the length. */
static inline size_t pw_put_u32_short(char *p, uint32_t v)
{
    if (v < 10) { /* the common small value: no word */
        *p = (char)('0' + v);
        return 1;
    }
    uint64_t x = u32_digits8_word(v);
    unsigned zeros = (unsigned)__builtin_ctzll(x) / 8; /* x != 0: v >= 10 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    x = (x | 0x3030303030303030u) >> (8 * zeros);
    memcpy(p, &x, 8);
#else
    char d[8];
    u32_digits8(v, d + 8);
    memcpy(p, d + zeros, 8 - zeros);
#endif
    return 8 - zeros;
}
/* The decimal digits of v at p; returns their number.  May write up to
 * 20 bytes at p whatever the length (the caller reserves them).  Forced
 * inline: with LTO, GCC called it from a Paraver line's three numbers
 * (17 % of `convert --to paraver`'s instructions in the call). */
static PW_HOT_INLINE size_t pw_put_u64(char *p, uint64_t v)
{
    if (v < 100000000)
        return pw_put_u32_short(p, (uint32_t)v);
    uint64_t hi = v / 100000000;
    size_t n;
    if (hi < 100000000) {
        n = pw_put_u32_short(p, (uint32_t)hi);
    } else {
        n = decimal_len(hi);
        u64_digits(hi, p + n);
    }
    u32_digits8((uint32_t)(v - hi * 100000000), p + n + 8);
    return n + 8;
}
/* The decimal text of v at p, '-' first when negative; returns its
 * length.  May write up to 21 bytes at p whatever the length. */
static inline size_t pw_put_i64(char *p, int64_t v)
{
    if (v >= 0)
        return pw_put_u64(p, (uint64_t)v);
    *p = '-';
    return 1 + pw_put_u64(p + 1, 0 - (uint64_t)v);
}
/* The most pw_put_us writes. */
#define PW_US_TEXT_MAX 25
/* ns as µs with three decimals at p ("-1.500" for -1500 ns: Chrome JSON's
 * times); returns the length.  May write PW_US_TEXT_MAX bytes at p. */
static inline size_t pw_put_us(char *p, int64_t ns)
{
    char *start = p;
    uint64_t u = (uint64_t)ns;
    if (ns < 0) {
        *p++ = '-';
        u = 0 - u;
    }
    uint64_t f = u % 1000;
    p += pw_put_u64(p, u / 1000);
    p[0] = '.';
    p[1] = (char)('0' + f / 100);
    p[2] = (char)('0' + f / 10 % 10);
    p[3] = (char)('0' + f % 10);
    return (size_t)(p + 4 - start);
}
/* pw_put_us into the buffer, in place when it has room. */
static inline void pw_out_us(pw_outbuf *o, int64_t ns)
{
    pw_outbuf_reserve(o, PW_US_TEXT_MAX);
    if (o->cap - o->len >= PW_US_TEXT_MAX) {
        o->len += pw_put_us(o->buf + o->len, ns);
        return;
    }
    char text[PW_US_TEXT_MAX];
    pw_out_mem(o, text, pw_put_us(text, ns)); /* a memory buffer that cannot grow: marked failed */
}
/* Unsigned value right-aligned in `width` columns (like %*llu). */
void pw_out_u64_width(pw_outbuf *o, uint64_t v, int width);
/* Bytes as ":hh:hh...", lower-case hex, the way ovnidump -x prints payloads. */
void pw_out_hex_colons(pw_outbuf *o, const uint8_t *p, size_t n);
/* s[0..n) as the inside of a JSON string (quotes not included). */
void pw_out_json_escaped(pw_outbuf *o, const char *s, size_t n);
/* s[0..n) as a whole JSON string, quotes included. */
void pw_out_json_string(pw_outbuf *o, const char *s, size_t n);
#endif
