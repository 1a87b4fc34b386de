/* test_gpupower.c — the parsers and the integrator on hand-made inputs
 * whose answers are known: numbers against strtod, timestamps against
 * dates worked out by hand, run names, trapezoid windows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/gpupower/gpupower.h"
#include "analysis/energy/energy_integral.h"
#include "harness.h"

static int parse_d(const char *s, double *v) { return gp_parse_double(s, strlen(s), v); }

/* Every accepted number equals strtod's reading, bit for bit. */
static void test_numbers(void)
{
    static const char *const ok[] = {"0",          "-0",         "12",       "+7",
                                     "153274.125", "1000372943.0", "1e3",    "-2.5E-3",
                                     ".5",         "5.",         "0.1",      "123456789012345678901234",
                                     "1000379730.9912345", "4.9406564584124654e-324",
                                     "1.7976931348623157e308", "0.30000000000000004"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        double v = -1;
        CHECK(parse_d(ok[i], &v) == 0);
        CHECK(v == strtod(ok[i], NULL));
    }
    static const char *const bad[] = {"", "-", ".", "e5", "1e", "12a", "nan", "inf", "0x10",
                                      "1,5", " 1", "1 ", "--1", "\"1\""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        double v;
        CHECK(parse_d(bad[i], &v) == -1);
    }
    /* Random decimals: the fast path must round exactly like strtod. */
    srand(6);
    for (int i = 0; i < 20000; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%d.%0*d", rand() % 1000000, 1 + rand() % 9, rand() % 1000000);
        double v;
        CHECK(parse_d(buf, &v) == 0 && v == strtod(buf, NULL));
    }
    int64_t n;
    CHECK(gp_parse_int("-42", 3, &n) == 0 && n == -42);
    CHECK(gp_parse_int("4x", 2, &n) == -1);
    CHECK(gp_parse_int("", 0, &n) == -1);
}

static int64_t at(const char *s, const gp_tz *tz)
{
    gp_time_cache c = {0};
    int64_t ns = -1;
    return gp_parse_time(s, strlen(s), tz, &c, &ns) == 0 ? ns : -1;
}

/* 2020-03-16 12:34:56 UTC is 1584362096 s (worked out by hand: 18337
 * days from 1970-01-01 to 2020-03-16, plus 45296 s). */
static void test_timestamps(void)
{
    gp_tz utc, plus1, local;
    CHECK(gp_tz_parse("UTC", &utc) == 0);
    CHECK(gp_tz_parse("+01:00", &plus1) == 0 && plus1.offset_s == 3600);
    CHECK(gp_tz_parse("local", &local) == 0 && local.local);
    CHECK(gp_tz_parse("-0530", &plus1) == 0 && plus1.offset_s == -19800);
    CHECK(gp_tz_parse("+01", &plus1) == 0 && plus1.offset_s == 3600);
    CHECK(gp_tz_parse("Europe/Berlin", &plus1) == -1);
    const int64_t base = 1584362096LL * 1000000000;
    CHECK(at("2020-03-16 12:34:56", &utc) == base);
    CHECK(at("2020-03-16 12:34:56.123456", &utc) == base + 123456000);
    CHECK(at("2020-03-16T12:34:56.5", &utc) == base + 500000000);
    CHECK(at("2020-03-16T12:34:56.123456789Z", &plus1) == base + 123456789);
    CHECK(at("2020-03-16T13:34:56+01:00", &utc) == base);
    CHECK(at("2020-03-16T13:34:56+0100", &utc) == base);
    CHECK(at("2020-03-16T11:34:56-01", &utc) == base);
    gp_tz_parse("+01:00", &plus1);
    CHECK(at("2020-03-16 13:34:56", &plus1) == base); /* naive = the chosen zone */
    CHECK(at("2020-02-29 00:00:00", &utc) == 1582934400LL * 1000000000);
    static const char *const bad[] = {"2020-03-16", "2020-03-16 12:34", "2020-13-16 12:34:56",
                                      "2019-02-29 00:00:00", "2020-03-16X12:34:56",
                                      "2020-03-16 24:00:00", "2020-03-16 12:34:56.",
                                      "2020-03-16 12:34:56.1234567890", "2020-03-16 12:34:56+1",
                                      "2020-03-16 12:34:56 ", "9999-03-16 12:34:56"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK(at(bad[i], &utc) == -1);
}

static void test_run_names(void)
{
    gp_rep r;
    memset(&r, 0, sizeof r);
    gp_parse_run_name("150W", &r);
    CHECK(r.has_power_limit && r.power_limit_w == 150 && !r.has_clocks);
    memset(&r, 0, sizeof r);
    gp_parse_run_name("877MHz,1065MHz", &r);
    CHECK(r.has_clocks && r.mem_clock_mhz == 877 && r.sm_clock_mhz == 1065 && !r.has_power_limit);
    static const char *const none[] = {"W", "150", "150WW", "877MHz", "877MHz,", "877MHz,1065",
                                       "default", "_baseline", "877MHz,1065MHz,1"};
    for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
        memset(&r, 0, sizeof r);
        gp_parse_run_name(none[i], &r);
        CHECK(!r.has_power_limit && !r.has_clocks);
    }
}

/* Power 100 W until t=1 s, ramps to 300 W at t=3 s, then stays; samples
 * at 0, 1, 3, 5 s.  Closed form: [0.5 s, 2 s] = 100*0.5 + (100+200)/2*1 =
 * 200 J; [2 s, 4 s] = (200+300)/2*1 + 300*1 = 550 J. */
static void test_integral(void)
{
    const int64_t s = 1000000000;
    int64_t edges[] = {s / 2, 2 * s, 4 * s};
    double value[3], power[3];
    energy_integral g;
    energy_integral_init(&g, edges, 3, value, power, 0, s / 2, 4 * s);
    energy_integral_add(&g, 0, 100);
    energy_integral_add(&g, s, 100);
    energy_integral_add(&g, 3 * s, 300);
    energy_integral_add(&g, s / 2, 999); /* before the previous two: ignored, counted */
    energy_integral_add(&g, 5 * s, 300);
    energy_integral_finish(&g);
    CHECK(fabs(value[1] - value[0] - 200.0) < 1e-12);
    CHECK(fabs(value[2] - value[1] - 550.0) < 1e-12);
    CHECK(g.backwards == 1);
    CHECK(energy_integral_covers(&g, 0, 2));
    CHECK(energy_integral_peak(&g, 0, 2) == 300.0);
    /* A sample far in the future, then time goes on from before it: the
     * future one was out of place and is taken back. */
    energy_integral_init(&g, edges, 3, value, power, 0, 0, 4 * s);
    energy_integral_add(&g, 0, 100);
    energy_integral_add(&g, s, 100);
    energy_integral_add(&g, 100 * s, 999);
    energy_integral_add(&g, 2 * s, 100);
    energy_integral_add(&g, 5 * s, 100);
    energy_integral_finish(&g);
    CHECK(fabs(value[1] - value[0] - 150.0) < 1e-12);
    CHECK(fabs(value[2] - value[1] - 200.0) < 1e-12);
    CHECK(energy_integral_peak(&g, 0, 2) == 100.0 && g.backwards == 1);
    /* Level mode: the counter's interpolated values at the edges. */
    energy_integral_init(&g, edges, 3, value, power, 1, 0, 0);
    energy_integral_add(&g, 0, 10);
    energy_integral_add(&g, 4 * s, 50);
    energy_integral_finish(&g);
    CHECK(value[0] == 15.0 && value[1] == 30.0 && value[2] == 50.0);
    energy_spread sp;
    double x[] = {1, 2, 3, 4};
    energy_spread_of(x, 4, &sp);
    CHECK(sp.mean == 2.5 && sp.min == 1 && sp.max == 4 && fabs(sp.std - sqrt(5.0 / 3.0)) < 1e-15);
    energy_spread_of(x, 1, &sp);
    CHECK(isnan(sp.std) && sp.mean == 1);
}

static const char *write_temp(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "test_gpupower_%d.csv", (int)getpid());
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
    return path;
}

/* A table by column name: a byte order mark, CRLF line ends, the pandas
 * index column, columns in another order, an empty (missing) cell, a bad
 * row skipped, a last line without end of line. */
static void test_table(void)
{
    const char *path = write_temp("\xef\xbb\xbf,power,timestamp,tmp\r\n"
                                  "0,1500.5,2020-03-16 00:00:01,40\r\n"
                                  "1,,2020-03-16 00:00:02.5,41\r\n"
                                  "2,12x,2020-03-16 00:00:03,42\r\n"
                                  "3,2000,2020-03-16T00:00:04Z,43");
    gp_tz utc;
    gp_tz_parse("UTC", &utc);
    gp_table t;
    pw_error e;
    CHECK(gp_table_open(&t, NULL, path, GP_FILE_GPU, &utc, GP_WINDOW_STREAM, &e) == PW_OK);
    CHECK(t.has_value[GP_POWER] && t.has_value[GP_TMP] && !t.has_value[GP_TOTAL_ENERGY]);
    const int64_t day = 1584316800LL * 1000000000;
    CHECK(gp_table_next(&t, &e) == PW_OK && t.t == day + 1000000000 && t.v[GP_POWER] == 1500.5);
    CHECK(gp_table_next(&t, &e) == PW_OK && t.t == day + 2500000000 && isnan(t.v[GP_POWER]));
    CHECK(gp_table_next(&t, &e) == PW_OK && t.t == day + 4000000000 && t.v[GP_TMP] == 43);
    CHECK(t.bad_rows == 1 && t.first_bad_line == 4);
    CHECK(gp_table_next(&t, &e) == PW_END);
    gp_table_close(&t);
    /* A row from the future is the damaged one, not every row after it. */
    path = write_temp("timestamp,power\n2020-03-16 00:00:01,1\n2020-03-16 00:00:02,2\n"
                      "2029-03-16 00:00:03,3\n2020-03-16 00:00:04,4\n2020-03-16 00:00:05,5\n");
    CHECK(gp_table_open(&t, NULL, path, GP_FILE_GPU, &utc, GP_WINDOW_STREAM, &e) == PW_OK);
    int rows = 0;
    double sum = 0;
    while (gp_table_next(&t, &e) == PW_OK) {
        rows++;
        sum += t.v[GP_POWER];
    }
    CHECK(rows == 5 && sum == 15 && t.bad_rows == 1);
    gp_table_close(&t);
    /* Headers a kind cannot do without. */
    path = write_temp("time,event\n");
    CHECK(gp_table_open(&t, NULL, path, GP_FILE_TIMESTAMPS, &utc, GP_WINDOW_STREAM, &e) == PW_E_DATA);
    CHECK(strstr(e.message, "'timestamp'") != NULL);
    gp_table_close(&t);
    path = write_temp("");
    CHECK(gp_table_open(&t, NULL, path, GP_FILE_GPU, &utc, GP_WINDOW_STREAM, &e) == PW_E_DATA);
    CHECK(strstr(e.message, "empty file") != NULL && e.has_offset);
    gp_table_close(&t);
    path = write_temp(",timestamp,x1\n");
    CHECK(gp_table_open(&t, NULL, path, GP_FILE_EXTERNAL, &utc, GP_WINDOW_STREAM, &e) == PW_E_DATA);
    gp_table_close(&t);
    remove(path);
}

TEST_MAIN(T(test_numbers), T(test_timestamps), T(test_run_names), T(test_integral), T(test_table))
