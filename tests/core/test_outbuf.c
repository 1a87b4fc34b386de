/* test_outbuf.c — number and string formatting of the record writers. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/outbuf.h"
#include "harness.h"
#include "xorshift.h"

/* Runs fn on a buffer that writes to a memory stream; returns the text. */
static const char *render(void (*fn)(pw_outbuf *))
{
    static char text[4096];
    FILE *f = fmemopen(text, sizeof text, "w");
    pw_outbuf o;
    pw_error e;
    pw_outbuf_init(&o, f, &e);
    fn(&o);
    pw_outbuf_flush(&o, &e);
    pw_outbuf_free(&o);
    fclose(f);
    return text;
}

static void put_ints(pw_outbuf *o)
{
    pw_out_u64(o, 0);
    pw_out_char(o, ' ');
    pw_out_u64(o, UINT64_MAX);
    pw_out_char(o, ' ');
    pw_out_i64(o, INT64_MIN);
    pw_out_char(o, ' ');
    pw_out_i64(o, -7);
    pw_out_char(o, ' ');
    pw_out_u64_width(o, 42, 6);
    pw_out_char(o, '|');
    pw_out_u64_width(o, 1234567, 3);
}

static void test_integers(void)
{
    CHECK_STR(render(put_ints), "0 18446744073709551615 -9223372036854775808 -7     42|1234567");
}

static void put_floats(pw_outbuf *o)
{
    pw_out_f64(o, 0.1);
    pw_out_char(o, ' ');
    pw_out_f64(o, 98.591552734375);
    pw_out_char(o, ' ');
    pw_out_f64(o, DBL_MAX);
    pw_out_char(o, ' ');
    pw_out_f64(o, -0.0);
    pw_out_char(o, ' ');
    pw_out_f64(o, NAN);
}

static void test_floats_round_trip(void)
{
    CHECK_STR(render(put_floats), "0.1 98.591552734375 1.7976931348623157e+308 -0 nan");
}

static void put_json(pw_outbuf *o)
{
    static const char s[] = "a\"b\\c\n\x01\xc3\xa9\xff";
    pw_out_json_escaped(o, s, sizeof s - 1);
}

static void test_json_escaping(void)
{
    /* Valid UTF-8 stays; a stray byte becomes \u00ff so the JSON stays valid. */
    CHECK_STR(render(put_json), "a\\\"b\\\\c\\n\\u0001\xc3\xa9\\u00ff");
}

/* Widths against printf, on runs of values that share their high digits
 * (the cached text) and values that do not, of every length. */
static void test_width(void)
{
    pw_outbuf o;
    pw_error err;
    CHECK(pw_outbuf_init_memory(&o, 64, &err) == PW_OK);
    uint64_t seed = 0x9e3779b97f4a7c15u;
    long bad = 0;
    for (int i = 0; i < 200000; i++) {
        xorshift_next(&seed);
        static uint64_t v = 400010000099u;
        if (seed % 16 == 0)
            v = seed >> (seed >> 58); /* any length */
        else
            v += seed % 300; /* the next time of a trace */
        int width = (int)(seed >> 40) % 22;
        char want[48];
        snprintf(want, sizeof want, "%*llu", width, (unsigned long long)v);
        o.len = 0;
        pw_out_u64_width(&o, v, width);
        pw_out_char(&o, 0);
        if (strcmp(want, o.buf) && bad++ < 5)
            fprintf(stderr, "width %d: printf \"%s\", pw_out_u64_width \"%s\"\n", width, want, o.buf);
    }
    CHECK_EQ_INT(bad, 0);
    pw_outbuf_free(&o);
}

/* pw_put_u64 against printf: every length's first and last value (where
 * the leading-zero shift and the 10^8 split change) and random values of
 * any length; the bytes it may write past the digits are allowed for. */
static void test_put_u64(void)
{
    uint64_t seed = 0x2545f4914f6cdd1du;
    long bad = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t v;
        if (i < 40) {
            uint64_t p = 1;
            for (int k = 0; k < i / 2; k++)
                p *= 10;
            v = i % 2 ? p - 1 : p;
        } else {
            xorshift_next(&seed);
            v = seed >> (seed >> 58);
        }
        if (i == 40)
            v = UINT64_MAX;
        char want[24], got[48];
        int n = snprintf(want, sizeof want, "%llu", (unsigned long long)v);
        memset(got, 'x', sizeof got);
        size_t len = pw_put_u64(got, v);
        if ((len != (size_t)n || memcmp(got, want, len) != 0) && bad++ < 5)
            fprintf(stderr, "pw_put_u64: printf \"%s\", got \"%.*s\"\n", want, (int)len, got);
        if (got[20] != 'x' && bad++ < 5)
            fprintf(stderr, "pw_put_u64(%s) wrote past 20 bytes\n", want);
    }
    CHECK_EQ_INT(bad, 0);
}

static void put_hex(pw_outbuf *o)
{
    const uint8_t b[] = {0x00, 0xab, 0x10};
    pw_out_hex_colons(o, b, 3);
    pw_out_hex_colons(o, b, 0);
}

static void put_hex_all(pw_outbuf *o)
{
    uint8_t b[256];
    for (int i = 0; i < 256; i++)
        b[i] = (uint8_t)(255 - i);
    pw_out_hex_colons(o, b, sizeof b);
}

static void test_hex(void)
{
    CHECK_STR(render(put_hex), ":00:ab:10");
    char want[3 * 256 + 1];
    for (int i = 0; i < 256; i++)
        snprintf(want + 3 * i, 4, ":%02x", 255 - i);
    CHECK_STR(render(put_hex_all), want);
}

/* Times as Chrome JSON writes them: µs with three decimals, negative ones
 * (a clock before the trace's first event) with their sign on the whole
 * value ("-0.500", not "0.-5-0-0"), and pw_put_i64 at the ends of int64. */
static void put_times(pw_outbuf *o)
{
    static const int64_t ns[] = {0, 7, 1500, -1500, -500, -1, INT64_MAX, INT64_MIN};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        pw_out_us(o, ns[i]);
        pw_out_char(o, ' ');
    }
    char text[32];
    pw_out_mem(o, text, pw_put_i64(text, INT64_MIN));
    pw_out_char(o, ' ');
    pw_out_mem(o, text, pw_put_i64(text, -42));
}

static void test_times_us(void)
{
    CHECK_STR(render(put_times), "0.000 0.007 1.500 -1.500 -0.500 -0.001 9223372036854775.807 "
                                 "-9223372036854775.808 -9223372036854775808 -42");
}

TEST_MAIN(T(test_integers), T(test_floats_round_trip), T(test_json_escaping), T(test_hex),
          T(test_width), T(test_put_u64), T(test_times_us))
