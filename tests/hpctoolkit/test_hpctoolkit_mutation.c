/* test_hpctoolkit_mutation.c — damaged HPCToolkit databases made from the
 * real fixtures: each file of a database (meta.db or experiment.xml,
 * profile.db, cct.db, trace.db, or the old format's *.metric-db) truncated
 * at many offsets and with bytes
 * flipped, the others left intact.  Whatever the damage: no crash (the
 * ASan build runs this too), open fails only with PW_E_DATA or PW_E_FORMAT,
 * PW_E_DATA names a byte offset, check/stats/frames run to the end, and a
 * damaged result has at least one error that names an offset.
 * usage: test_hpctoolkit_mutation SHARED_DATA_DIR */
#define _XOPEN_SOURCE 700 /* nftw */
#include <dirent.h>
#include <ftw.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "blob.h"
#include "perfweave.h"

static const char *shared_dir;
#define MAX_FILES 16

/* dir/name replaced by p[0..n). */
static void write_file(const char *dir, const char *name, const uint8_t *p, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    blob_write(path, p, n);
}

/* Reads everything the way the CLI would: check (all records), stats, and
 * the trace as frames. */
static int exercise(const char *dir, int frames)
{
    pw_option_kv kv = {"hpctoolkit.frames", "1"};
    pw_options opt = {.threads = 1, .n_kv = frames ? 1 : 0, .kv = &kv};
    pw_dataset *ds;
    pw_error err;
    pw_status s = pw_open(dir, &opt, &ds, &err);
    if (s != PW_OK) {
        CHECK(s == PW_E_DATA || s == PW_E_FORMAT);
        if (s == PW_E_DATA && !err.has_offset)
            fprintf(stderr, "no offset: %s\n", err.message);
        CHECK(s != PW_E_DATA || err.has_offset);
        return 1;
    }
    s = pw_check(ds, &err);
    CHECK(s == PW_OK || s == PW_E_DATA);
    pw_report *r = pw_report_new();
    CHECK(pw_stats(ds, r, &err) == PW_OK);
    FILE *null = fopen("/dev/null", "w");
    s = pw_report_write(r, null, PW_REPORT_JSON, &err);
    if (s != PW_OK)
        fprintf(stderr, "report: %s\n", err.message);
    CHECK(s == PW_OK);
    fclose(null);
    pw_report_free(r);
    int errors = 0, with_offset = 0;
    for (size_t i = 0; i < pw_dataset_diag_count(ds); i++) {
        const pw_diag *d = pw_dataset_diag(ds, i);
        errors += d->severity == PW_SEV_ERROR;
        with_offset += d->severity == PW_SEV_ERROR && d->has_offset;
    }
    if (errors && !with_offset)
        fprintf(stderr, "no offset in %d errors: %s\n", errors, pw_dataset_diag(ds, 0)->message);
    CHECK(!errors || with_offset);
    pw_close(ds);
    return errors > 0;
}

/* Truncations every `step` bytes and single-byte flips every `flip_step`
 * bytes of file `which`; returns how many variants were reported damaged. */
static int mutate(const char *tmp, blob *files, char **names, size_t which, size_t step,
                  size_t flip_step)
{
    blob *b = &files[which];
    int damaged = 0, runs = 0;
    for (size_t cut = 0; cut < b->n; cut += step, runs++) {
        write_file(tmp, names[which], b->p, cut);
        damaged += exercise(tmp, runs % 2);
    }
    for (size_t at = 3; at < b->n; at += flip_step, runs++) {
        uint8_t saved = b->p[at];
        b->p[at] ^= (uint8_t)(0x5A ^ (at & 0xFF));
        write_file(tmp, names[which], b->p, b->n);
        b->p[at] = saved;
        exercise(tmp, runs % 2);
    }
    write_file(tmp, names[which], b->p, b->n);
    return damaged;
}

static int remove_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(p);
}

static void run_fixture(const char *rel)
{
    char src[1024], tmp[256];
    snprintf(src, sizeof src, "%s/hpctoolkit/%s", shared_dir, rel);
    snprintf(tmp, sizeof tmp, "hpctoolkit-mutation-%d", (int)getpid());
    mkdir(tmp, 0700);
    /* every file the reader reads (FORMATS.md and metrics/ are not read) */
    blob files[MAX_FILES];
    char *names[MAX_FILES];
    size_t present = 0;
    /* by name, not in directory order, so that every machine mutates the
     * same files in the same order */
    struct dirent **entries;
    int n_entries = scandir(src, &entries, NULL, alphasort);
    for (int k = 0; k < n_entries; k++) {
        const char *name = entries[k]->d_name;
        const char *dot = strrchr(name, '.');
        if (present < MAX_FILES && dot &&
            (!strcmp(dot, ".db") || !strcmp(dot, ".xml") || !strcmp(dot, ".metric-db"))) {
            char path[1400];
            snprintf(path, sizeof path, "%s/%s", src, name);
            files[present] = blob_read(path);
            names[present] = strdup(name);
            write_file(tmp, names[present], files[present].p, files[present].n);
            present++;
        }
        free(entries[k]);
    }
    if (n_entries >= 0)
        free(entries);
    CHECK(present >= 3); /* a missing fixture fails */
    CHECK(exercise(tmp, 0) == 0); /* the intact copy reads clean */
    for (size_t i = 0; i < present; i++) {
        /* about 40 cuts and 100 flips per file, whatever its size */
        size_t step = files[i].n / 40 + 1, flip = files[i].n / 100 + 1;
        int damaged = mutate(tmp, files, names, i, step, flip);
        CHECK(damaged > 0); /* truncation is noticed */
        free(files[i].p);
        free(names[i]);
    }
    nftw(tmp, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void small_d(void) { run_fixture("hpctoolkit/tests-data-dbase@f9abaf11f/small.d"); }
static void cuda(void) { run_fixture("hpctoolkit/tests-data-dbase@f9abaf11f/loops-cuda-nvidia-t.d"); }
static void pingpong_v4(void) { run_fixture("pipit/ping-pong-hpctoolkit@05d9563-v4"); }
static void prototype(void) { run_fixture("pipit/ping-pong-hpctoolkit@7283ee4-prototype"); }
static void small_v40(void) { run_fixture("hpctoolkit/small_v4.0@5c1005fbe"); }
static void old_xml(void) { run_fixture("hatchet/hpctoolkit-cpi-database@79c009b"); }

static const harness_test tests[] = {T(small_d), T(cuda), T(pingpong_v4), T(prototype),
                                     T(small_v40), T(old_xml)};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_hpctoolkit_mutation SHARED_DATA_DIR\n");
        return 2;
    }
    shared_dir = argv[1];
    int code = harness_run(tests, sizeof tests / sizeof *tests);
    return code;
}
