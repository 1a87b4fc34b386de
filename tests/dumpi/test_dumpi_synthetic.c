/* test_dumpi_synthetic.c — reader behaviour no fixture shows, on traces
 * written here (bench/dumpi/dumpi_synth.h): 16-bit seconds that wrap, an
 * aborted run's 0-byte rank file, footer counts that disagree with the
 * stream, a label no writer produces, a missing end-of-stream label. */
#include <stdlib.h>
#include <unistd.h>

#include "dumpi_synth.h"
#include "harness.h"
#include "perfweave.h"

#define WTIME 122
#define SEND 0
#define BIAS 1000u

static synth out;
static char dir[64];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "dumpi-synth-%d", (int)getpid());
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    CHECK_EQ_INT(system(cmd), 0);
}

static const char *rank_path(int rank)
{
    static char path[300];
    snprintf(path, sizeof path, "%s/t-%04d.bin", dir, rank);
    return path;
}

static void send_args(synth *s, int32_t count, int32_t dest)
{
    synth_u32(s, (uint32_t)count);
    synth_u16(s, 9); /* MPI_INT */
    synth_u32(s, (uint32_t)dest);
    synth_u32(s, 7);
    synth_u16(s, 2); /* MPI_COMM_WORLD */
}

/* A fresh directory and rank file being written (bias: CPU 0, wall BIAS). */
static void start_rank(int rank)
{
    make_dir();
    CHECK_EQ_INT(synth_begin(&out, rank_path(rank), 0, BIAS), 0);
}

/* Ends the file being written and opens it alone; NULL on failure. */
static pw_dataset *finish_and_open(int rank)
{
    CHECK_EQ_INT(synth_finish(&out, 1700000000), 0);
    pw_dataset *ds = NULL;
    pw_error err;
    CHECK_EQ_INT(pw_open(rank_path(rank), NULL, &ds, &err), PW_OK);
    return ds;
}

static int has_diag(pw_dataset *ds, const char *code, int with_offset)
{
    for (size_t i = 0; i < pw_dataset_diag_count(ds); i++) {
        const pw_diag *d = pw_dataset_diag(ds, i);
        if (!strcmp(d->code, code) && (!with_offset || d->has_offset))
            return 1;
    }
    return 0;
}

/* Seconds wrap after 65535: 65530 -> 65535 -> (wrap inside a call) 3 -> 10. */
static void test_seconds_wrap(void)
{
    start_rank(0);
    synth_call(&out, WTIME, 1, 0, 65530, 5, 65535, 6);
    synth_call(&out, SEND, 1, 0, 65535, 7, 3, 8);
    send_args(&out, 4, 0);
    synth_call(&out, WTIME, 1, 0, 10, 9, 12, 10);
    pw_dataset *ds = finish_and_open(0);
    pw_error err;
    if (!ds)
        return;
    pw_cursor *c = NULL;
    CHECK_EQ_INT(pw_cursor_open(ds, 0, &c, &err), PW_OK);
    const int64_t want_t[3] = {(int64_t)(BIAS + 65530) * 1000000000 + 5, (int64_t)(BIAS + 65535) * 1000000000 + 7,
                               (int64_t)(BIAS + 65536 + 10) * 1000000000 + 9};
    const double want_exit[3] = {BIAS + 65535 + 6e-9, BIAS + 65536 + 3 + 8e-9, BIAS + 65536 + 12 + 10e-9};
    const pw_record *rec;
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_INT(pw_cursor_next(c, &rec, &err), PW_OK);
        CHECK_EQ_INT(rec->t, want_t[i]);
        const pw_value *v = pw_record_fields(rec);
        CHECK(v[1].present && v[1].v.list.n == 2 && pw_value_number(&v[1].v.list.items[1]) == want_exit[i]);
    }
    CHECK_EQ_INT(pw_cursor_next(c, &rec, &err), PW_END);
    pw_cursor_close(c);
    CHECK_EQ_INT(pw_check(ds, &err), PW_OK);
    pw_close(ds);
}

/* Rank 1 aborted (0 bytes): the trace opens, rank 0 reads, check fails. */
static void test_empty_rank(void)
{
    make_dir();
    CHECK_EQ_INT(synth_meta(dir, "t", 2, 1700000000), 0);
    CHECK_EQ_INT(synth_begin(&out, rank_path(0), 0, BIAS), 0);
    synth_call(&out, WTIME, 1, 0, 1, 0, 1, 5);
    CHECK_EQ_INT(synth_finish(&out, 1700000000), 0);
    FILE *f = fopen(rank_path(1), "wb");
    CHECK(f != NULL);
    if (f)
        fclose(f);
    pw_dataset *ds = NULL;
    pw_error err;
    CHECK_EQ_INT(pw_open(dir, NULL, &ds, &err), PW_OK);
    if (!ds)
        return;
    CHECK(has_diag(ds, "dumpi.empty-file", 0));
    pw_summary sum;
    CHECK_EQ_INT(pw_summarize(ds, &sum, &err), PW_OK);
    CHECK_EQ_INT(sum.records, 1);
    CHECK_EQ_INT(pw_check(ds, &err), PW_E_DATA);
    pw_close(ds);
}

/* The footer says two sends; the stream has one. */
static void test_count_mismatch(void)
{
    start_rank(0);
    synth_call(&out, SEND, 1, 0, 1, 0, 1, 5);
    send_args(&out, 1, 0);
    out.calls[SEND]++;
    pw_dataset *ds = finish_and_open(0);
    pw_error err;
    if (!ds)
        return;
    CHECK(has_diag(ds, "dumpi.count-mismatch", 1));
    CHECK_EQ_INT(pw_check(ds, &err), PW_E_DATA);
    pw_close(ds);
}

/* Label 290 is the footer's total, never a record: the cursor stops
 * there with the offset, after the good record before it. */
static void test_unknown_label(void)
{
    start_rank(0);
    synth_call(&out, WTIME, 1, 0, 1, 0, 1, 5);
    synth_call(&out, 290, 1, 0, 1, 0, 1, 5);
    pw_dataset *ds = finish_and_open(0);
    pw_error err;
    if (!ds)
        return;
    pw_cursor *c = NULL;
    CHECK_EQ_INT(pw_cursor_open(ds, 0, &c, &err), PW_OK);
    const pw_record *rec;
    CHECK_EQ_INT(pw_cursor_next(c, &rec, &err), PW_OK);
    CHECK_EQ_INT(pw_cursor_next(c, &rec, &err), PW_E_DATA);
    CHECK(err.has_offset && err.offset == 8 + 8 + 29);
    CHECK(strstr(err.message, "found 290") != NULL);
    pw_cursor_close(c);
    pw_close(ds);
}

/* Every rank writes the same .meta: a header that disagrees with it is
 * reported by check, at the header's offset. */
static void test_meta_mismatch(void)
{
    start_rank(0);
    synth_call(&out, WTIME, 1, 0, 1, 0, 1, 5);
    CHECK_EQ_INT(synth_finish(&out, 1700000000), 0);
    CHECK_EQ_INT(synth_meta(dir, "t", 1, 1700000001), 0);
    pw_dataset *ds = NULL;
    pw_error err;
    CHECK_EQ_INT(pw_open(dir, NULL, &ds, &err), PW_OK);
    if (!ds)
        return;
    CHECK_EQ_INT(pw_check(ds, &err), PW_E_DATA);
    CHECK(has_diag(ds, "dumpi.starttime-mismatch", 1));
    pw_close(ds);
}

/* Files before DUMPI 0.6.6 end in a shorter index: magic, perf labels,
 * header, stream, footer, keyval (48 bytes). */
static void test_short_index(void)
{
    start_rank(0);
    synth_call(&out, WTIME, 1, 0, 1, 0, 1, 5);
    synth_call(&out, WTIME, 1, 0, 2, 0, 2, 5);
    CHECK_EQ_INT(synth_finish(&out, 1700000000), 0);
    FILE *f = fopen(rank_path(0), "rb");
    unsigned char buf[8192];
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    CHECK(n > 64 && n < sizeof buf - 64);
    unsigned char idx[64];
    memcpy(idx, buf + n - 64, 64);
    /* keep magic, then entries 3..7 (perf, header, stream, footer, keyval) */
    memcpy(buf + n - 64, idx, 8);
    memcpy(buf + n - 56, idx + 24, 40);
    n -= 16;
    f = fopen(rank_path(0), "wb");
    CHECK(f && fwrite(buf, 1, n, f) == n);
    if (f)
        fclose(f);
    pw_dataset *ds = NULL;
    pw_error err;
    CHECK_EQ_INT(pw_open(rank_path(0), NULL, &ds, &err), PW_OK);
    if (!ds)
        return;
    pw_summary sum;
    CHECK_EQ_INT(pw_summarize(ds, &sum, &err), PW_OK);
    CHECK_EQ_INT(sum.records, 2);
    CHECK_STR(pw_dataset_prop_get(ds, "rank0:hostname"), "synth-host");
    CHECK_STR(pw_dataset_prop_get(ds, "rank0:datatype_count"), "0"); /* no sizes entry */
    CHECK_EQ_INT(pw_check(ds, &err), PW_OK);
    pw_close(ds);
}

/* Thread ids other than 0 become child locations rank<N>/thread<T>. */
static void test_thread_locations(void)
{
    start_rank(3);
    synth_call(&out, WTIME, 1, 0, 1, 0, 1, 5);
    synth_call(&out, WTIME, 1, 5, 1, 6, 1, 7);
    pw_dataset *ds = finish_and_open(3);
    pw_error err;
    if (!ds)
        return;
    CHECK_EQ_INT(pw_location_count(ds), 2);
    CHECK_STR(pw_location_get(ds, 0)->path, "rank3");
    CHECK_STR(pw_location_get(ds, 1)->path, "rank3/thread5");
    pw_cursor *c = NULL;
    CHECK_EQ_INT(pw_cursor_open(ds, 0, &c, &err), PW_OK);
    const pw_record *rec;
    CHECK_EQ_INT(pw_cursor_next(c, &rec, &err), PW_OK);
    CHECK_EQ_INT(rec->location, 0);
    CHECK_EQ_INT(pw_cursor_next(c, &rec, &err), PW_OK);
    CHECK_EQ_INT(rec->location, 1);
    pw_cursor_close(c);
    pw_close(ds);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK_EQ_INT(system(cmd), 0);
}

TEST_MAIN(T(test_seconds_wrap), T(test_empty_rank), T(test_count_mismatch), T(test_unknown_label),
          T(test_meta_mismatch), T(test_short_index), T(test_thread_locations))
