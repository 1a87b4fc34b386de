/* hpctoolkit_metricdb.c — the old XML format's values (facts §4): one
 * `*.metric-db` per rank and thread, a 32-byte header ("HPCPROF-metricdb__",
 * version "00.10", 'b', u32 BE nodes, u32 BE metrics) and a dense
 * big-endian f64 array [nodes x metrics].  Row r holds node r + 1; node 1
 * is the implicit root above the XML's top elements, our global context 0
 * (so row 0 is context 0 and row r > 0 is context r + 1).
 * Each file is a profile named by the rank and thread in its file name
 * ("1.cpi-000002-000-a8c00270-160445-0.metric-db" = rank 2, thread 0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/dirlist.h"
#include "core/error.h"
#include "formats/hpctoolkit/hpctoolkit.h"

/* The *.metric-db names in dir, sorted (malloc'd array of malloc'd names);
 * compressed files are listed under their plain names. */
static char **list_files(const char *dir, size_t *n)
{
    *n = 0;
    pw_dirlist l;
    if (pw_dirlist_read(dir, &l, NULL) != PW_OK)
        return NULL;
    char **names = malloc((l.n ? l.n : 1) * sizeof *names);
    for (size_t i = 0; names && i < l.n; i++) {
        size_t len = strlen(l.items[i].name);
        if (len > 10 && !strcmp(l.items[i].name + len - 10, ".metric-db")) {
            names[(*n)++] = l.items[i].name;
            l.items[i].name = NULL; /* moved */
        }
    }
    for (size_t i = 0; i < l.n; i++)
        free(l.items[i].name);
    free(l.items);
    return names;
}

/* "RANK.r/THREAD.t" from the name's first two '-'-separated numbers. */
static void tuple_of(const char *name, char *buf, size_t n)
{
    unsigned long rank, thread;
    const char *dash = strchr(name, '-');
    if (dash && sscanf(dash, "-%lu-%lu-", &rank, &thread) == 2)
        snprintf(buf, n, "RANK.%lu/THREAD.%lu", rank, thread);
    else
        snprintf(buf, n, "file.%s", name);
}

static pw_status read_header(hpc_file *f, hpc_profile *p, pw_error *err)
{
    const uint8_t *b;
    pw_status s = hpc_need(f, 0, 32, &b, "metric-db header", err);
    if (s != PW_OK)
        return s;
    if (memcmp(b, "HPCPROF-metricdb__", 18) || b[23] != 'b')
        return pw_fail(err, PW_E_DATA, f->path, 0,
                       "header \"HPCPROF-metricdb__\" + version + 'b' (big-endian) expected");
    p->n_ctxs = pw_be32(b + 24);
    p->dense_metrics = pw_be32(b + 28);
    p->n_values = (uint64_t)p->n_ctxs * p->dense_metrics;
    p->p_values = 32;
    p->p_index = 32;
    if (p->dense_metrics == 0 || p->dense_metrics > 0xFFFF)
        return pw_fail(err, PW_E_DATA, f->path, 28, "1 to 65535 metrics expected, found %u",
                       p->dense_metrics);
    return hpc_within(f, 24, 32, 8 * p->n_values, 0, f->w.file_size, "dense value array", err);
}

static pw_status add_profile(pw_dataset *ds, const char *dir, const char *name,
                             hpc_profile *p, pw_error *err)
{
    char path[4096], tuple[300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    tuple_of(name, tuple, sizeof tuple);
    p->path = pw_ds_strdup(ds, path);
    p->tuple = pw_ds_strdup(ds, tuple);
    p->trace = HPC_NONE;
    if (!p->path || !p->tuple)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    hpc_file f;
    pw_status s = hpc_file_open(&f, p->path, 1, 4096, err);
    if (s == PW_OK)
        s = read_header(&f, p, err);
    hpc_file_close(&f);
    return s;
}

pw_status hpc_metricdb_read(pw_dataset *ds, hpc_dataset *h, const char *dir, pw_error *err)
{
    size_t n;
    char **names = list_files(dir, &n);
    pw_status s = PW_OK;
    if (!n)
        s = pw_fail(err, PW_E_FORMAT, ds->path, PW_NO_OFFSET,
                    "experiment.xml without profile.db (4.0) or *.metric-db files (old format)");
    if (s == PW_OK && !(h->profs = pw_ds_alloc(ds, n * sizeof *h->profs)))
        s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; s == PW_OK && i < n; i++) {
        s = add_profile(ds, dir, names[i], &h->profs[i], err);
        h->n_profs = (uint32_t)i + (s == PW_OK);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return s;
}
