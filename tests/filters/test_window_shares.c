/* test_window_shares.c — a window set on every share: the parts of 1 to 4
 * shares joined give the bytes the serial windowed pw_stats gives, for the
 * emulator's time per state on the multi-loom ovni traces (each share
 * replays its looms' history and clips, model/filter.h) and ROSS's tables
 * (the samples inside the window). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "model/dataset.h"

typedef struct windowed {
    const char *path;
    pw_filter filter;
} windowed;

static const windowed cases[] = {
    {PW_SHARED_DATA "/ovni/ctest-1.14.0/emu-mpi-func", {.start = "100us", .end = "500us"}},
    {PW_SHARED_DATA "/ovni/ctest-1.14.0/emu-tampi-ss-comm", {.start = "0.2ms", .end = "0.9ms"}},
    {PW_SHARED_DATA "/ovni/mix-1.14.0/ovni", {.start = "1ms", .end = "3ms"}},
    {PW_SHARED_DATA "/ross/phold-np2-gvt-pekp", {.start = "@100", .end = "@200"}},
};

static char *stats_json(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    pw_report *r = pw_report_open(f, PW_REPORT_JSON);
    pw_error err;
    pw_status s = parts ? pw_stats_join(ds, parts, sizes, n, r, &err) : pw_stats(ds, r, &err);
    if (s != PW_OK)
        fprintf(stderr, "%s\n", err.message);
    CHECK_EQ_INT(s, PW_OK);
    CHECK_EQ_INT(pw_report_finish(r, &err), PW_OK);
    pw_report_free(r);
    fclose(f);
    return text;
}

static pw_dataset *open_windowed(const windowed *w)
{
    pw_dataset *ds = NULL;
    pw_error err;
    pw_options opt = {.threads = 2};
    CHECK_EQ_INT(pw_open(w->path, &opt, &ds, &err), PW_OK);
    CHECK_EQ_INT(pw_dataset_filter(ds, &w->filter, &err), PW_OK);
    return ds;
}

static void shares_of(const windowed *w, unsigned count)
{
    pw_dataset *serial = open_windowed(w), *ds[4];
    void *parts[4];
    size_t sizes[4];
    pw_error err;
    for (unsigned i = 0; i < count; i++) {
        ds[i] = open_windowed(w);
        CHECK_EQ_INT(pw_dataset_set_share(ds[i], i, count, &err), PW_OK);
        CHECK_EQ_INT(pw_stats_part(ds[i], &parts[i], &sizes[i], &err), PW_OK);
    }
    char *want = stats_json(serial, NULL, NULL, 0);
    char *got = stats_json(ds[0], (const void *const *)parts, sizes, count);
    CHECK(want && got && !strcmp(want, got));
    if (!want || !got || strcmp(want, got))
        fprintf(stderr, "%s, %u shares: the joined windowed report differs\n", w->path, count);
    CHECK(want && !strstr(want, "\"filtered\""));
    for (unsigned i = 0; i < count; i++) {
        free(parts[i]);
        pw_close(ds[i]);
    }
    free(want);
    free(got);
    pw_close(serial);
}

static void test_windowed_parts_join_to_the_serial_bytes(void)
{
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (unsigned count = 1; count <= 4; count++)
            shares_of(&cases[c], count);
}

TEST_MAIN(T(test_windowed_parts_join_to_the_serial_bytes))
