/* test_report_stream.c — streamed arrays: the rendering is byte for byte
 * that of the same tree built whole, in every style and every placement
 * (members before and after, empty streams, scalar rows, two streams), and
 * the report's memory does not grow with the rows. */
#include <jansson.h>
#include <stdlib.h>

#include "harness.h"
#include "perfweave.h"

static const pw_report_style styles[] = {PW_REPORT_JSON, PW_REPORT_CSV, PW_REPORT_TEXT};

/* One row like a gpupower repetition: scalars, a nested object, a nested
 * table, and keys that only some rows have (CSV columns are their union). */
static void put_row(pw_rnode *rows, int i)
{
    pw_rnode *o = pw_rnode_object(rows, NULL);
    pw_rnode_str(o, "name", i % 3 ? "a" : "b,\"c\"");
    pw_rnode_int(o, "index", i);
    pw_rnode_num(o, "third", i / 3.0);
    pw_rnode_num(o, "undefined", i % 5 ? 1e300 * 1e300 : 2.0);
    pw_rnode_uint(o, "huge", UINT64_MAX - (uint64_t)i);
    pw_rnode *e = pw_rnode_object(o, "energy_j");
    pw_rnode_num(e, "gpu", 100.25 * i);
    if (i % 2)
        pw_rnode_num(e, "external", 0.1 * i);
    pw_rnode *ph = pw_rnode_array(o, "phases");
    for (int k = 0; k < i % 4; k++) {
        pw_rnode *p = pw_rnode_object(ph, NULL);
        pw_rnode_int(p, "index", k);
        pw_rnode_bool(p, "last", k == i % 4 - 1);
    }
    pw_rnode_strn(o, "bytes", "x\0\xff", 3);
}

/* The scenario, filled the same way into a streaming or an ordinary
 * report (on which pw_report_stream gives an ordinary array). */
typedef struct scenario {
    int before, rows, after, second_rows, scalar_rows;
} scenario;

static void fill(pw_report *r, const scenario *sc)
{
    pw_rnode *root = pw_report_root(r);
    if (sc->before) {
        pw_rnode_str(root, "format", "test");
        pw_rnode *o = pw_rnode_object(root, "totals");
        pw_rnode_int(o, "n", sc->rows);
    }
    pw_rnode *rows = pw_report_stream(r, "rows");
    for (int i = 0; i < sc->rows; i++)
        put_row(rows, i);
    if (sc->scalar_rows) {
        pw_rnode *s = pw_report_stream(r, "scalars");
        for (int i = 0; i < sc->scalar_rows; i++)
            pw_rnode_int(s, NULL, i);
    }
    if (sc->second_rows >= 0) {
        pw_rnode *more = pw_report_stream(r, "more");
        for (int i = 0; i < sc->second_rows; i++)
            put_row(more, 7 * i);
    }
    if (sc->after) {
        pw_rnode_uint(root, "after", 1);
        put_row(pw_rnode_array(root, "tail"), 3);
    }
}

static char *render(const scenario *sc, pw_report_style style, int streamed)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    pw_error e;
    pw_report *r = streamed ? pw_report_open(f, style) : pw_report_new();
    fill(r, sc);
    CHECK_EQ_INT(streamed ? pw_report_finish(r, &e) : pw_report_write(r, f, style, &e), PW_OK);
    pw_report_free(r);
    fclose(f);
    return text;
}

static void test_same_bytes(void)
{
    static const scenario cases[] = {
        {1, 25, 1, -1, 0}, {0, 25, 0, -1, 0}, {1, 0, 1, -1, 0}, {0, 0, 0, -1, 0},
        {1, 1, 0, 3, 0},   {0, 9, 1, 0, 4},   {1, 12, 1, 5, 2},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (size_t s = 0; s < 3; s++) {
            char *whole = render(&cases[c], styles[s], 0);
            char *streamed = render(&cases[c], styles[s], 1);
            CHECK(styles[s] != PW_REPORT_JSON || strlen(whole) > 2); /* CSV of nothing is empty */
            if (strcmp(whole, streamed))
                fprintf(stderr, "case %zu style %d:\n--- whole\n%s\n--- streamed\n%s\n", c, (int)styles[s],
                        whole, streamed);
            CHECK(strcmp(whole, streamed) == 0);
            free(whole);
            free(streamed);
        }
}

/* JSON rows reach the output as soon as the next row starts. */
static void test_rows_go_out_early(void)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    pw_report *r = pw_report_open(f, PW_REPORT_JSON);
    pw_rnode_str(pw_report_root(r), "format", "test");
    pw_rnode *rows = pw_report_stream(r, "rows");
    put_row(rows, 1);
    put_row(rows, 2);
    fflush(f);
    CHECK(strstr(text, "\"format\": \"test\"") != NULL);
    CHECK(strstr(text, "\"index\": 1") != NULL);
    CHECK(strstr(text, "\"index\": 2") == NULL);
    pw_error e;
    CHECK_EQ_INT(pw_report_write(r, f, PW_REPORT_JSON, &e), PW_E_USAGE);
    CHECK_EQ_INT(pw_report_finish(r, &e), PW_OK);
    fflush(f);
    CHECK(strstr(text, "\"index\": 2") != NULL);
    pw_report_free(r);
    fclose(f);
    free(text);
    pw_report *plain = pw_report_new();
    CHECK_EQ_INT(pw_report_finish(plain, &e), PW_E_USAGE);
    pw_report_free(plain);
}

/* jansson's live bytes, counted through its allocation hooks. */
static size_t live_bytes, peak_bytes;

static void *counting_malloc(size_t n)
{
    size_t *p = malloc(n + sizeof(size_t) * 2);
    if (!p)
        return NULL;
    p[0] = n;
    live_bytes += n;
    if (live_bytes > peak_bytes)
        peak_bytes = live_bytes;
    return p + 2;
}

static void counting_free(void *q)
{
    if (!q)
        return;
    size_t *p = (size_t *)q - 2;
    live_bytes -= p[0];
    free(p);
}

/* Peak tree memory while `rows` rows are added (output to /dev/null). */
static size_t peak_tree_bytes(int rows, pw_report_style style, int streamed)
{
    FILE *null = fopen("/dev/null", "w");
    live_bytes = peak_bytes = 0;
    pw_report *r = streamed ? pw_report_open(null, style) : pw_report_new();
    scenario sc = {1, rows, 1, -1, 0};
    fill(r, &sc);
    pw_error e;
    size_t peak_filled = peak_bytes;
    CHECK_EQ_INT(streamed ? pw_report_finish(r, &e) : pw_report_write(r, null, style, &e), PW_OK);
    pw_report_free(r);
    fclose(null);
    return peak_filled;
}

static void test_memory_flat_in_rows(void)
{
    json_set_alloc_funcs(counting_malloc, counting_free);
    for (size_t s = 0; s < 3; s++) {
        size_t small = peak_tree_bytes(100, styles[s], 1), large = peak_tree_bytes(5000, styles[s], 1);
        CHECK(small > 0);
        CHECK_EQ_INT((long)large, (long)small);
    }
    /* The measure sees a tree that grows: the same rows, not streamed. */
    CHECK(peak_tree_bytes(5000, PW_REPORT_JSON, 0) > 20 * peak_tree_bytes(100, PW_REPORT_JSON, 1));
    json_set_alloc_funcs(malloc, free);
}

TEST_MAIN(T(test_same_bytes), T(test_rows_go_out_early), T(test_memory_flat_in_rows))
