/* test_ovni_mutation.c — damaged ovni input, made from every real fixture:
 *   - the first stream of each fixture truncated at many offsets: a cut
 *     between events reads as a shorter valid stream, any other cut is
 *     reported as damage at the offset of the event it cuts (or 0 for the
 *     stream header);
 *   - bytes flipped: in the magic and version (damage at 0 / 4), in the
 *     flag nibble of an event (damage at that event), anywhere (no crash;
 *     every error names an offset);
 *   - the JSON metadata truncated and flipped: never a crash, truncation is
 *     an error with a byte offset, and the stream is still read; a flip
 *     that leaves valid JSON with a wrong value names the file and key.
 * Event boundaries are found by this test's own walker, independent of the
 * reader.  usage: test_ovni_mutation SHARED_DATA_DIR */
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "xorshift.h"
#include "blob.h"
#include "perfweave.h"

static const char *shared_dir;
static char tmp_root[256];

/* Offsets where events start, and the end of the last whole event; the
 * walk follows ovni-facts.md §2 (12-byte header, size code, jumbo). */
static size_t event_starts(const blob *b, size_t *starts, size_t max)
{
    size_t off = 8, n = 0;
    while (off + 12 <= b->n && n < max) {
        uint8_t b0 = b->p[off];
        size_t size = 12 + ((b0 & 15) ? (size_t)(b0 & 15) + 1 : 0);
        if (b0 >> 4 == 1) {
            uint32_t j = (uint32_t)b->p[off + 12] | (uint32_t)b->p[off + 13] << 8 |
                         (uint32_t)b->p[off + 14] << 16 | (uint32_t)b->p[off + 15] << 24;
            size = 16 + (size_t)j;
        }
        if (off + size > b->n)
            break;
        starts[n++] = off;
        off += size;
    }
    if (n < max)
        starts[n] = off; /* one past the last event */
    return n;
}

typedef struct outcome {
    pw_status status;
    uint64_t records;
    int error_diags;
    int errors_without_offset;
    int64_t first_error_offset;
    char first_error_code[64];
} outcome;

/* Opens path, reads everything, and sums up what happened. */
static outcome read_everything(const char *path)
{
    outcome o = {0};
    o.first_error_offset = -1;
    pw_options opt = {.format = "ovni", .threads = 1};
    pw_dataset *ds;
    pw_error e;
    o.status = pw_open(path, &opt, &ds, &e);
    if (o.status != PW_OK)
        return o;
    pw_summary s;
    CHECK_EQ_INT(pw_summarize(ds, &s, &e), PW_OK);
    o.records = s.records;
    o.status = pw_check(ds, &e);
    /* What the reader found, not what the emulator then makes of the
     * records ("ovniemu.*": a cut stream leaves its thread alive, which
     * ovniemu rejects too; tests/ovniemu covers those findings). */
    int reader_errors = 0;
    for (size_t i = 0; i < pw_dataset_diag_count(ds); i++) {
        const pw_diag *d = pw_dataset_diag(ds, i);
        if (d->severity != PW_SEV_ERROR || !strncmp(d->code, "ovniemu.", 8))
            continue;
        reader_errors++;
        if (!o.error_diags++) {
            o.first_error_offset = d->has_offset ? (int64_t)d->offset : -1;
            snprintf(o.first_error_code, sizeof o.first_error_code, "%s", d->code);
        }
        /* Binary damage always has an offset; a JSON value of the wrong
         * kind names its file and key (jansson keeps no value positions). */
        o.errors_without_offset += !d->has_offset && strcmp(d->code, "ovni.bad-metadata");
    }
    if (o.status == PW_E_DATA && !reader_errors)
        o.status = PW_OK;
    pw_close(ds);
    return o;
}

/* The first stream file and its JSON metadata files in a fixture. */
typedef struct fixture_files {
    char stream[1024];
    char json[2][1024]; /* stream.json / thread.json, metadata.json */
} fixture_files;

static int find_first_stream(const char *trace, fixture_files *ff)
{
    pw_options opt = {.format = "ovni"};
    pw_dataset *ds;
    pw_error e;
    memset(ff, 0, sizeof *ff);
    if (pw_open(trace, &opt, &ds, &e) != PW_OK)
        return 0;
    int found = 0;
    for (size_t i = 0; i < pw_location_count(ds) && !found; i++) {
        const pw_location *l = pw_location_get(ds, i);
        if (!l->has_records)
            continue;
        snprintf(ff->stream, sizeof ff->stream, "%s", l->file);
        found = 1;
    }
    pw_close(ds);
    if (!found)
        return 0;
    /* v3: stream.json beside stream.obs; v2: thread.<tid>.json + metadata.json */
    char *dot = strrchr(ff->stream, '.');
    if (strstr(ff->stream, "/stream.obs"))
        snprintf(ff->json[0], sizeof ff->json[0], "%.*sstream.json",
                 (int)(strstr(ff->stream, "stream.obs") - ff->stream), ff->stream);
    else if (dot && !strcmp(dot, ".obs"))
        snprintf(ff->json[0], sizeof ff->json[0], "%.*s.json", (int)(dot - ff->stream), ff->stream);
    char *slash = strrchr(ff->stream, '/');
    if (slash && !strstr(ff->stream, "/stream.obs"))
        snprintf(ff->json[1], sizeof ff->json[1], "%.*s/metadata.json", (int)(slash - ff->stream),
                 ff->stream);
    for (int k = 0; k < 2; k++)
        if (ff->json[k][0] && access(ff->json[k], R_OK) != 0)
            ff->json[k][0] = '\0';
    return 1;
}

static const char *lone_stream_path(void)
{
    static char path[600];
    char dir[400];
    snprintf(dir, sizeof dir, "%s/loom.x", tmp_root);
    mkdir(dir, 0700);
    snprintf(dir, sizeof dir, "%s/loom.x/proc.1", tmp_root);
    mkdir(dir, 0700);
    snprintf(dir, sizeof dir, "%s/loom.x/proc.1/thread.1", tmp_root);
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/stream.obs", dir);
    return path;
}

/* A simple deterministic generator, so failures can be reproduced. */
static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void) { return xorshift_next(&rng_state); }

static void truncations(const char *name, const blob *b, const size_t *starts, size_t nev)
{
    const char *path = lone_stream_path();
    size_t cuts[80], nc = 0;
    for (size_t i = 0; i < 10 && i < b->n; i++)
        cuts[nc++] = i; /* inside the header and the first event */
    for (size_t i = 0; i < 8 && nev; i++)
        cuts[nc++] = starts[rng() % nev]; /* clean cuts between events */
    while (nc < sizeof cuts / sizeof *cuts && b->n > 1)
        cuts[nc++] = 1 + (size_t)(rng() % (b->n - 1));
    for (size_t c = 0; c < nc; c++) {
        size_t cut = cuts[c];
        blob_write(path, b->p, cut);
        outcome o = read_everything(path);
        /* Where does the cut fall? */
        size_t lo = 0, hi = nev; /* first event starting at or after cut */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (starts[mid] < cut)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (cut < 8) {
            CHECK_EQ_INT(o.status, PW_E_DATA);
            CHECK_EQ_INT(o.first_error_offset, 0);
        } else if (lo < nev ? starts[lo] == cut : starts[nev] == cut) {
            /* a clean cut: a valid, shorter stream */
            CHECK_EQ_INT(o.status, PW_OK);
            CHECK_EQ_INT(o.records, lo);
        } else {
            CHECK_EQ_INT(o.status, PW_E_DATA);
            CHECK_STR(o.first_error_code, "ovni.truncated-event");
            CHECK_EQ_INT(o.first_error_offset, starts[lo - 1]);
            CHECK_EQ_INT(o.records, lo - 1);
        }
        if (harness_current_failed) {
            fprintf(stderr, "  (%s, truncated at %zu)\n", name, cut);
            return;
        }
    }
}

static void flips(const char *name, const blob *b, const size_t *starts, size_t nev)
{
    const char *path = lone_stream_path();
    uint8_t *m = malloc(b->n);
    for (int k = 0; k < 60; k++) {
        memcpy(m, b->p, b->n);
        size_t at;
        int64_t want_offset = -2; /* -2: any outcome, but no crash */
        if (k < 4) { /* magic */
            at = (size_t)k;
            m[at] ^= 0x20;
            want_offset = 0;
        } else if (k < 8) { /* version */
            at = 4 + (size_t)(k - 4) % 4;
            m[at] ^= 0x40;
            want_offset = 4;
        } else if (k < 20 && nev) { /* reserved flag bits of an event */
            at = starts[rng() % nev];
            m[at] |= 0x40;
            want_offset = (int64_t)at;
        } else {
            at = (size_t)(rng() % b->n);
            m[at] ^= (uint8_t)(1u << (rng() % 8));
        }
        blob_write(path, m, b->n);
        outcome o = read_everything(path);
        if (want_offset >= 0) {
            CHECK_EQ_INT(o.status, PW_E_DATA);
            CHECK_EQ_INT(o.first_error_offset, want_offset);
        }
        CHECK_EQ_INT(o.errors_without_offset, 0);
        if (harness_current_failed) {
            fprintf(stderr, "  (%s, flip at %zu)\n", name, at);
            break;
        }
    }
    free(m);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Each fixture starts from an empty scratch tree. */
static void reset_tmp(void)
{
    nftw(tmp_root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    mkdir(tmp_root, 0700);
}

/* Metadata damage: a truncated JSON file is an error with an offset; the
 * stream is read all the same. */
static void metadata_damage(const char *name, const fixture_files *ff, size_t nev)
{
    for (int k = 0; k < 2; k++) {
        if (!ff->json[k][0])
            continue;
        blob j = blob_read(ff->json[k]);
        char dir[400], stream[600], json[600];
        snprintf(dir, sizeof dir, "%s/meta", tmp_root);
        mkdir(dir, 0700);
        snprintf(dir, sizeof dir, "%s/meta/loom.x", tmp_root);
        mkdir(dir, 0700);
        snprintf(dir, sizeof dir, "%s/meta/loom.x/proc.1", tmp_root);
        mkdir(dir, 0700);
        int v3 = strstr(ff->json[k], "stream.json") != NULL;
        if (v3) {
            snprintf(dir, sizeof dir, "%s/meta/loom.x/proc.1/thread.1", tmp_root);
            mkdir(dir, 0700);
            snprintf(stream, sizeof stream, "%s/stream.obs", dir);
            snprintf(json, sizeof json, "%s/stream.json", dir);
        } else {
            snprintf(stream, sizeof stream, "%s/thread.1.obs", dir);
            snprintf(json, sizeof json, "%s/%s", dir, k == 0 ? "thread.1.json" : "metadata.json");
        }
        blob s = blob_read(ff->stream);
        blob_write(stream, s.p, s.n);
        char trace[512];
        snprintf(trace, sizeof trace, "%s/meta", tmp_root);
        for (int c = 0; c < 12; c++) {
            size_t cut = 1 + (size_t)(rng() % (j.n - 1));
            blob_write(json, j.p, cut);
            outcome o = read_everything(trace);
            CHECK_EQ_INT(o.status, PW_E_DATA);
            CHECK(o.first_error_offset >= 0 && (size_t)o.first_error_offset <= cut);
            CHECK_STR(o.first_error_code, "ovni.bad-metadata");
            CHECK_EQ_INT(o.records, nev);
            uint8_t *m = malloc(j.n);
            memcpy(m, j.p, j.n);
            m[rng() % j.n] ^= (uint8_t)(1u << (rng() % 8));
            blob_write(json, m, j.n);
            o = read_everything(trace);
            CHECK_EQ_INT(o.errors_without_offset, 0);
            free(m);
            if (harness_current_failed) {
                fprintf(stderr, "  (%s, %s cut at %zu)\n", name, ff->json[k], cut);
                break;
            }
        }
        free(s.p);
        free(j.p);
        reset_tmp();
    }
}

static void run_fixture(const char *name)
{
    reset_tmp();
    char trace[1024];
    snprintf(trace, sizeof trace, "%s/ovni/%s", shared_dir, name);
    fixture_files ff;
    if (!find_first_stream(trace, &ff)) {
        fprintf(stderr, "fixture %s: no stream found\n", trace);
        CHECK(0);
        return;
    }
    blob b = blob_read(ff.stream);
    CHECK(b.n >= 8);
    size_t *starts = malloc((b.n / 12 + 2) * sizeof *starts);
    size_t nev = event_starts(&b, starts, b.n / 12 + 1);
    CHECK_EQ_INT(starts[nev], b.n); /* the fixture itself is whole */
    truncations(name, &b, starts, nev);
    flips(name, &b, starts, nev);
    metadata_damage(name, &ff, nev);
    free(starts);
    free(b.p);
}

static void mix_100(void) { run_fixture("mix-1.0.0"); }
static void emu_141(void) { run_fixture("emu-1.4.1"); }
static void emu_1100(void) { run_fixture("emu-1.10.0"); }
static void mix_1140(void) { run_fixture("mix-1.14.0"); }
static void ct_mpi(void) { run_fixture("ctest-1.14.0/emu-mpi-func"); }
static void ct_nanos6(void) { run_fixture("ctest-1.14.0/emu-nanos6-task-types"); }
static void ct_hwc(void) { run_fixture("ctest-1.14.0/emu-nosv-hwc"); }
static void ct_openmp(void) { run_fixture("ctest-1.14.0/emu-openmp-nested-task"); }
static void ct_empty(void) { run_fixture("ctest-1.14.0/emu-ovni-empty-stream"); }
static void ct_flush(void) { run_fixture("ctest-1.14.0/emu-ovni-flush"); }
static void ct_mark(void) { run_fixture("ctest-1.14.0/emu-ovni-libovni-mark"); }
static void ct_crash(void) { run_fixture("ctest-1.14.0/emu-ovni-thread-crash"); }
static void ct_tampi(void) { run_fixture("ctest-1.14.0/emu-tampi-ss-comm"); }

static const harness_test tests[] = {
    T(mix_100), T(emu_141), T(emu_1100), T(mix_1140), T(ct_mpi), T(ct_nanos6), T(ct_hwc),
    T(ct_openmp), T(ct_empty), T(ct_flush), T(ct_mark), T(ct_crash), T(ct_tampi)};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_ovni_mutation SHARED_DATA_DIR\n");
        return 2;
    }
    shared_dir = argv[1];
    snprintf(tmp_root, sizeof tmp_root, "ovni-mutation-tmp");
    mkdir(tmp_root, 0700);
    int code = harness_run(tests, sizeof tests / sizeof *tests);
    nftw(tmp_root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return code;
}
