/* test_report.c — the report tree and its three renderings. */
#include "harness.h"
#include "model/table.h"
#include "perfweave.h"

static const char *render(pw_report *r, pw_report_style style)
{
    static char text[8192];
    memset(text, 0, sizeof text);
    FILE *f = fmemopen(text, sizeof text - 1, "w");
    pw_error e;
    CHECK_EQ_INT(pw_report_write(r, f, style, &e), PW_OK);
    fclose(f);
    return text;
}

static pw_report *sample_report(void)
{
    pw_report *r = pw_report_new();
    pw_rnode *root = pw_report_root(r);
    pw_rnode_str(root, "format", "x");
    pw_rnode_uint(root, "events", 42);
    pw_rnode_num(root, "nan_is_null", 0.0 / 0.0);
    pw_rnode_null(root, "unknown");
    pw_rnode *rows = pw_rnode_array(root, "runs");
    for (int i = 0; i < 2; i++) {
        pw_rnode *o = pw_rnode_object(rows, NULL);
        pw_rnode_str(o, "name", i ? "b,c" : "a");
        pw_rnode *e = pw_rnode_object(o, "energy_j");
        pw_rnode_num(e, "gpu", 1.5 + i);
        pw_rnode *ph = pw_rnode_array(o, "phases");
        pw_rnode *p = pw_rnode_object(ph, NULL);
        pw_rnode_int(p, "index", i);
    }
    return r;
}

static void test_json(void)
{
    pw_report *r = sample_report();
    const char *t = render(r, PW_REPORT_JSON);
    CHECK(strstr(t, "\"events\": 42") != NULL);
    CHECK(strstr(t, "\"nan_is_null\": null") != NULL);
    CHECK(strstr(t, "\"unknown\": null") != NULL);
    CHECK(strstr(t, "\"gpu\": 2.5") != NULL);
    pw_report_free(r);
}

static void test_csv(void)
{
    pw_report *r = sample_report();
    const char *t = render(r, PW_REPORT_CSV);
    CHECK(strstr(t, "# summary\nkey,value\nformat,x\nevents,42\nnan_is_null,\nunknown,\n") != NULL);
    /* a table nested in a row: one row per its rows (long format) */
    CHECK(strstr(t, "# runs\nname,energy_j.gpu,phases.index\na,1.5,0\n\"b,c\",2.5,1\n") != NULL);
    CHECK(strstr(t, "# runs.phases") == NULL);
    pw_report_free(r);
}

static void test_text(void)
{
    pw_report *r = sample_report();
    const char *t = render(r, PW_REPORT_TEXT);
    CHECK(strstr(t, "format") == t);
    CHECK(strstr(t, "runs (2)\n") != NULL);
    CHECK(strstr(t, "energy.gpu (J)") != NULL); /* the unit moves to the header */
    CHECK(strstr(t, "1.50000") != NULL);        /* one precision per column */
    CHECK(strstr(t, "2.50000") != NULL);
    pw_report_free(r);
}

/* A long table of small and large reals: text shows the top rows and
 * counts the rest, with no exponent; CSV gives every row, each real in
 * the shortest text that reads back exact; --table keeps one table. */
static void test_views(void)
{
    pw_report *r = pw_report_new();
    pw_rnode *root = pw_report_root(r);
    pw_rnode_array(root, "empty");
    pw_rnode *rows = pw_rnode_array(root, "calls");
    for (int i = 0; i < 30; i++) {
        pw_rnode *o = pw_rnode_object(rows, NULL);
        pw_rnode_int(o, "n", i);
        pw_rnode_num(o, "time_s", i ? 0.203699849 : 9.5432e-05);
    }
    pw_rnode *other = pw_rnode_array(root, "other");
    pw_rnode_int(pw_rnode_object(other, NULL), "n", 7);
    CHECK(pw_report_set_view(r, 20, NULL, 0));
    const char *t = render(r, PW_REPORT_TEXT);
    CHECK(strstr(t, "\xe2\x80\xa6 10 more") != NULL);
    CHECK(strstr(t, "0.000095") != NULL);
    CHECK(strstr(t, "e-05") == NULL);
    CHECK(strstr(t, "empty") == NULL); /* no empty tables */
    CHECK(strstr(t, "time (s)") != NULL);
    t = render(r, PW_REPORT_CSV);
    CHECK(strstr(t, "1,0.203699849\n") != NULL);
    CHECK(strstr(t, "29,0.203699849\n") != NULL);
    CHECK(pw_report_set_view(r, 20, "other", 0));
    t = render(r, PW_REPORT_TEXT);
    CHECK(strstr(t, "calls") == NULL && strstr(t, "other (1)") != NULL);
    CHECK(pw_report_set_view(r, 20, NULL, 12)); /* "  n  time (s)" is 14 wide */
    t = render(r, PW_REPORT_TEXT);
    CHECK(strstr(t, "time (s)") == NULL && strstr(t, "1 more columns past") != NULL);
    pw_report_free(r);
}

/* Clock readings (columns "*_ns" declared in unit "ns") read in text as
 * seconds from the first record (the "first_ns" of the first table with
 * one); JSON and CSV keep them as the clock read them.  Counts print as
 * integers, a rounding residue never as -0. */
static void test_clocks(void)
{
    static const pw_table_decl trace = {"trace", "a trace", "its clock range", "one row",
                                        {{"first_ns", "ns", 0}, {"last_ns", "ns", 0}, {"events", "count", 0}}};
    static const pw_table_decl streams = {"streams", "streams", "per stream", "stream",
                                          {{"first_ns", "ns", 0}, {"left_s", "s", 0}}};
    static const pw_table_decl *const decls[] = {&trace, &streams, NULL};
    pw_report *r = pw_report_new();
    CHECK(pw_report_declare(r, decls));
    pw_rnode *root = pw_report_root(r);
    pw_rnode *tr = pw_rnode_object(root, "trace");
    pw_rnode_uint(tr, "first_ns", 1000000000100);
    pw_rnode_uint(tr, "last_ns", 1000000000900);
    pw_rnode_num(tr, "events", 10.0);
    pw_rnode *rows = pw_rnode_array(root, "streams");
    pw_rnode *row = pw_rnode_object(rows, NULL);
    pw_rnode_uint(row, "first_ns", 1000000000350);
    pw_rnode_num(row, "left_s", -1e-13);
    const char *t = render(r, PW_REPORT_TEXT);
    CHECK(strstr(t, "trace \xe2\x80\x94 a trace\n") != NULL);
    CHECK(strstr(t, "last (s)    0.000000800\n") != NULL);
    CHECK(strstr(t, "events      10\n") != NULL);
    CHECK(strstr(t, "0.000000250         0\n") != NULL && strstr(t, "-0") == NULL);
    t = render(r, PW_REPORT_JSON);
    CHECK(strstr(t, "\"last_ns\": 1000000000900") != NULL);
    CHECK(strstr(t, "\"first_ns\": 1000000000350") != NULL);
    t = render(r, PW_REPORT_CSV);
    CHECK(strstr(t, "# trace\n") != NULL && strstr(t, "1000000000350") != NULL);
    pw_report_free(r);
}

/* A unit of several bytes (J\xc2\xb7s) takes its characters' width in a
 * text header: the cells below line up under it. */
static void test_wide_units(void)
{
    static const pw_table_decl runs = {"runs", "runs", "per run", "run", {{"edp_js", "J\xc2\xb7" "s", 0}}};
    static const pw_table_decl *const decls[] = {&runs, NULL};
    pw_report *r = pw_report_new();
    CHECK(pw_report_declare(r, decls));
    pw_rnode *row = pw_rnode_object(pw_rnode_array(pw_report_root(r), "runs"), NULL);
    pw_rnode_num(row, "edp_js", 12.5);
    const char *t = render(r, PW_REPORT_TEXT);
    CHECK(strstr(t, "  edp (J\xc2\xb7s)\n    12.5000\n") != NULL);
    pw_report_free(r);
}

TEST_MAIN(T(test_json), T(test_csv), T(test_text), T(test_views), T(test_clocks), T(test_wide_units))
