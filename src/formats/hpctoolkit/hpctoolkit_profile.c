/* hpctoolkit_profile.c — profile.db: the profile infos and identifier
 * tuples (read at open), and access to one profile's sparse value block
 * (context index and values), by binary search, never densified.
 *
 * Released (FORMATS.md): little-endian, {PI} of szProfile bytes, values
 * (u16 metric, f64), index (u32 ctx, u64 start), the last range ending at
 * nValues.  Prototype (seed document + facts §2): big-endian, 52-byte infos,
 * values (f64, u16 metric), index followed by an end marker "end!" and the
 * end index. */
#include <stdio.h>
#include <string.h>

#include "core/bytes.h"
#include "core/error.h"
#include "formats/hpctoolkit/hpctoolkit.h"

#define PROTO_END_MARKER 0x656E6421u

/* Renders a tuple's identifications as a location path, "NODE.0/RANK.1". */
typedef struct tuple_text {
    char buf[512];
    size_t n;
} tuple_text;

static void tuple_append(tuple_text *t, const hpc_dataset *h, unsigned kind, uint64_t id)
{
    char kbuf[16];
    const char *kname = kind < h->n_kind_names && h->kind_names[kind] ? h->kind_names[kind] : NULL;
    if (!kname) {
        snprintf(kbuf, sizeof kbuf, "KIND%u", kind);
        kname = kbuf;
    }
    int w = snprintf(t->buf + t->n, sizeof t->buf - t->n, "%s%s.%llu", t->n ? "/" : "", kname,
                     (unsigned long long)id);
    if (w > 0)
        t->n += (size_t)w < sizeof t->buf - t->n ? (size_t)w : sizeof t->buf - t->n - 1;
}

/* Released tuple: u16 nIds, padding to 8, nIds x {u8 kind, pad, u16 flags,
 * u32 logical, u64 physical}. */
static pw_status read_tuple_released(hpc_dataset *h, hpc_file *f, uint64_t field, uint64_t at,
                                     uint64_t lo, uint64_t hi, tuple_text *t, pw_error *err)
{
    const uint8_t *b;
    pw_status s = hpc_within(f, field, at, 8, lo, hi, "identifier tuple", err);
    if (s == PW_OK)
        s = hpc_need(f, at, 8, &b, "identifier tuple", err);
    if (s != PW_OK)
        return s;
    uint16_t n = pw_le16(b);
    if ((s = hpc_within(f, at, at + 8, 16ull * n, lo, hi, "identifier tuple entries", err)) != PW_OK)
        return s;
    for (uint16_t i = 0; i < n; i++) {
        if ((s = hpc_need(f, at + 8 + 16ull * i, 16, &b, "identifier", err)) != PW_OK)
            return s;
        tuple_append(t, h, b[0], pw_le32(b + 4));
    }
    return PW_OK;
}

/* Prototype tuple: u16 len, len x {u16 kind (bits 14-15 are flags), u64
 * physical, u64 logical}. */
static pw_status read_tuple_prototype(hpc_dataset *h, hpc_file *f, uint64_t field, uint64_t at,
                                      uint64_t lo, uint64_t hi, tuple_text *t, pw_error *err)
{
    const uint8_t *b;
    pw_status s = hpc_within(f, field, at, 2, lo, hi, "identifier tuple", err);
    if (s == PW_OK)
        s = hpc_need(f, at, 2, &b, "identifier tuple", err);
    if (s != PW_OK)
        return s;
    uint16_t n = pw_be16(b);
    if ((s = hpc_within(f, at, at + 2, 18ull * n, lo, hi, "identifier tuple entries", err)) != PW_OK)
        return s;
    for (uint16_t i = 0; i < n; i++) {
        if ((s = hpc_need(f, at + 2 + 18ull * i, 18, &b, "identifier", err)) != PW_OK)
            return s;
        tuple_append(t, h, pw_be16(b) & 0x3FFF, pw_be64(b + 10));
    }
    return PW_OK;
}

static pw_status name_profile(pw_dataset *ds, hpc_profile *p, uint32_t i, const tuple_text *t,
                              pw_error *err)
{
    char buf[600];
    if (p->summary)
        snprintf(buf, sizeof buf, i == 0 ? "summary" : "summary.%u", i);
    else
        snprintf(buf, sizeof buf, "%s", t->n ? t->buf : "untitled");
    p->tuple = pw_ds_strdup(ds, buf);
    return p->tuple ? PW_OK : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
}

static pw_status alloc_profiles(pw_dataset *ds, hpc_dataset *h, uint64_t n, uint64_t min_size,
                                hpc_file *f, pw_error *err)
{
    if (n * min_size > f->w.file_size)
        return pw_fail(err, PW_E_DATA, f->path, PW_NO_OFFSET,
                       "%llu profiles cannot fit in a file of %llu bytes", (unsigned long long)n,
                       (unsigned long long)f->w.file_size);
    h->profs = pw_ds_alloc(ds, (n ? n : 1) * sizeof *h->profs);
    h->n_profs = (uint32_t)n;
    return h->profs ? PW_OK : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
}

/* A value block must lie in the file: values, then the index. */
static pw_status check_block(hpc_file *f, const hpc_profile *p, uint64_t index_extra,
                             pw_error *err)
{
    if (p->n_values > f->w.file_size / 10 || p->n_ctxs > f->w.file_size / 12)
        return pw_fail(err, PW_E_DATA, f->path, (int64_t)p->info_off,
                       "profile: %llu values and %u contexts cannot fit in the file",
                       (unsigned long long)p->n_values, p->n_ctxs);
    pw_status s = hpc_within(f, p->info_off, p->p_values, 10 * p->n_values, 0, f->w.file_size,
                             "profile values", err);
    return s != PW_OK ? s
                      : hpc_within(f, p->info_off, p->p_index, 12ull * p->n_ctxs + index_extra, 0,
                                   f->w.file_size, "profile context index", err);
}

static pw_status read_released(pw_dataset *ds, hpc_dataset *h, hpc_file *f, pw_error *err)
{
    const uint8_t *b;
    pw_status s = hpc_need(f, 0, 0x30, &b, "profile.db header", err);
    if (s != PW_OK)
        return s;
    if (memcmp(b, "HPCTOOLKIT", 10) || memcmp(b + 10, "prof", 4) || b[14] != 4)
        return pw_fail(err, PW_E_DATA, f->path, 0, "magic \"HPCTOOLKITprof\" version 4 expected");
    uint64_t szi = pw_le64(b + 0x10), pi = pw_le64(b + 0x18);
    uint64_t szt = pw_le64(b + 0x20), pt = pw_le64(b + 0x28);
    if ((s = hpc_within(f, 0x10, pi, szi, 0, f->w.file_size, "section ProfileInfos", err)) ||
        (s = hpc_within(f, 0x20, pt, szt, 0, f->w.file_size, "section IdTuples", err)) ||
        (s = hpc_need(f, pi, 0xd, &b, "profile infos header", err)))
        return s;
    uint64_t pp = pw_le64(b);
    uint32_t n = pw_le32(b + 8);
    uint8_t sz = b[0xc];
    if (sz < 0x2c)
        return pw_fail(err, PW_E_DATA, f->path, (int64_t)pi + 0xc,
                       "profile info size %u smaller than version 4.0's 0x30", sz);
    if ((s = hpc_within(f, pi, pp, (uint64_t)n * sz, pi, pi + szi, "profile info array", err)) ||
        (s = alloc_profiles(ds, h, n, sz, f, err)))
        return s;
    for (uint32_t i = 0; i < n; i++) {
        hpc_profile *p = &h->profs[i];
        p->info_off = pp + (uint64_t)i * sz;
        if ((s = hpc_need(f, p->info_off, 0x2c, &b, "profile info", err)) != PW_OK)
            return s;
        p->n_values = pw_le64(b);
        p->p_values = pw_le64(b + 8);
        p->n_ctxs = pw_le32(b + 0x10);
        p->p_index = pw_le64(b + 0x18);
        uint64_t ptuple = pw_le64(b + 0x20);
        p->summary = (pw_le32(b + 0x28) & 1) != 0;
        p->path = h->profile_path;
        p->trace = HPC_NONE;
        tuple_text t = {.n = 0};
        if (ptuple && (s = read_tuple_released(h, f, p->info_off + 0x20, ptuple, pt, pt + szt, &t, err)))
            return s;
        if ((s = check_block(f, p, 0, err)) || (s = name_profile(ds, p, i, &t, err)))
            return s;
    }
    return PW_OK;
}

static pw_status read_prototype(pw_dataset *ds, hpc_dataset *h, hpc_file *f, pw_error *err)
{
    const uint8_t *b;
    pw_status s = hpc_need(f, 0, 56, &b, "profile.db header", err);
    if (s != PW_OK)
        return s;
    if (memcmp(b, "HPCPROF-profdb__", 16))
        return pw_fail(err, PW_E_DATA, f->path, 0, "magic \"HPCPROF-profdb__\" expected");
    uint32_t n = pw_be32(b + 18);
    uint64_t szi = pw_be64(b + 24), pi = pw_be64(b + 32);
    uint64_t szt = pw_be64(b + 40), pt = pw_be64(b + 48);
    if ((s = pw_ds_set_propf(ds, err, "profile.db version", "%u.%u", b[16], b[17])) ||
        (s = hpc_within(f, 32, pi, 52ull * n, 0, f->w.file_size, "profile info section", err)) ||
        (s = hpc_within(f, 48, pt, szt, 0, f->w.file_size, "identifier tuple section", err)) ||
        (s = alloc_profiles(ds, h, n, 52, f, err)))
        return s;
    if (52ull * n > szi)
        return pw_fail(err, PW_E_DATA, f->path, 24, "profile info section of %llu bytes cannot hold %u profiles",
                       (unsigned long long)szi, n);
    for (uint32_t i = 0; i < n; i++) {
        hpc_profile *p = &h->profs[i];
        p->info_off = pi + 52ull * i;
        if ((s = hpc_need(f, p->info_off, 52, &b, "profile info", err)) != PW_OK)
            return s;
        uint64_t ptuple = pw_be64(b);
        p->n_values = pw_be64(b + 32);
        p->n_ctxs = pw_be32(b + 40);
        p->p_values = pw_be64(b + 44);
        p->p_index = p->p_values + 10 * p->n_values;
        p->summary = i == 0; /* "index 0 is always a summary profile" */
        p->path = h->profile_path;
        p->trace = HPC_NONE;
        tuple_text t = {.n = 0};
        if ((s = check_block(f, p, 12, err)) ||
            (s = read_tuple_prototype(h, f, p->info_off, ptuple, pt, pt + szt, &t, err)) ||
            (s = name_profile(ds, p, i, &t, err)))
            return s;
    }
    return PW_OK;
}

pw_status hpc_profiles_read(pw_dataset *ds, hpc_dataset *h, pw_error *err)
{
    hpc_file f;
    pw_status s = hpc_file_open(&f, h->profile_path, h->big, 64 * 1024, err);
    if (s != PW_OK)
        return s;
    s = h->gen == HPC_RELEASED ? read_released(ds, h, &f, err) : read_prototype(ds, h, &f, err);
    hpc_file_close(&f);
    return s;
}

pw_status hpc_profile_index(const hpc_dataset *h, const hpc_profile *p, hpc_file *f, uint64_t i,
                            uint32_t *ctx, uint64_t *start, pw_error *err)
{
    if (h->gen == HPC_OLD_XML) { /* dense: row 0 is the root, row i > 0 context i + 1 */
        *ctx = i >= p->n_ctxs ? HPC_NONE : i == 0 ? 0 : (uint32_t)i + 1;
        *start = i * p->dense_metrics;
        return PW_OK;
    }
    if (i == p->n_ctxs && h->gen == HPC_RELEASED) {
        *ctx = HPC_NONE;
        *start = p->n_values;
        return PW_OK;
    }
    const uint8_t *b;
    uint64_t at = p->p_index + 12 * i;
    pw_status s = hpc_need(f, at, 12, &b, "profile context index entry", err);
    if (s != PW_OK)
        return s;
    *ctx = pw_load32(b, f->big);
    *start = pw_load64(b + 4, f->big);
    if (i == p->n_ctxs && *ctx != PROTO_END_MARKER)
        return pw_fail(err, PW_E_DATA, f->path, (int64_t)at,
                       "end marker 0x656E6421 (\"end!\") expected after the context index, found 0x%x",
                       *ctx);
    if (*start > p->n_values)
        return pw_fail(err, PW_E_DATA, f->path, (int64_t)at + 4,
                       "value index %llu beyond the profile's %llu values",
                       (unsigned long long)*start, (unsigned long long)p->n_values);
    return PW_OK;
}

pw_status hpc_profile_value(const hpc_dataset *h, const hpc_profile *p, hpc_file *f, uint64_t i,
                            uint16_t *metric, double *value, pw_error *err)
{
    const uint8_t *b;
    size_t size = h->gen == HPC_OLD_XML ? 8 : 10;
    pw_status s = hpc_need(f, p->p_values + size * i, size, &b, "profile value", err);
    if (s != PW_OK)
        return s;
    if (h->gen == HPC_OLD_XML) {
        *metric = (uint16_t)(i % p->dense_metrics);
        *value = pw_bef64(b);
    } else if (h->gen == HPC_RELEASED) {
        *metric = pw_le16(b);
        *value = pw_lef64(b + 2);
    } else {
        *value = pw_bef64(b);
        *metric = pw_be16(b + 8);
    }
    return PW_OK;
}

pw_status hpc_profile_find(const hpc_dataset *h, const hpc_profile *p, hpc_file *f,
                           uint32_t ctx, uint64_t *first, uint64_t *end, pw_error *err)
{
    uint64_t lo = 0, hi = p->n_ctxs;
    *first = *end = 0;
    if (h->gen == HPC_OLD_XML) { /* dense: the row is the context (see hpc_profile_index) */
        if (ctx != 1 && ctx <= p->n_ctxs) {
            *first = (uint64_t)(ctx ? ctx - 1 : 0) * p->dense_metrics;
            *end = *first + p->dense_metrics;
        }
        return PW_OK;
    }
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2, start;
        uint32_t c;
        pw_status s = hpc_profile_index(h, p, f, mid, &c, &start, err);
        if (s != PW_OK)
            return s;
        if (c == ctx) {
            uint32_t next_ctx;
            uint64_t next;
            s = hpc_profile_index(h, p, f, mid + 1, &next_ctx, &next, err);
            if (s != PW_OK)
                return s;
            if (next < start)
                return pw_fail(err, PW_E_DATA, f->path, (int64_t)(p->p_index + 12 * (mid + 1)),
                               "context index not sorted: value index %llu after %llu",
                               (unsigned long long)next, (unsigned long long)start);
            *first = start;
            *end = next;
            return PW_OK;
        }
        if (c < ctx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return PW_OK;
}
