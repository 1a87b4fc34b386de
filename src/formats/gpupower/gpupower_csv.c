/* gpupower_csv.c — lines, cells and numbers of the gpupower CSV files. */
#include "formats/gpupower/gpupower_csv.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

pw_status gp_csv_open(gp_csv *c, const char *path, size_t window, _Atomic uint64_t *progress,
                      pw_error *err)
{
    memset(c, 0, sizeof *c);
    pw_status s = pw_window_open(&c->w, path, window, window > GP_MAX_LINE ? window : GP_MAX_LINE, err);
    c->w.progress = progress;
    return s;
}

void gp_csv_close(gp_csv *c) { pw_window_close(&c->w); }

/* Sets the current line to [off, off+len) of bytes at p. */
static void take_line(gp_csv *c, const uint8_t *p, size_t len, size_t consumed)
{
    c->line_off = c->off;
    c->line_no++;
    c->line = (const char *)p;
    c->len = len && p[len - 1] == '\r' ? len - 1 : len;
    c->off += consumed;
}

pw_status gp_csv_next_line(gp_csv *c, pw_error *err)
{
    uint64_t left = pw_window_left(&c->w, c->off);
    if (!left)
        return PW_END;
    /* Fast path: the line ends inside the bytes already buffered. */
    if (c->off >= c->w.base && c->off < c->w.base + c->w.len) {
        const uint8_t *p = c->w.buf + (c->off - c->w.base);
        size_t have = (size_t)(c->w.base + c->w.len - c->off);
        const uint8_t *nl = memchr(p, '\n', have);
        if (nl) {
            take_line(c, p, (size_t)(nl - p), (size_t)(nl - p) + 1);
            return PW_OK;
        }
    }
    /* Slow path: refill from the line start; grow up to GP_MAX_LINE when
     * the line is longer than the window. */
    size_t want = left < (uint64_t)c->w.cap ? (size_t)left : c->w.cap;
    for (;;) {
        const uint8_t *p;
        pw_status s = pw_window_need(&c->w, c->off, want, &p, err);
        if (s != PW_OK)
            return s == PW_END ? PW_E_IO : s;
        const uint8_t *nl = memchr(p, '\n', want);
        if (nl) {
            take_line(c, p, (size_t)(nl - p), (size_t)(nl - p) + 1);
            return PW_OK;
        }
        if (want == left && want <= GP_MAX_LINE) { /* the last line has no '\n' */
            take_line(c, p, want, want);
            return PW_OK;
        }
        if (want >= GP_MAX_LINE)
            break;
        want = left < (uint64_t)GP_MAX_LINE ? (size_t)left : GP_MAX_LINE;
    }
    return pw_fail(err, PW_E_DATA, c->w.path, (int64_t)c->off,
                   "line %llu: no end of line within %zu bytes (a CSV row expected)",
                   (unsigned long long)c->line_no + 1, GP_MAX_LINE);
}

/* A byte loop, not memchr per cell: cells are a few bytes long, and the
 * call would cost more than the scan. */
size_t gp_csv_split(gp_csv *c)
{
    const char *p = c->line;
    size_t n = 0, start = 0, len = c->len;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && p[i] != ',')
            continue;
        if (n == GP_MAX_CELLS)
            return c->n_cells = 0;
        c->cells[n].p = p + start;
        c->cells[n].n = (uint32_t)(i - start);
        n++;
        start = i + 1;
    }
    return c->n_cells = n;
}

/* Exact powers of ten for the fast path (10^0 .. 10^22 are exact doubles). */
static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Slow path for numbers the fast path cannot round exactly: strtod on a
 * NUL-terminated copy (the grammar was already checked). */
static int parse_double_slow(const char *p, size_t n, double *out)
{
    char buf[128];
    if (n >= sizeof buf)
        return -1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    char *end;
    *out = strtod(buf, &end);
    return end == buf + n ? 0 : -1;
}

/* Decimal grammar: [+-] digits [. digits] [(e|E) [+-] digits], at least one
 * digit in the mantissa, read from p up to the first byte that does not
 * fit (returned; NULL when there is no number).  When there are at most 19 digits, their value
 * fits 2^53 and the power of ten is within 10^22, m * 10^e (or m / 10^-e)
 * is correctly rounded (Clinger's fast path); anything else goes to
 * strtod. */
const char *gp_scan_double(const char *p, const char *end, double *out)
{
    const char *s = p;
    int neg = 0;
    if (s < end && (*s == '-' || *s == '+'))
        neg = *s++ == '-';
    uint64_t m = 0; /* wraps past 19 digits: that case goes to strtod */
    const char *digits = s;
    for (; s < end && (unsigned)(*s - '0') < 10; s++)
        m = m * 10 + (uint64_t)(*s - '0');
    size_t n_digits = (size_t)(s - digits), n_frac = 0;
    if (s < end && *s == '.') {
        const char *frac = ++s;
        for (; s < end && (unsigned)(*s - '0') < 10; s++)
            m = m * 10 + (uint64_t)(*s - '0');
        n_frac = (size_t)(s - frac);
    }
    if (!n_digits && !n_frac)
        return NULL;
    int exp10 = -(int)(n_frac < 10000 ? n_frac : 10000);
    if (s < end && (*s == 'e' || *s == 'E')) {
        s++;
        int eneg = 0, e = 0;
        if (s < end && (*s == '-' || *s == '+'))
            eneg = *s++ == '-';
        const char *es = s;
        for (; s < end && (unsigned)(*s - '0') < 10; s++)
            e = e < 10000 ? e * 10 + (*s - '0') : e;
        if (s == es)
            return NULL;
        exp10 += eneg ? -e : e;
    }
    if (n_digits + n_frac > 19 || m > ((uint64_t)1 << 53) || exp10 > 22 || exp10 < -22)
        return parse_double_slow(p, (size_t)(s - p), out) == 0 ? s : NULL;
    double v = (double)m;
    v = exp10 >= 0 ? v * pow10_exact[exp10] : v / pow10_exact[-exp10];
    *out = neg ? -v : v;
    return s;
}

int gp_parse_double(const char *p, size_t n, double *out)
{
    return gp_scan_double(p, p + n, out) == p + n ? 0 : -1;
}

int gp_parse_int(const char *p, size_t n, int64_t *out)
{
    const char *s = p, *end = p + n;
    int neg = 0;
    if (s < end && (*s == '-' || *s == '+'))
        neg = *s++ == '-';
    if (s == end || end - s > 18)
        return -1;
    int64_t v = 0;
    for (; s < end; s++) {
        if ((unsigned)(*s - '0') >= 10)
            return -1;
        v = v * 10 + (*s - '0');
    }
    *out = neg ? -v : v;
    return 0;
}
