/* hpctoolkit_file.c — bounded reads of one .db file: every structure the
 * reader touches goes through here, so truncation and stray pointers become
 * messages naming the file, the offset and what was expected. */
#include <string.h>

#include "core/bytes.h"
#include "core/error.h"
#include "formats/hpctoolkit/hpctoolkit.h"

/* The largest single structure read at once (a context's flex words, a
 * header): small, so a hostile size cannot make the window huge. */
#define HPC_MAX_ACCESS ((size_t)1 << 20)

pw_status hpc_file_open(hpc_file *f, const char *path, int big, size_t cap, pw_error *err)
{
    f->path = path;
    f->big = big;
    return pw_window_open(&f->w, path, cap, HPC_MAX_ACCESS, err);
}

void hpc_file_count_progress(hpc_file *f, const hpc_dataset *h) { f->w.progress = h->progress; }

void hpc_file_close(hpc_file *f)
{
    if (f->path)
        pw_window_close(&f->w);
    f->path = NULL;
}

pw_status hpc_need(hpc_file *f, uint64_t off, size_t n, const uint8_t **p, const char *what,
                   pw_error *err)
{
    pw_status s = pw_window_need(&f->w, off, n, p, err);
    if (s == PW_END)
        return pw_fail(err, PW_E_DATA, f->path, (int64_t)off,
                       "%s: %zu bytes expected, the file has %llu from here", what, n,
                       (unsigned long long)pw_window_left(&f->w, off));
    return s;
}

pw_status hpc_u64(hpc_file *f, uint64_t off, uint64_t *v, const char *what, pw_error *err)
{
    const uint8_t *p;
    pw_status s = hpc_need(f, off, 8, &p, what, err);
    if (s == PW_OK)
        *v = pw_load64(p, f->big);
    return s;
}

pw_status hpc_within(const hpc_file *f, uint64_t field, uint64_t off, uint64_t n, uint64_t lo,
                     uint64_t hi, const char *what, pw_error *err)
{
    if (off < lo || off > hi || n > hi - off)
        return pw_fail(err, PW_E_DATA, f->path, (int64_t)field,
                       "%s: %llu bytes at 0x%llx expected within [0x%llx, 0x%llx)", what,
                       (unsigned long long)n, (unsigned long long)off, (unsigned long long)lo,
                       (unsigned long long)hi);
    return PW_OK;
}

pw_status hpc_string(pw_dataset *ds, hpc_file *f, uint64_t off, uint64_t end, const char **s,
                     const char *what, pw_error *err)
{
    if (end > f->w.file_size)
        end = f->w.file_size;
    if (off >= end)
        return pw_fail(err, PW_E_DATA, f->path, (int64_t)off,
                       "%s: string expected before offset 0x%llx", what, (unsigned long long)end);
    uint64_t at = off;
    for (;;) {
        size_t chunk = end - at < 4096 ? (size_t)(end - at) : 4096;
        const uint8_t *p;
        pw_status st = hpc_need(f, at, chunk, &p, what, err);
        if (st != PW_OK)
            return st;
        const uint8_t *nul = memchr(p, 0, chunk);
        if (nul) {
            at += (uint64_t)(nul - p);
            break;
        }
        at += chunk;
        if (at >= end)
            return pw_fail(err, PW_E_DATA, f->path, (int64_t)off,
                           "%s: string not terminated before offset 0x%llx", what,
                           (unsigned long long)end);
    }
    /* The string may span refills: read it again in one piece. */
    const uint8_t *p;
    size_t n = (size_t)(at - off);
    if (n >= HPC_MAX_ACCESS)
        return pw_fail(err, PW_E_DATA, f->path, (int64_t)off, "%s: string of %zu bytes is too long",
                       what, n);
    pw_status st = hpc_need(f, off, n + 1, &p, what, err);
    if (st != PW_OK)
        return st;
    *s = pw_ds_strndup(ds, (const char *)p, n);
    return *s ? PW_OK : pw_fail(err, PW_E_NOMEM, f->path, PW_NO_OFFSET, "out of memory");
}
