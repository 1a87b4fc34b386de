/* test_ross_damage.c — damaged ROSS files: truncations at many offsets and
 * byte flips of every fixture never crash (the ASan build runs this too);
 * a truncation inside a record and a broken sample header are errors that
 * name the file and the exact offset, and reading resumes after a broken
 * header.  Also: the pre-2023 36-byte LP layout, made from the 48-byte
 * fixture, reads back to the same values, and --ross-lp-layout forces it. */
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/bytes.h"
#include "harness.h"
#include "model/dataset.h"

#define PREFIX_LIMIT (48 * 1024) /* mutate at most this prefix of a fixture */

static const char *const fixtures[] = {
    "phold-np2-gvt-pekp/phold-np2-gvt-pekp-gvt.bin",
    "phold-np2-rt-pekp/phold-np2-rt-pekp-rt.bin",
    "phold-np2-evtrace-full/phold-np2-evtrace-full-evtrace.bin",
    "phold-np2-model/phold-np2-model-model.bin",
    "known-np1-seq/known-np1-seq-analysis-lps.bin",
    "known-np1-seq/known-np1-seq-evtrace.bin",
    "known-np1-seq/known-np1-seq-model.bin",
    "known-np4-gvt-model-evtrace/known-np4-gvt-model-evtrace-gvt.bin",
    "known-np4-gvt-model-evtrace/known-np4-gvt-model-evtrace-model.bin",
    "known-np4-gvt-model-evtrace/known-np4-gvt-model-evtrace-evtrace.bin",
    "known-np2-vt/known-np2-vt-analysis-lps.bin",
};

static char tmpdir[256];

static uint8_t *load(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(len > 0 ? (size_t)len : 1);
    *n = b && fread(b, 1, (size_t)len, f) == (size_t)len ? (size_t)len : 0;
    fclose(f);
    return b;
}

static const char *put(const char *name, const uint8_t *b, size_t n)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK(fwrite(b, 1, n, f) == n);
        fclose(f);
    }
    return path;
}

typedef struct read_result {
    int opened;
    uint64_t records;
    int errors;          /* error-level diagnostics */
    int errors_located;  /* ... that carry a byte offset */
    uint64_t first_error_offset;
    double fingerprint;  /* sum of every numeric field value */
    uint8_t *ends;       /* when not NULL: ends[off] = 1 for every record end */
} read_result;

/* Opens path (with one option, when key is set) and reads every record. */
static read_result read_all(const char *path, const char *key, const char *value, size_t len,
                            int want_ends)
{
    read_result r = {0};
    pw_option_kv kv = {key, value};
    pw_options opt = {.format = "ross", .n_kv = key ? 1 : 0, .kv = &kv};
    pw_dataset *ds;
    pw_error e;
    if (pw_open(path, &opt, &ds, &e) != PW_OK)
        return r;
    r.opened = 1;
    if (want_ends)
        r.ends = calloc(len + 1, 1);
    for (size_t i = 0; i < pw_location_count(ds); i++) {
        pw_cursor *c;
        if (!pw_location_get(ds, i)->has_records || pw_cursor_open(ds, (uint32_t)i, &c, &e) != PW_OK)
            continue;
        const pw_record *rec;
        while (pw_cursor_next(c, &rec, &e) == PW_OK) {
            const pw_value *v = pw_record_fields(rec);
            const pw_schema *sc = pw_schema_get(ds, rec->schema);
            for (size_t f = 0; f < sc->n_fields; f++)
                r.fingerprint += !v[f].present            ? 0
                                 : v[f].type == PW_T_F64 ? v[f].v.f
                                 : v[f].type == PW_T_U64 ? (double)v[f].v.u
                                                         : 0;
            r.records++;
            if (r.ends && rec->offset + rec->size <= len)
                r.ends[rec->offset + rec->size] = 1;
        }
        pw_cursor_close(c);
    }
    for (size_t i = 0; i < pw_dataset_diag_count(ds); i++) {
        const pw_diag *d = pw_dataset_diag(ds, i);
        if (d->severity != PW_SEV_ERROR)
            continue;
        if (!r.errors++)
            r.first_error_offset = d->offset;
        r.errors_located += d->has_offset && d->file && strstr(d->message, "offset") != NULL;
    }
    pw_close(ds);
    return r;
}

/* A fixture under ross/ (NULL, and a failed check, when missing). */
static uint8_t *load_fixture(const char *rel, size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/ross/%s", PW_SHARED_DATA_DIR, rel);
    *n = 0;
    uint8_t *b = load(path, n);
    CHECK(b != NULL && *n > 0);
    if (b && !*n) {
        free(b);
        b = NULL;
    }
    return b;
}

#define NP4_GVT "known-np4-gvt-model-evtrace/known-np4-gvt-model-evtrace-gvt.bin"

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The longest prefix of the fixture that ends on a record boundary and is
 * at most PREFIX_LIMIT bytes; *ends gets its record ends. */
static size_t valid_prefix(const char *name, const uint8_t *b, size_t n, uint8_t **ends)
{
    read_result full = read_all(put(name, b, n), NULL, NULL, n, 1);
    CHECK(full.opened && full.errors == 0 && full.records > 0);
    size_t cut = 0;
    for (size_t i = 1; full.ends && i <= n && i <= PREFIX_LIMIT; i++)
        if (full.ends[i])
            cut = i;
    *ends = full.ends;
    return cut;
}

static void truncations(const char *name, const uint8_t *b, size_t n, const uint8_t *ends)
{
    for (size_t k = 1; k < 97; k++) {
        size_t cut = n * k / 97;
        read_result r = read_all(put(name, b, cut), NULL, NULL, cut, 0);
        CHECK(r.opened);
        if (ends[cut] || cut == 0) {
            CHECK_EQ_INT(r.errors, 0);
        } else {
            CHECK(r.errors >= 1);
            CHECK_EQ_INT(r.errors, r.errors_located);
        }
    }
}

static void byte_flips(const char *name, const uint8_t *b, size_t n)
{
    uint8_t *m = malloc(n);
    uint32_t seed = 12345;
    for (int k = 0; k < 60 && m; k++) {
        memcpy(m, b, n);
        for (int j = 0; j < 1 + k % 4; j++) {
            seed = seed * 1103515245u + 12345u;
            m[(seed >> 8) % n] ^= (uint8_t)(1u << (seed >> 4 & 7));
        }
        read_result r = read_all(put(name, m, n), NULL, NULL, n, 0);
        CHECK(r.opened);
        CHECK_EQ_INT(r.errors, r.errors_located);
    }
    free(m);
}

static void test_mutations(void)
{
    for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++) {
        size_t n;
        uint8_t *b = load_fixture(fixtures[i], &n);
        if (!b)
            continue;
        uint8_t *ends = NULL;
        size_t cut = valid_prefix(base_name(fixtures[i]), b, n, &ends);
        CHECK(cut > 0);
        if (cut) {
            truncations(base_name(fixtures[i]), b, cut, ends);
            byte_flips(base_name(fixtures[i]), b, cut);
        }
        free(ends);
        free(b);
    }
}

/* A broken sample flag in the middle of a gvt file: one error at exactly
 * that offset, and every other record is still read. */
static void test_bad_flag_resync(void)
{
    size_t n;
    uint8_t *b = load_fixture(NP4_GVT, &n);
    if (!b)
        return;
    read_result full = read_all(put("x-gvt.bin", b, n), NULL, NULL, n, 1);
    size_t bad = n / 2;
    while (bad < n && !full.ends[bad])
        bad++;
    CHECK(bad < n);
    b[bad] = 7; /* flag 7: no such sample type */
    read_result r = read_all(put("x-gvt.bin", b, n), NULL, NULL, n, 0);
    CHECK_EQ_INT(r.errors, 1);
    CHECK_EQ_INT(r.first_error_offset, bad);
    CHECK_EQ_INT(r.records, full.records - 1);
    free(full.ends);
    free(b);
}

/* Rewrites every 48-byte LP sample as a 36-byte one (dropping the
 * uninitialised u64 and padding); returns the new length. */
static size_t to_old_lp_layout(const uint8_t *in, size_t n, uint8_t *out)
{
    size_t i = 0, o = 0;
    while (i + 8 <= n) {
        uint32_t flag = pw_le32(in + i), sz = pw_le32(in + i + 4);
        if (flag == 2 && sz == 48) {
            memcpy(out + o, in + i, 24 + 32);
            out[o + 4] = 36;
            memcpy(out + o + 56, in + i + 24 + 40, 4); /* efficiency */
            o += 60;
        } else {
            memcpy(out + o, in + i, 24 + sz);
            o += 24 + sz;
        }
        i += 24 + sz;
    }
    return o;
}

static void test_old_lp_layout(void)
{
    size_t n;
    uint8_t *b = load_fixture(NP4_GVT, &n);
    uint8_t *old = malloc(n ? n : 1);
    if (!b || !old) {
        free(b);
        free(old);
        return;
    }
    size_t m = to_old_lp_layout(b, n, old);
    CHECK(m < n);
    read_result r48 = read_all(put("new-gvt.bin", b, n), NULL, NULL, n, 0);
    read_result r36 = read_all(put("old-gvt.bin", old, m), NULL, NULL, m, 0);
    CHECK_EQ_INT(r48.records, 268 + 1072 + 2144);
    CHECK_EQ_INT(r36.records, r48.records);
    CHECK(r48.fingerprint == r36.fingerprint);
    CHECK_EQ_INT(r48.errors + r36.errors, 0);
    read_result forced = read_all(put("old-gvt.bin", old, m), "ross.lp_layout", "36", m, 0);
    CHECK_EQ_INT(forced.records, r48.records);
    CHECK_EQ_INT(forced.errors, 0);
    /* Forcing the other layout: every LP sample is damage. */
    read_result wrong = read_all(put("old-gvt.bin", old, m), "ross.lp_layout", "48", m, 0);
    CHECK(wrong.errors >= 1);
    CHECK(wrong.records < r48.records);
    free(b);
    free(old);
}

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/pw-ross-damage-%d", (int)getpid());
    mkdir(tmpdir, 0700);
}

static void teardown(void)
{
    static const char *const names[] = {"x-gvt.bin", "new-gvt.bin", "old-gvt.bin"};
    char path[512];
    for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, base_name(fixtures[i]));
        unlink(path);
    }
    for (size_t i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        unlink(path);
    }
    rmdir(tmpdir);
}

TEST_MAIN({"setup", setup}, {"mutations", test_mutations}, {"bad_flag_resync", test_bad_flag_resync},
          {"old_lp_layout", test_old_lp_layout}, {"teardown", teardown})
