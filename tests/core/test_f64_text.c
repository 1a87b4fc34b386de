/* test_f64_text.c — pw_f64_text must give byte for byte what the printf rule
 * gives: the shortest of %.15g, %.16g, %.17g that strtod reads back as the
 * same double.  Random doubles of several kinds, then the edge cases.
 * PW_F64_TEST_COUNT overrides the number of random values per kind. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/decimal.h"
#include "core/digits.h"
#include "core/f64_text.h"
#include "core/outbuf.h"
#include "harness.h"
#include "xorshift.h"

#if defined(__SANITIZE_ADDRESS__)
#define DEFAULT_COUNT 100000
#else
#define DEFAULT_COUNT 500000
#endif

/* The rule pw_out_f64 followed with printf before pw_f64_text existed. */
static void printf_rule(double v, char *text)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(text, 40, "%.*g", prec, v);
        if (strtod(text, NULL) == v)
            return;
    }
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t next_random(void) { return xorshift_next(&rng_state); }

static long mismatches, undecided;

/* pw_out_f64's text of v (its shortcuts come before pw_f64_text). */
static const char *out_f64_text(double v)
{
    static pw_outbuf o;
    pw_error err;
    if (!o.buf && pw_outbuf_init_memory(&o, 64, &err) != PW_OK)
        return "";
    o.len = 0;
    pw_out_f64(&o, v);
    pw_out_char(&o, 0);
    return o.buf;
}

/* Compares one value, as pw_f64_text and as pw_out_f64 write it; reports
 * the first few differences. */
static void compare(double v)
{
    if (!isfinite(v))
        return;
    char want[40], got[PW_F64_TEXT_MAX + 1];
    printf_rule(v, want);
    const char *out = out_f64_text(v);
    if (strcmp(want, out) && mismatches++ < 10)
        fprintf(stderr, "%a: printf gives %s, pw_out_f64 %s\n", v, want, out);
    size_t n = pw_f64_text(v, got);
    if (!n) {
        undecided++;
        return;
    }
    got[n] = 0;
    if (strcmp(want, got) && mismatches++ < 10)
        fprintf(stderr, "%a: printf gives %s, pw_f64_text %s\n", v, want, got);
}

static double any_bits(void)
{
    uint64_t b = next_random();
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static double widened_float(void)
{
    uint32_t b = (uint32_t)next_random();
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* A decimal of up to 18 digits divided by a power of ten: measurements. */
static double decimal_like(void)
{
    uint64_t r = next_random();
    int64_t mant = (int64_t)(next_random() % 1000000000000000000u);
    return (double)(r & 1 ? -mant : mant) / pow(10, (double)(r >> 1 & 31));
}

/* Whole nanoseconds in seconds, as DUMPI records times, of 1 to 15 digits
 * (the shortcut's range) and a little beyond; every third one nudged to a
 * neighbouring double, which is no such decimal. */
static double nanoseconds(void)
{
    uint64_t r = next_random();
    uint64_t n = next_random() % pw_pow10_u64[1 + r % 16];
    double v = (double)n / 1e9;
    return (r >> 8) % 3 == 0 ? nextafter(v, r >> 10 & 1 ? INFINITY : 0) : v;
}

/* Values in [0, 1) scaled by 10^-30 .. 10^29: random times and rates. */
static double scaled_unit(void)
{
    double u = (double)(next_random() >> 11) * 0x1p-53;
    return u * pow(10, (double)(int)(next_random() % 60) - 30);
}

/* Subnormals and the smallest normals, where the gaps are uneven. */
static double tiny(void)
{
    uint64_t b = next_random() & ((((uint64_t)1) << 53) - 1);
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static long random_count(void)
{
    const char *s = getenv("PW_F64_TEST_COUNT");
    return s ? atol(s) : DEFAULT_COUNT;
}

static void check_kind(double (*gen)(void))
{
    mismatches = undecided = 0;
    for (long i = random_count(); i > 0; i--)
        compare(gen());
    CHECK_EQ_INT(mismatches, 0);
    CHECK_EQ_INT(undecided, 0); /* the printf fallback stays for the truly rare */
}

static void test_all_bit_patterns(void) { check_kind(any_bits); }
static void test_float32_widened(void) { check_kind(widened_float); }
static void test_decimal_like(void) { check_kind(decimal_like); }
static void test_scaled_unit(void) { check_kind(scaled_unit); }
static void test_nanoseconds(void) { check_kind(nanoseconds); }
static void test_subnormals(void) { check_kind(tiny); }

static void test_edges(void)
{
    static const double edges[] = {
        5e-324, 1e-323, 2.2250738585072009e-308, 2.2250738585072014e-308,
        2.2250738585072019e-308, DBL_MAX, -DBL_MAX, 0x1.fffffffffffffp1023 / 2,
        1e15, -1e15, 1e15 + 1, 1e15 - 0.5, 999999999999999.9, 1e16, 1e17, 1e21, 1e22, 1e23,
        9007199254740993.0, 9007199254740992.0, 18446744073709551616.0, 0.1, 0.3, 1 / 3.0,
        2 / 3.0, 1e-4, 9.9999999999999e-5, 1e-5, 123456.7890123456789, 1e300, 1e-300,
        0x1p-1022, 0x1p-1074, 0x1p1023, 0x1p-1, 1e-7, 5e-5, 0.5e-4, 1.5, -2.5,
        1e-9, 999999.999999999, 999999.9999999985, 416.0002217, 1e-5 + 1e-9, 3e-7};
    mismatches = undecided = 0;
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++) {
        compare(edges[i]);
        compare(-edges[i]);
        compare(nextafter(edges[i], 0));
        compare(nextafter(edges[i], INFINITY));
    }
    for (int e = -324; e <= 308; e++) { /* every power of ten and its neighbours */
        char t[16];
        snprintf(t, sizeof t, "1e%d", e);
        double p = strtod(t, NULL);
        compare(p);
        compare(nextafter(p, 0));
        compare(nextafter(p, INFINITY));
    }
    CHECK_EQ_INT(mismatches, 0);
    CHECK_EQ_INT(undecided, 0);
    char t[PW_F64_TEXT_MAX + 1];
    t[pw_f64_text(-0.0, t)] = 0;
    CHECK_STR(t, "-0");
    CHECK_EQ_INT(pw_f64_text(INFINITY, t), 0);
    CHECK_EQ_INT(pw_f64_text(NAN, t), 0);
}

/* pw_out_decimal writes what pw_out_f64 writes for the nearest double,
 * and pw_decimal_f64 is that nearest double (strtod of the decimal's text
 * rounds correctly), for units of every size, both signs, every scale. */
static void test_decimal(void)
{
    pw_outbuf o;
    pw_error err;
    CHECK(pw_outbuf_init_memory(&o, 64, &err) == PW_OK);
    long bad_text = 0, bad_value = 0;
    for (long i = random_count() / 4; i > 0; i--) {
        uint64_t r = next_random();
        int64_t units = (int64_t)(next_random() % pw_pow10_u64[r % 20]);
        if (r >> 8 & 1)
            units = -units;
        int scale = r >> 9 & 3 ? 9 : (int)((r >> 12) % 19);
        scale = scale > 18 ? 18 : scale;
        char text[64];
        snprintf(text, sizeof text, "%llde-%d", (long long)units, scale);
        double want = strtod(text, NULL);
        double got = pw_decimal_f64(units, scale);
        if (memcmp(&want, &got, sizeof want) && bad_value++ < 5)
            fprintf(stderr, "%s: strtod %a, pw_decimal_f64 %a\n", text, want, got);
        o.len = 0;
        pw_out_decimal(&o, units, scale);
        pw_out_char(&o, 0);
        if (strcmp(o.buf, out_f64_text(want)) && bad_text++ < 5)
            fprintf(stderr, "%s: pw_out_decimal %s, pw_out_f64 %s\n", text, o.buf, out_f64_text(want));
    }
    CHECK_EQ_INT(bad_value, 0);
    CHECK_EQ_INT(bad_text, 0);
    pw_outbuf_free(&o);
}

/* pw_out_f64 as a whole: its special values and shortcuts around pw_f64_text. */
static void test_out_f64(void)
{
    static const double v[] = {NAN, INFINITY, -INFINITY, -0.0, 0.0, 1e15 - 1, 1e15, 0.25, -3.5e-9, 1.0000000000000002};
    static const char *want[] = {"nan", "inf", "-inf", "-0", "0", "999999999999999", "1e+15", "0.25", "-3.5e-09", "1.0000000000000002"};
    pw_outbuf o;
    pw_error err;
    CHECK(pw_outbuf_init_memory(&o, 64, &err) == PW_OK);
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        o.len = 0;
        pw_out_f64(&o, v[i]);
        pw_out_char(&o, 0);
        CHECK_STR(o.buf, want[i]);
    }
    pw_outbuf_free(&o);
}

TEST_MAIN({"all_bit_patterns", test_all_bit_patterns}, {"float32_widened", test_float32_widened},
          {"decimal_like", test_decimal_like}, {"scaled_unit", test_scaled_unit},
          {"nanoseconds", test_nanoseconds},
          {"subnormals", test_subnormals}, {"edges", test_edges}, {"out_f64", test_out_f64},
          {"decimal", test_decimal})
