/* test_share.c — the library's shares without MPI: for 1 to 5 shares of
 * ovni, DUMPI, ROSS and HPCToolkit fixtures, the shares are consecutive runs that cover
 * the record locations once, and pw_stats_join of the parts of all shares
 * writes the bytes pw_stats writes (the contract perfweave-mpi relies on):
 * the formats' parts and the analyses' (the MPI profile on DUMPI, the
 * emulator's time per state on the two-loom ovni traces); and that a
 * DUMPI trace opened in two steps (pw_open_share, each share's findings
 * handed to all) is the dataset pw_open gives, each share reading only
 * its own ranks' records. */
#include <stdio.h>
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

/* The parts of the count shares ds[] joined give serial's pw_stats bytes;
 * the parts and every dataset are then released. */
static void check_joined(const char *path, pw_dataset *serial, pw_dataset **ds, void **parts, size_t *sizes,
                         unsigned count)
{
    char *want = stats_json(serial, NULL, NULL, 0);
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

static void shares_of(const char *path, unsigned count)
{
    pw_dataset *serial, *ds[8];
    pw_error err;
    pw_options opt = {.threads = 2};
    CHECK_EQ_INT(pw_open(path, &opt, &serial, &err), PW_OK);
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
    check_joined(path, serial, ds, parts, sizes, count);
}

static void test_parts_join_to_the_serial_bytes(void)
{
    for (size_t f = 0; f < sizeof fixtures / sizeof *fixtures; f++)
        for (unsigned count = 1; count <= 5; count++)
            shares_of(fixtures[f], count);
}

static const char *const dumpi_fixtures[] = {
    PW_SHARED_DATA "/dumpi/collectives4", PW_SHARED_DATA "/dumpi/threads4", PW_SHARED_DATA "/dumpi/nonblock4",
    PW_SHARED_DATA "/dumpi/upstream-v1.0.0",
};

/* Whether a and b have the same locations, properties and findings. */
static int same_dataset(const pw_dataset *a, const pw_dataset *b)
{
    int same = a->n_locs == b->n_locs && a->n_props == b->n_props && a->n_diags == b->n_diags &&
               a->time_ordered == b->time_ordered && a->worst == b->worst;
    for (size_t i = 0; same && i < a->n_locs; i++)
        same = !strcmp(a->locs[i].path, b->locs[i].path) && a->locs[i].has_records == b->locs[i].has_records;
    for (size_t i = 0; same && i < a->n_props; i++)
        same = !strcmp(a->props[i].key, b->props[i].key) && !strcmp(a->props[i].value, b->props[i].value);
    for (size_t i = 0; same && i < a->n_diags; i++) { /* the same findings, in any order */
        int found = 0;
        for (size_t j = 0; !found && j < b->n_diags; j++)
            found = !strcmp(a->diags[i].message, b->diags[j].message) && !strcmp(a->diags[i].code, b->diags[j].code);
        same = found;
    }
    return same;
}

/* count processes' two-step opens, each handed every share's findings:
 * each is the dataset pw_open gives, their parts join to pw_stats' bytes,
 * and the records read at open add up to the serial open's, each
 * process reading less than all when there are several (`whole`: each
 * reads all, the open walking every rank in every share). */
static void two_step_of(const char *path, unsigned count, int whole)
{
    pw_dataset *serial, *ds[8];
    pw_error err;
    pw_options opt = {.threads = 2};
    CHECK_EQ_INT(pw_open(path, &opt, &serial, &err), PW_OK);
    void *found[8], *parts[8];
    size_t found_sizes[8], sizes[8];
    uint64_t read = 0;
    for (unsigned i = 0; i < count; i++) {
        CHECK_EQ_INT(pw_open_share(path, &opt, i, count, &ds[i], &err), PW_OK);
        CHECK_EQ_INT(pw_dataset_share_found(ds[i], &found[i], &found_sizes[i], &err), PW_OK);
        read += pw_dataset_open_bytes(ds[i]);
        CHECK(count == 1 || whole || pw_dataset_open_bytes(ds[i]) < pw_dataset_open_bytes(serial));
    }
    CHECK_EQ_INT(read, pw_dataset_open_bytes(serial) * (whole ? count : 1));
    for (unsigned i = 0; i < count; i++) {
        CHECK_EQ_INT(pw_dataset_share_complete(ds[i], (const void *const *)found, found_sizes, count, &err), PW_OK);
        CHECK(same_dataset(serial, ds[i]));
        CHECK_EQ_INT(pw_dataset_set_share(ds[i], i, count, &err), PW_OK);
        CHECK_EQ_INT(pw_stats_part(ds[i], &parts[i], &sizes[i], &err), PW_OK);
    }
    for (unsigned i = 0; i < count; i++)
        free(found[i]);
    check_joined(path, serial, ds, parts, sizes, count);
}

static void test_a_two_step_open_gives_the_serial_dataset(void)
{
    for (size_t f = 0; f < sizeof dumpi_fixtures / sizeof *dumpi_fixtures; f++)
        for (unsigned count = 1; count <= 5; count++)
            two_step_of(dumpi_fixtures[f], count, 0);
}

/* The footer's count of calls to label 0 in a rank file's bytes set to 5
 * (no such call is in the stream: a dumpi.count-mismatch finding). */
static void miscount(uint8_t *bytes, size_t n)
{
    static const uint8_t magic[8] = {0, 0, 0, 0, 0xf0, 0x07, 0xfe, 0xe7};
    for (size_t at = 0; at + 12 <= n; at++)
        if (!memcmp(bytes + at, magic, 8)) {
            bytes[at + 11] = 5;
            return;
        }
    CHECK(!"a footer");
}

/* The whole file at path in a new buffer of *n bytes (NULL when it
 * cannot be read): fread may return fewer bytes than asked before the end. */
static uint8_t *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 8192;
    uint8_t *buf = f ? malloc(cap) : NULL;
    *n = 0;
    for (size_t got = 1; buf && got > 0;) {
        if (*n == cap) {
            uint8_t *more = realloc(buf, cap *= 2);
            if (!more) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
        }
        got = fread(buf + *n, 1, cap - *n, f);
        *n += got;
    }
    if (f && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    if (f)
        fclose(f);
    return buf;
}

/* A copy of collectives4 in a new directory under $TMPDIR (else /tmp)
 * with rank 1's file damaged: its footer miscounted (cut 0), or cut to
 * `cut` bytes (NULL when it could not be made). */
static char *damaged_copy(size_t cut)
{
    static const char *const names[] = {"collectives-2026.11.21.22.54.37.meta",
                                        "collectives-2026.11.21.22.54.37-0000.bin",
                                        "collectives-2026.11.21.22.54.37-0001.bin",
                                        "collectives-2026.11.21.22.54.37-0002.bin",
                                        "collectives-2026.11.21.22.54.37-0003.bin"};
    const char *tmp = getenv("TMPDIR");
    char tmpl[512];
    snprintf(tmpl, sizeof tmpl, "%s/pw_test_share_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    char *dir = mkdtemp(tmpl) ? strdup(tmpl) : NULL;
    for (size_t i = 0; dir && i < sizeof names / sizeof *names; i++) {
        char from[1024], to[1024];
        size_t n;
        snprintf(from, sizeof from, "%s/%s", dumpi_fixtures[0], names[i]);
        snprintf(to, sizeof to, "%s/%s", dir, names[i]);
        uint8_t *buf = read_all(from, &n);
        FILE *out = fopen(to, "wb");
        if (buf && i == 2 && cut)
            n = cut < n ? cut : n;
        else if (buf && i == 2)
            miscount(buf, n);
        CHECK(buf && out && fwrite(buf, 1, n, out) == n);
        free(buf);
        if (out)
            CHECK_EQ_INT(fclose(out), 0);
    }
    return dir;
}

static void remove_copy(char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK_EQ_INT(system(cmd), 0);
    free(dir);
}

/* A rank whose footer disagrees with its stream (the finding its walk
 * makes must reach every share), and a rank too short to have a stream
 * (the open then walks every rank in every share). */
static void test_a_damaged_trace_opens_in_two_steps_as_whole(void)
{
    size_t cuts[] = {0, 10}; /* under 16 bytes: no stream */
    for (size_t k = 0; k < 2; k++) {
        char *dir = damaged_copy(cuts[k]);
        CHECK(dir != NULL);
        for (unsigned count = 1; dir && count <= 4; count++)
            two_step_of(dir, count, cuts[k] != 0);
        if (dir)
            remove_copy(dir);
    }
}

/* The first step of collectives4's two-step open by two processes: each
 * share's dataset and what it found. */
static void open_two(pw_dataset **ds, void **found, size_t *sizes)
{
    pw_error err;
    for (unsigned i = 0; i < 2; i++) {
        CHECK_EQ_INT(pw_open_share(dumpi_fixtures[0], NULL, i, 2, &ds[i], &err), PW_OK);
        CHECK_EQ_INT(pw_dataset_share_found(ds[i], &found[i], &sizes[i], &err), PW_OK);
    }
}

static void close_two(pw_dataset **ds, void **found)
{
    for (unsigned i = 0; i < 2; i++) {
        free(found[i]);
        pw_close(ds[i]);
    }
}

/* Another share's findings cut short are refused, never read past. */
static void test_findings_that_do_not_fit_are_refused(void)
{
    pw_dataset *ds[2];
    pw_error err;
    void *found[2];
    size_t sizes[2];
    open_two(ds, found, sizes);
    for (size_t cut = 0; cut < sizes[1]; cut += 8) {
        pw_dataset *again;
        void *mine;
        size_t n[2] = {sizes[0], cut}, size;
        CHECK_EQ_INT(pw_open_share(dumpi_fixtures[0], NULL, 0, 2, &again, &err), PW_OK);
        CHECK_EQ_INT(pw_dataset_share_found(again, &mine, &size, &err), PW_OK);
        CHECK_EQ_INT(pw_dataset_share_complete(again, (const void *const *)found, n, 2, &err), PW_E_USAGE);
        free(mine);
        pw_close(again);
    }
    close_two(ds, found);
}

/* Where share 1's findings (two shares of collectives4) hold their last
 * rank's span (t_min, t_max, n_inst, n_created, creations), walking the
 * words dumpi_share.c lays out; 0 when they hold no rank. */
static size_t span_at(const uint64_t *w, size_t n)
{
    size_t p = 1, at = 0;
    for (uint64_t r = 0; n && r < w[0] && p + 5 <= n; r++) {
        p += 5 + w[p + 4];
        p += 1 + 2 * w[p];
        at = p;
        p += 4 + 5 * w[p + 3];
    }
    CHECK(at && at + 4 <= n && w[at + 3] >= 1); /* a rank with a creation */
    return at;
}

/* Share 0's two-step open completed with share 1's findings, one word of
 * them set to `value`: the status of the completion, or of pw_stats when
 * the completion took it; never a read or write past a buffer (ASan). */
static pw_status complete_with(const void *const *found, const size_t *sizes, size_t word, uint64_t value)
{
    uint64_t *copy = malloc(sizes[1]);
    memcpy(copy, found[1], sizes[1]);
    copy[word] = value;
    const void *both[2] = {found[0], copy};
    pw_dataset *ds;
    pw_error err;
    CHECK_EQ_INT(pw_open_share(dumpi_fixtures[0], NULL, 0, 2, &ds, &err), PW_OK);
    void *mine;
    size_t size;
    CHECK_EQ_INT(pw_dataset_share_found(ds, &mine, &size, &err), PW_OK);
    pw_status s = pw_dataset_share_complete(ds, both, sizes, 2, &err);
    if (s == PW_OK) {
        FILE *f = fopen("/dev/null", "w");
        pw_report *r = pw_report_open(f, PW_REPORT_JSON);
        s = pw_stats(ds, r, &err);
        pw_report_free(r);
        fclose(f);
    }
    free(mine);
    free(copy);
    pw_close(ds);
    return s;
}

/* Another share's findings whose communicator creations name instances
 * the rank does not have are refused; any other word changed never takes
 * the open past a buffer. */
static void test_findings_with_wrong_values_are_refused(void)
{
    pw_dataset *ds[2];
    void *found[2];
    size_t sizes[2];
    open_two(ds, found, sizes);
    const uint64_t *w = found[1];
    size_t at = span_at(w, sizes[1] / 8), n_inst = at + 2, first = at + 4;
    CHECK_EQ_INT(complete_with((const void *const *)found, sizes, n_inst, 0), PW_E_USAGE);
    CHECK_EQ_INT(complete_with((const void *const *)found, sizes, n_inst, 1), PW_E_USAGE);
    CHECK_EQ_INT(complete_with((const void *const *)found, sizes, n_inst, 2), PW_E_USAGE); /* below its creation */
    CHECK_EQ_INT(complete_with((const void *const *)found, sizes, first, w[n_inst]), PW_E_USAGE);     /* old_inst */
    CHECK_EQ_INT(complete_with((const void *const *)found, sizes, first + 1, w[n_inst]), PW_E_USAGE); /* new_inst */
    CHECK_EQ_INT(complete_with((const void *const *)found, sizes, first + 2, 7), PW_E_USAGE);         /* split */
    static const uint64_t values[] = {0, 1, 2, 5, UINT32_MAX, UINT64_MAX};
    for (size_t k = 0; k < sizes[1] / 8; k++)
        for (size_t v = 0; v < sizeof values / sizeof *values; v++)
            complete_with((const void *const *)found, sizes, k, values[v]);
    close_two(ds, found);
}

/* Where the 9 words of span (t_min ... the first creation) are in part;
 * 0 when they are not. */
static size_t find_span(const uint64_t *part, size_t n, const uint64_t *span)
{
    for (size_t at = 1; at + 9 <= n; at++)
        if (!memcmp(part + at, span, 9 * sizeof *span))
            return at;
    return 0;
}

/* pw_stats_join of the two shares' parts, one word of part 1 set to value. */
static pw_status join_with(pw_dataset *ds, void *const *parts, const size_t *sizes, size_t word, uint64_t value)
{
    uint64_t *copy = malloc(sizes[1]);
    memcpy(copy, parts[1], sizes[1]);
    copy[word] = value;
    const void *both[2] = {parts[0], copy};
    FILE *f = fopen("/dev/null", "w");
    pw_report *r = pw_report_open(f, PW_REPORT_JSON);
    pw_error err;
    pw_status s = pw_stats_join(ds, both, sizes, 2, r, &err);
    pw_report_free(r);
    fclose(f);
    free(copy);
    return s;
}

/* An MPI profile part whose communicator creations name instances the
 * rank does not have is refused, never replayed past a buffer. */
static void test_a_profile_part_with_wrong_values_is_refused(void)
{
    pw_dataset *two[2], *ds[2];
    pw_error err;
    void *found[2], *parts[2];
    size_t found_sizes[2], sizes[2];
    for (unsigned i = 0; i < 2; i++) { /* the span of share 1's last rank, as its findings hold it */
        CHECK_EQ_INT(pw_open_share(dumpi_fixtures[0], NULL, i, 2, &two[i], &err), PW_OK);
        CHECK_EQ_INT(pw_dataset_share_found(two[i], &found[i], &found_sizes[i], &err), PW_OK);
        CHECK_EQ_INT(pw_open(dumpi_fixtures[0], NULL, &ds[i], &err), PW_OK);
        CHECK_EQ_INT(pw_dataset_set_share(ds[i], i, 2, &err), PW_OK);
        CHECK_EQ_INT(pw_stats_part(ds[i], &parts[i], &sizes[i], &err), PW_OK);
    }
    const uint64_t *span = (const uint64_t *)found[1] + span_at(found[1], found_sizes[1] / 8);
    size_t at = find_span(parts[1], sizes[1] / 8, span), n_inst = at + 2, first = at + 4;
    CHECK(at != 0);
    if (at) {
        CHECK_EQ_INT(join_with(ds[0], parts, sizes, n_inst, 0), PW_E_USAGE);
        CHECK_EQ_INT(join_with(ds[0], parts, sizes, n_inst, 2), PW_E_USAGE);
        CHECK_EQ_INT(join_with(ds[0], parts, sizes, first, span[2]), PW_E_USAGE);
        CHECK_EQ_INT(join_with(ds[0], parts, sizes, first + 1, span[2]), PW_E_USAGE);
    }
    static const uint64_t values[] = {0, 1, 2, UINT32_MAX, UINT64_MAX};
    for (size_t k = 0; k < sizes[1] / 8; k++)
        for (size_t v = 0; v < sizeof values / sizeof *values; v++)
            join_with(ds[0], parts, sizes, k, values[v]);
    for (unsigned i = 0; i < 2; i++) {
        free(found[i]);
        free(parts[i]);
        pw_close(two[i]);
        pw_close(ds[i]);
    }
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

/* A two-step open walked its share's ranks only: setting another share
 * (another index, another count) is refused with a message saying which
 * share the open walked, and the same share is taken; an open that was
 * whole takes any share. */
static void test_only_the_share_the_open_walked_can_be_set(void)
{
    pw_dataset *ds[2], *whole;
    pw_error err;
    void *found[2];
    size_t sizes[2];
    open_two(ds, found, sizes);
    for (unsigned i = 0; i < 2; i++)
        CHECK_EQ_INT(pw_dataset_share_complete(ds[i], (const void *const *)found, sizes, 2, &err), PW_OK);
    CHECK_EQ_INT(pw_dataset_set_share(ds[0], 1, 2, &err), PW_E_USAGE);
    CHECK(strstr(err.message, "the open walked [0, 3)") != NULL); /* collectives4's ranks by bytes: 3 and 1 */
    CHECK_EQ_INT(pw_dataset_set_share(ds[1], 0, 3, &err), PW_E_USAGE);
    CHECK_EQ_INT(pw_dataset_set_share(ds[0], 0, 1, &err), PW_E_USAGE);
    for (unsigned i = 0; i < 2; i++)
        CHECK_EQ_INT(pw_dataset_set_share(ds[i], i, 2, &err), PW_OK);
    CHECK_EQ_INT(pw_open(dumpi_fixtures[0], NULL, &whole, &err), PW_OK);
    CHECK_EQ_INT(pw_dataset_set_share(whole, 1, 3, &err), PW_OK);
    pw_close(whole);
    close_two(ds, found);
}

TEST_MAIN(T(test_parts_join_to_the_serial_bytes), T(test_a_share_that_does_not_exist_is_refused),
          T(test_a_part_that_does_not_fit_is_refused), T(test_a_two_step_open_gives_the_serial_dataset),
          T(test_findings_that_do_not_fit_are_refused), T(test_a_damaged_trace_opens_in_two_steps_as_whole),
          T(test_findings_with_wrong_values_are_refused), T(test_a_profile_part_with_wrong_values_is_refused),
          T(test_only_the_share_the_open_walked_can_be_set))
