/* test_dumpi_mutations.c — damaged copies of a rank file of every
 * fixture: truncations at many offsets and byte flips.  Nothing may
 * crash (the ASan build runs this too); a truncated file must be reported
 * as damaged with a byte offset; any reported damage carries an offset. */
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "perfweave.h"

static const char *const fixtures[] = {
    "pingpong4/pingpong-2026.11.21.22.45.31-0000.bin",
    "nonblock4/nonblock-2026.11.21.22.54.36-0001.bin",
    "collectives4/collectives-2026.11.21.22.54.37-0002.bin",
    "collectives4-notime-nostatus/coll-notime-2026.11.21.22.57.55-0002.bin",
    "nonblock4-cputime/nb-cpu-2026.11.21.22.57.56-0003.bin",
    "threads4/threads-2026.11.21.23.17.59-0001.bin",
    "collectives4-papi/coll-papi-2026.11.21.23.01.22-0002.bin",
    "upstream-v1.0.0/testtrace-0000.bin",
};

static unsigned char *load(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = malloc(1 << 20);
    *n = buf ? fread(buf, 1, 1 << 20, f) : 0;
    fclose(f);
    return buf;
}

static char tmp[128];

/* Writes bytes to the temp file, opens, checks and reads every record
 * with its fields.  Returns the check status (PW_OK or PW_E_DATA). */
static int run_on(const unsigned char *bytes, size_t n, int *damage_has_offset)
{
    FILE *f = fopen(tmp, "wb");
    if (!f || fwrite(bytes, 1, n, f) != n) {
        if (f)
            fclose(f);
        return -100;
    }
    fclose(f);
    pw_options opt = {.format = "dumpi", .threads = 1};
    pw_dataset *ds = NULL;
    pw_error err;
    pw_status s = pw_open(tmp, &opt, &ds, &err);
    if (s != PW_OK)
        return s == PW_E_DATA ? PW_E_DATA : -101;
    s = pw_check(ds, &err);
    for (size_t l = 0; l < pw_location_count(ds); l++) {
        pw_cursor *c;
        if (!pw_location_get(ds, l)->has_records || pw_cursor_open(ds, (uint32_t)l, &c, &err) != PW_OK)
            continue;
        const pw_record *rec;
        while (pw_cursor_next(c, &rec, &err) == PW_OK)
            (void)pw_record_fields(rec);
        pw_cursor_close(c);
    }
    *damage_has_offset = 0;
    for (size_t i = 0; i < pw_dataset_diag_count(ds); i++) {
        const pw_diag *d = pw_dataset_diag(ds, i);
        if (d->severity == PW_SEV_ERROR && d->has_offset)
            *damage_has_offset = 1;
    }
    pw_close(ds);
    return s;
}

static void test_truncations(void)
{
    for (size_t k = 0; k < sizeof fixtures / sizeof *fixtures; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/dumpi/%s", PW_SHARED_DATA, fixtures[k]);
        size_t n = 0;
        unsigned char *bytes = load(path, &n);
        CHECK(bytes && n > 100); /* a missing fixture fails */
        if (!bytes)
            continue;
        size_t stride = n / 60 + 1;
        for (size_t cut = 1; cut < n; cut += cut < 40 || cut > n - 72 ? 1 : stride) {
            int has_off = 0;
            int s = run_on(bytes, cut, &has_off);
            CHECK_EQ_INT(s, PW_E_DATA);
            if (!has_off)
                fprintf(stderr, "%s cut at %zu: damage without an offset\n", fixtures[k], cut);
            CHECK(has_off);
        }
        free(bytes);
    }
}

static void test_byte_flips(void)
{
    uint32_t seed = 12345;
    for (size_t k = 0; k < sizeof fixtures / sizeof *fixtures; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/dumpi/%s", PW_SHARED_DATA, fixtures[k]);
        size_t n = 0;
        unsigned char *bytes = load(path, &n);
        CHECK(bytes && n > 100);
        if (!bytes)
            continue;
        for (int i = 0; i < 100; i++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % n;
            unsigned char old = bytes[at];
            bytes[at] ^= (unsigned char)(1 + (seed >> 3) % 255);
            int has_off = 1;
            int s = run_on(bytes, n, &has_off);
            CHECK(s == PW_OK || s == PW_E_DATA);
            if (s == PW_E_DATA && !has_off)
                fprintf(stderr, "%s flip at %zu: damage without an offset\n", fixtures[k], at);
            CHECK(s == PW_OK || has_off);
            bytes[at] = old;
        }
        free(bytes);
    }
}

/* In /dev/shm when there is one: thousands of small writes. */
static void test_setup(void)
{
    const char *d = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : ".";
    snprintf(tmp, sizeof tmp, "%s/dumpi-mut-%d-0000.bin", d, (int)getpid());
}
static void test_cleanup(void) { CHECK_EQ_INT(unlink(tmp), 0); }

TEST_MAIN(T(test_setup), T(test_truncations), T(test_byte_flips), T(test_cleanup))
