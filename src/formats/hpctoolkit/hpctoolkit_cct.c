/* hpctoolkit_cct.c — cct.db, the context-major copy of the values.  Open
 * reads its header (how many context ids it lists); check validates every
 * block: inside the file, metric index sorted, profile indices known and
 * sorted, and (released) each value equal to the profile-major one in
 * profile.db, found there by binary search.
 *
 * The prototype sample's blocks have a valid layout but all value and
 * metric bytes zero (facts §2.7): that is a warning, not damage. */
#include <string.h>

#include "core/bytes.h"
#include "core/error.h"
#include "formats/hpctoolkit/hpctoolkit.h"

#define PROTO_CCT_END 0x6564u
/* Values compared with profile.db beyond this are not looked up (bench
 * databases hold billions). */
#define HPC_CROSSCHECK_MAX 20000

typedef struct cct_block {
    uint32_t ctx;
    uint64_t n_values, p_values, p_index;
    uint16_t n_metrics;
    uint64_t at;  /* its info record */
} cct_block;

typedef struct cct_checker {
    pw_dataset *ds;
    hpc_dataset *h;
    hpc_file f, prof;
    uint64_t p_ctxs, stride;
    uint32_t n;
    uint64_t crosschecked, nonzero_bytes;
    unsigned errors;
} cct_checker;

static pw_status read_header_released(hpc_file *f, uint64_t *pc, uint64_t *stride, uint32_t *n,
                                      pw_error *err)
{
    const uint8_t *b;
    pw_status s = hpc_need(f, 0, 0x20, &b, "cct.db header", err);
    if (s != PW_OK)
        return s;
    if (memcmp(b, "HPCTOOLKIT", 10) || memcmp(b + 10, "ctxt", 4) || b[14] != 4)
        return pw_fail(err, PW_E_DATA, f->path, 0, "magic \"HPCTOOLKITctxt\" version 4 expected");
    uint64_t sz = pw_le64(b + 0x10), p = pw_le64(b + 0x18);
    if ((s = hpc_within(f, 0x10, p, sz, 0, f->w.file_size, "section CtxInfos", err)) ||
        (s = hpc_need(f, p, 0xd, &b, "context infos header", err)))
        return s;
    *pc = pw_le64(b);
    *n = pw_le32(b + 8);
    *stride = b[0xc];
    if (*stride < 0x20)
        return pw_fail(err, PW_E_DATA, f->path, (int64_t)p + 0xc,
                       "context info size %llu smaller than version 4.0's 32",
                       (unsigned long long)*stride);
    return hpc_within(f, p, *pc, *n * *stride, p, p + sz, "context info array", err);
}

static pw_status read_header_prototype(hpc_file *f, uint64_t *pc, uint64_t *stride, uint32_t *n,
                                       pw_error *err)
{
    const uint8_t *b;
    pw_status s = hpc_need(f, 0, 40, &b, "cct.db header", err);
    if (s != PW_OK)
        return s;
    if (memcmp(b, "HPCPROF-cctdb___", 16))
        return pw_fail(err, PW_E_DATA, f->path, 0, "magic \"HPCPROF-cctdb___\" expected");
    *n = pw_be32(b + 18);
    uint64_t sz = pw_be64(b + 24);
    *pc = pw_be64(b + 32);
    *stride = 22;
    if (22ull * *n > sz)
        return pw_fail(err, PW_E_DATA, f->path, 24,
                       "context info section of %llu bytes cannot hold %u contexts",
                       (unsigned long long)sz, *n);
    return hpc_within(f, 32, *pc, 22ull * *n, 0, f->w.file_size, "context info section", err);
}

static pw_status open_header(cct_checker *k, pw_error *err)
{
    pw_status s = hpc_file_open(&k->f, k->h->cct_path, k->h->big, 64 * 1024, err);
    if (s != PW_OK)
        return s;
    return k->h->gen == HPC_RELEASED
               ? read_header_released(&k->f, &k->p_ctxs, &k->stride, &k->n, err)
               : read_header_prototype(&k->f, &k->p_ctxs, &k->stride, &k->n, err);
}

pw_status hpc_cct_read_header(pw_dataset *ds, hpc_dataset *h, pw_error *err)
{
    cct_checker k = {.ds = ds, .h = h};
    pw_status s = open_header(&k, err);
    if (s == PW_OK)
        h->cct_ids = k.n;
    hpc_file_close(&k.f);
    return s;
}

static pw_status read_block(cct_checker *k, uint32_t i, cct_block *bl, pw_error *err)
{
    const uint8_t *b;
    bl->at = k->p_ctxs + i * k->stride;
    pw_status s = hpc_need(&k->f, bl->at, k->h->gen == HPC_RELEASED ? 0x20 : 22, &b,
                           "context info", err);
    if (s != PW_OK)
        return s;
    if (k->h->gen == HPC_RELEASED) {
        bl->ctx = i;
        bl->n_values = pw_le64(b);
        bl->p_values = pw_le64(b + 8);
        bl->n_metrics = pw_le16(b + 0x10);
        bl->p_index = pw_le64(b + 0x18);
    } else {
        bl->ctx = pw_be32(b);
        bl->n_values = pw_be64(b + 4);
        bl->n_metrics = pw_be16(b + 12);
        bl->p_values = pw_be64(b + 14);
        bl->p_index = bl->p_values + 12 * bl->n_values;
        if (bl->ctx != i)
            return pw_fail(err, PW_E_DATA, k->f.path, (int64_t)bl->at,
                           "context info %u names context %u: infos are indexed by id", i, bl->ctx);
    }
    /* Prototype blocks end with a marker entry, except empty ones, which
     * have no bytes at all (the sample's context 116 points at the footer). */
    int empty = bl->n_values == 0 && bl->n_metrics == 0;
    uint64_t extra = k->h->gen == HPC_PROTOTYPE && !empty ? 10 : 0;
    if (bl->n_values > k->f.w.file_size / 12)
        return pw_fail(err, PW_E_DATA, k->f.path, (int64_t)bl->at,
                       "context %u: %llu values cannot fit in the file", i,
                       (unsigned long long)bl->n_values);
    if ((s = hpc_within(&k->f, bl->at, bl->p_values, 12 * bl->n_values, 0, k->f.w.file_size,
                        "context values", err)) != PW_OK)
        return s;
    return hpc_within(&k->f, bl->at, bl->p_index, 10ull * bl->n_metrics + extra, 0, k->f.w.file_size,
                      "context metric index", err);
}

/* Notes non-zero bytes (the prototype sample has none). */
static void count_nonzero(cct_checker *k, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        k->nonzero_bytes += b[i] != 0;
}

/* One value of the block: its profile, and (released) the same value in
 * profile.db. */
static pw_status check_value(cct_checker *k, const cct_block *bl, uint16_t metric, uint64_t i,
                             uint32_t *prev_prof, pw_error *err)
{
    const uint8_t *b;
    uint64_t at = bl->p_values + 12 * i;
    pw_status s = hpc_need(&k->f, at, 12, &b, "context value", err);
    if (s != PW_OK)
        return s;
    count_nonzero(k, b, 12);
    uint32_t prof = k->h->gen == HPC_RELEASED ? pw_le32(b) : pw_be32(b + 8);
    double v = k->h->gen == HPC_RELEASED ? pw_lef64(b + 4) : pw_bef64(b);
    if (k->h->gen == HPC_PROTOTYPE)
        return PW_OK; /* prototype values are checked only for layout */
    if (prof >= k->h->n_profs || (*prev_prof != HPC_NONE && prof <= *prev_prof))
        return pw_fail(err, PW_E_DATA, k->f.path, (int64_t)at,
                       "context %u metric %u: profile index %u expected below %u and after %d",
                       bl->ctx, metric, prof, k->h->n_profs,
                       *prev_prof == HPC_NONE ? -1 : (int)*prev_prof);
    *prev_prof = prof;
    if (k->crosschecked >= HPC_CROSSCHECK_MAX || !k->prof.path)
        return PW_OK;
    k->crosschecked++;
    const hpc_profile *p = &k->h->profs[prof];
    uint64_t first, end;
    if ((s = hpc_profile_find(k->h, p, &k->prof, bl->ctx, &first, &end, err)) != PW_OK)
        return s;
    for (uint64_t j = first; j < end; j++) {
        uint16_t m;
        double pv;
        if ((s = hpc_profile_value(k->h, p, &k->prof, j, &m, &pv, err)) != PW_OK)
            return s;
        if (m == metric)
            return pv == v ? PW_OK
                           : pw_fail(err, PW_E_DATA, k->f.path, (int64_t)at + 4,
                                     "context %u metric %u profile %u: value %.17g differs from "
                                     "profile.db's %.17g",
                                     bl->ctx, metric, prof, v, pv);
    }
    return pw_fail(err, PW_E_DATA, k->f.path, (int64_t)at,
                   "context %u metric %u profile %u: value %.17g has no counterpart in profile.db",
                   bl->ctx, metric, prof, v);
}

static pw_status check_block(cct_checker *k, const cct_block *bl, pw_error *err)
{
    if (k->h->gen == HPC_PROTOTYPE && bl->n_values == 0 && bl->n_metrics == 0)
        return PW_OK;
    uint64_t prev_start = 0;
    int prev_metric = -1;
    for (uint32_t m = 0; m <= bl->n_metrics; m++) {
        uint64_t at = bl->p_index + 10ull * m;
        uint16_t mid = 0;
        uint64_t start = bl->n_values;
        if (m < bl->n_metrics || k->h->gen == HPC_PROTOTYPE) {
            const uint8_t *b;
            pw_status s = hpc_need(&k->f, at, 10, &b, "context metric index", err);
            if (s != PW_OK)
                return s;
            count_nonzero(k, b, 2);
            mid = pw_load16(b, k->f.big);
            start = pw_load64(b + 2, k->f.big);
        }
        if (k->h->gen == HPC_PROTOTYPE && k->nonzero_bytes == 0)
            continue; /* the zeroed sample: layout only */
        if (m == bl->n_metrics && k->h->gen == HPC_PROTOTYPE && mid != PROTO_CCT_END)
            return pw_fail(err, PW_E_DATA, k->f.path, (int64_t)at,
                           "end marker 0x6564 expected after the metric index, found 0x%x", mid);
        if (start < prev_start || start > bl->n_values || (m == 0 && start != 0) ||
            (m < bl->n_metrics && (int)mid <= prev_metric))
            return pw_fail(err, PW_E_DATA, k->f.path, (int64_t)at,
                           "context %u: metric index entry %u (metric %u, value %llu) out of order",
                           bl->ctx, m, mid, (unsigned long long)start);
        if (m > 0) {
            uint32_t prev_prof = HPC_NONE;
            for (uint64_t i = prev_start; i < start; i++) {
                pw_status s = check_value(k, bl, (uint16_t)prev_metric, i, &prev_prof, err);
                if (s != PW_OK)
                    return s;
            }
        }
        prev_start = start;
        prev_metric = mid;
    }
    /* the zeroed prototype: still look at the value bytes */
    if (k->h->gen == HPC_PROTOTYPE && k->nonzero_bytes == 0)
        for (uint64_t i = 0; i < bl->n_values; i++) {
            const uint8_t *b;
            pw_status s = hpc_need(&k->f, bl->p_values + 12 * i, 12, &b, "context value", err);
            if (s != PW_OK)
                return s;
            count_nonzero(k, b, 12);
        }
    return PW_OK;
}

void hpc_cct_check(pw_dataset *ds, hpc_dataset *h)
{
    if (!h->cct_path)
        return;
    cct_checker k = {.ds = ds, .h = h};
    pw_error e;
    pw_status s = open_header(&k, &e);
    if (s == PW_OK && h->gen == HPC_RELEASED)
        s = hpc_file_open(&k.prof, h->profile_path, 0, 4096, &e); /* released: one file */
    uint64_t with_values = 0;
    for (uint32_t i = 0; s == PW_OK && i < k.n; i++) {
        cct_block bl;
        s = read_block(&k, i, &bl, &e);
        if (s == PW_OK) {
            with_values += bl.n_values > 0;
            s = check_block(&k, &bl, &e);
        }
    }
    if (s != PW_OK)
        pw_ds_diag_error(ds, PW_SEV_ERROR, "hpctoolkit.bad-cct", &e);
    else if (h->gen == HPC_PROTOTYPE && k.nonzero_bytes == 0 && with_values)
        pw_ds_diag(ds, PW_SEV_WARNING, "hpctoolkit.cct-zero-values", h->cct_path, PW_NO_OFFSET,
                   "cct.db layout is valid (%u contexts, %llu with values) but every value and "
                   "metric id is 0: its values cannot be cross-checked with profile.db",
                   k.n, (unsigned long long)with_values);
    hpc_file_close(&k.f);
    hpc_file_close(&k.prof);
}
