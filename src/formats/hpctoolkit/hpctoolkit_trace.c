/* hpctoolkit_trace.c — trace.db headers: which profile each trace line
 * belongs to and where its 12-byte samples (u64 ns, u32 context) are.
 * Released: "HPCTOOLKITtrce", a CtxTraces section of szTrace-byte headers.
 * Prototype: "HPCPROF-tracedb_", 22-byte big-endian headers, and often no
 * footer at all (facts §2.4). */
#include <string.h>

#include "core/bytes.h"
#include "core/error.h"
#include "formats/hpctoolkit/hpctoolkit.h"

static pw_status alloc_traces(pw_dataset *ds, hpc_dataset *h, uint64_t n, uint64_t each,
                              hpc_file *f, pw_error *err)
{
    if (n * each > f->w.file_size)
        return pw_fail(err, PW_E_DATA, f->path, PW_NO_OFFSET,
                       "%llu trace headers cannot fit in a file of %llu bytes",
                       (unsigned long long)n, (unsigned long long)f->w.file_size);
    h->traces = pw_ds_alloc(ds, (n ? n : 1) * sizeof *h->traces);
    h->n_traces = (uint32_t)n;
    return h->traces ? PW_OK : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
}

/* A trace line: inside the file, whole samples, and a profile that exists
 * and has no other line. */
static pw_status attach_trace(hpc_dataset *h, hpc_file *f, uint32_t i, pw_error *err)
{
    hpc_trace *t = &h->traces[i];
    if (t->end < t->start || (t->end - t->start) % 12)
        return pw_fail(err, PW_E_DATA, f->path, (int64_t)t->hdr_off,
                       "trace line [0x%llx, 0x%llx) expected to hold whole 12-byte samples",
                       (unsigned long long)t->start, (unsigned long long)t->end);
    pw_status s = hpc_within(f, t->hdr_off, t->start, t->end - t->start, 0, f->w.file_size, "trace line", err);
    if (s != PW_OK)
        return s;
    if (t->prof >= h->n_profs || h->profs[t->prof].trace != HPC_NONE)
        return pw_fail(err, PW_E_DATA, f->path, (int64_t)t->hdr_off,
                       "trace %u: profile index %u %s", i, t->prof,
                       t->prof >= h->n_profs ? "is not in profile.db" : "already has a trace");
    h->profs[t->prof].trace = i;
    return PW_OK;
}

static pw_status read_released(pw_dataset *ds, hpc_dataset *h, hpc_file *f, pw_error *err)
{
    const uint8_t *b;
    pw_status s = hpc_need(f, 0, 0x20, &b, "trace.db header", err);
    if (s != PW_OK)
        return s;
    if (memcmp(b, "HPCTOOLKIT", 10) || memcmp(b + 10, "trce", 4) || b[14] != 4)
        return pw_fail(err, PW_E_DATA, f->path, 0, "magic \"HPCTOOLKITtrce\" version 4 expected");
    uint64_t sz = pw_le64(b + 0x10), p = pw_le64(b + 0x18);
    if ((s = hpc_within(f, 0x10, p, sz, 0, f->w.file_size, "section CtxTraces", err)) ||
        (s = hpc_need(f, p, 0x20, &b, "context trace headers", err)))
        return s;
    uint64_t pt = pw_le64(b);
    uint32_t n = pw_le32(b + 8);
    uint8_t szt = b[0xc];
    h->has_trace_range = 1;
    h->trace_min = pw_le64(b + 0x10);
    h->trace_max = pw_le64(b + 0x18);
    if (szt < 0x18)
        return pw_fail(err, PW_E_DATA, f->path, (int64_t)p + 0xc,
                       "trace header size %u smaller than version 4.0's 24", szt);
    if ((s = hpc_within(f, p, pt, (uint64_t)n * szt, p, p + sz, "trace header array", err)) ||
        (s = alloc_traces(ds, h, n, szt, f, err)))
        return s;
    for (uint32_t i = 0; i < n; i++) {
        hpc_trace *t = &h->traces[i];
        t->hdr_off = pt + (uint64_t)i * szt;
        if ((s = hpc_need(f, t->hdr_off, 0x18, &b, "trace header", err)) != PW_OK)
            return s;
        t->prof = pw_le32(b);
        t->start = pw_le64(b + 8);
        t->end = pw_le64(b + 0x10);
        if ((s = attach_trace(h, f, i, err)) != PW_OK)
            return s;
    }
    return PW_OK;
}

static pw_status read_prototype(pw_dataset *ds, hpc_dataset *h, hpc_file *f, pw_error *err)
{
    const uint8_t *b;
    pw_status s = hpc_need(f, 0, 40, &b, "trace.db header", err);
    if (s != PW_OK)
        return s;
    if (memcmp(b, "HPCPROF-tracedb_", 16))
        return pw_fail(err, PW_E_DATA, f->path, 0, "magic \"HPCPROF-tracedb_\" expected");
    uint32_t n = pw_be32(b + 18);
    uint64_t sz = pw_be64(b + 24), p = pw_be64(b + 32);
    if ((s = hpc_within(f, 24, p, 22ull * n, 0, f->w.file_size, "trace header section", err)) ||
        (s = alloc_traces(ds, h, n, 22, f, err)))
        return s;
    if (22ull * n > sz)
        return pw_fail(err, PW_E_DATA, f->path, 24,
                       "trace header section of %llu bytes cannot hold %u headers",
                       (unsigned long long)sz, n);
    for (uint32_t i = 0; i < n; i++) {
        hpc_trace *t = &h->traces[i];
        t->hdr_off = p + 22ull * i;
        if ((s = hpc_need(f, t->hdr_off, 22, &b, "trace header", err)) != PW_OK)
            return s;
        t->prof = pw_be32(b);
        uint16_t type = pw_be16(b + 4);
        t->start = pw_be64(b + 6);
        t->end = pw_be64(b + 14);
        if (type != 0)
            return pw_fail(err, PW_E_DATA, f->path, (int64_t)t->hdr_off + 4,
                           "trace %u: type 0 (calling context) expected, found %u", i, type);
        if ((s = attach_trace(h, f, i, err)) != PW_OK)
            return s;
    }
    return PW_OK;
}

pw_status hpc_traces_read(pw_dataset *ds, hpc_dataset *h, pw_error *err)
{
    if (!h->trace_path)
        return PW_OK;
    hpc_file f;
    pw_status s = hpc_file_open(&f, h->trace_path, h->big, 64 * 1024, err);
    if (s != PW_OK)
        return s;
    s = h->gen == HPC_RELEASED ? read_released(ds, h, &f, err) : read_prototype(ds, h, &f, err);
    hpc_file_close(&f);
    return s;
}
