/* test_share.c — the library's shares without MPI: for 1 to 5 shares of
 * ovni, DUMPI, ROSS and HPCToolkit fixtures, the shares are consecutive runs that cover
 * the record locations once, and pw_stats_join of the parts of all shares
 * writes the bytes pw_stats writes (the contract perfweave-mpi relies on):
 * the formats' parts and the analyses' (the MPI profile on DUMPI, the
 * emulator's time per state on the two-loom ovni traces). */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "model/dataset.h"

static const char *const fixtures[] = {
    PW_SHARED_DATA "/ovni/emu-1.10.0/ovni", PW_SHARED_DATA "/ovni/mix-1.14.0/ovni",
    PW_SHARED_DATA "/dumpi/collectives4", PW_SHARED_DATA "/ross/phold-np2-gvt-pekp",
    PW_SHARED_DATA "/ross/known-np4-gvt-model-evtrace",
    PW_SHARED_DATA "/hpctoolkit/hpctoolkit/tests-data-dbase@f9abaf11f/loops-cputime-t.d",
    PW_SHARED_DATA "/hpctoolkit/pipit/ping-pong-hpctoolkit@7283ee4-prototype",
};

/* pw_stats' JSON of ds into a new string. */
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

static void shares_of(const char *path, unsigned count)
{
    pw_dataset *serial, *ds[8];
    pw_error err;
    pw_options opt = {.threads = 2};
    CHECK_EQ_INT(pw_open(path, &opt, &serial, &err), PW_OK);
    char *want = stats_json(serial, NULL, NULL, 0);
    void *parts[8];
    size_t sizes[8], n, next = 0;
    pw_ds_record_locations(serial, &n);
    for (unsigned i = 0; i < count; i++) {
        CHECK_EQ_INT(pw_open(path, &opt, &ds[i], &err), PW_OK);
        CHECK_EQ_INT(pw_dataset_set_share(ds[i], i, count, &err), PW_OK);
        size_t first, end;
        pw_ds_share(ds[i], n, &first, &end);
        CHECK_EQ_INT(first, next); /* consecutive, in share order */
        next = end;
        CHECK_EQ_INT(pw_stats_part(ds[i], &parts[i], &sizes[i], &err), PW_OK);
    }
    CHECK_EQ_INT(next, n); /* and every location once */
    char *got = stats_json(ds[0], (const void *const *)parts, sizes, count);
    CHECK(want && got && !strcmp(want, got));
    if (!want || !got || strcmp(want, got))
        fprintf(stderr, "%s, %u shares: the joined report differs\n", path, count);
    for (unsigned i = 0; i < count; i++) {
        free(parts[i]);
        pw_close(ds[i]);
    }
    free(want);
    free(got);
    pw_close(serial);
}

static void test_parts_join_to_the_serial_bytes(void)
{
    for (size_t f = 0; f < sizeof fixtures / sizeof *fixtures; f++)
        for (unsigned count = 1; count <= 5; count++)
            shares_of(fixtures[f], count);
}

static void test_a_share_that_does_not_exist_is_refused(void)
{
    pw_dataset *ds;
    pw_error err;
    CHECK_EQ_INT(pw_open(fixtures[0], NULL, &ds, &err), PW_OK);
    CHECK_EQ_INT(pw_dataset_set_share(ds, 2, 2, &err), PW_E_USAGE);
    CHECK_EQ_INT(pw_dataset_set_share(ds, 0, 0, &err), PW_E_USAGE);
    pw_close(ds);
}

/* A part cut short, or from another dataset, is refused, never read past. */
static void test_a_part_that_does_not_fit_is_refused(void)
{
    pw_dataset *ds, *other;
    pw_error err;
    CHECK_EQ_INT(pw_open(fixtures[0], NULL, &ds, &err), PW_OK);
    CHECK_EQ_INT(pw_open(fixtures[1], NULL, &other, &err), PW_OK);
    void *part;
    size_t size;
    CHECK_EQ_INT(pw_stats_part(ds, &part, &size, &err), PW_OK);
    for (size_t cut = 0; cut < size; cut += 8) {
        size_t n = cut;
        char *json = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&json, &len);
        pw_report *r = pw_report_open(f, PW_REPORT_JSON);
        CHECK_EQ_INT(pw_stats_join(ds, (const void *const *)&part, &n, 1, r, &err), PW_E_USAGE);
        if (cut == 0) /* the part of another dataset */
            CHECK_EQ_INT(pw_stats_join(other, (const void *const *)&part, &size, 1, r, &err), PW_E_USAGE);
        pw_report_free(r);
        fclose(f);
        free(json);
    }
    free(part);
    pw_close(ds);
    pw_close(other);
}

TEST_MAIN(T(test_parts_join_to_the_serial_bytes), T(test_a_share_that_does_not_exist_is_refused),
          T(test_a_part_that_does_not_fit_is_refused))
