/* hpctoolkit_check.c — consistency checks beyond reading every record:
 * cct.db against profile.db, the summary profile where it must be, the
 * files' footers, and trace lines within the time range the database
 * declares. */
#include <string.h>

#include "core/bytes.h"
#include "core/error.h"
#include "formats/hpctoolkit/hpctoolkit.h"

/* First and last timestamps of each line against [trace_min, trace_max]. */
static void check_trace_range(pw_dataset *ds, hpc_dataset *h)
{
    if (!h->has_trace_range || !h->trace_path)
        return;
    hpc_file f;
    pw_error e;
    if (hpc_file_open(&f, h->trace_path, h->big, 4096, &e) != PW_OK) {
        pw_ds_diag_error(ds, PW_SEV_ERROR, "hpctoolkit.bad-trace", &e);
        return;
    }
    for (uint32_t i = 0; i < h->n_traces; i++) {
        const hpc_trace *t = &h->traces[i];
        if (t->end == t->start)
            continue;
        const uint8_t *b;
        uint64_t ends[2] = {t->start, t->end - 12};
        for (int k = 0; k < 2; k++) {
            if (hpc_need(&f, ends[k], 12, &b, "trace sample", &e) != PW_OK) {
                pw_ds_diag_error(ds, PW_SEV_ERROR, "hpctoolkit.bad-trace", &e);
                break;
            }
            uint64_t ts = pw_load64(b, f.big);
            if (ts < h->trace_min || ts > h->trace_max)
                pw_ds_diag(ds, PW_SEV_ERROR, "hpctoolkit.trace-range", h->trace_path,
                           (int64_t)ends[k],
                           "trace %u: timestamp %llu outside the declared range %llu..%llu", i,
                           (unsigned long long)ts, (unsigned long long)h->trace_min,
                           (unsigned long long)h->trace_max);
        }
    }
    hpc_file_close(&f);
}

/* The 8 bytes a file must end with (facts §3): released files end with
 * ASCII "_meta.db", "_prof.db", "__ctx.db", "trace.db"; prototype files
 * with a u64 footer read byte-reversed ("tfBDFORP", "rtfBDTCC"), and the
 * prototype trace.db with none.  A file cut by even one byte fails. */
static void check_footer(pw_dataset *ds, const char *path, const char *footer)
{
    if (!path || !footer)
        return;
    hpc_file f;
    pw_error e;
    const uint8_t *b;
    if (hpc_file_open(&f, path, 0, 4096, &e) != PW_OK) {
        pw_ds_diag_error(ds, PW_SEV_ERROR, "hpctoolkit.bad-footer", &e);
        return;
    }
    uint64_t size = f.w.file_size;
    if (size < 8 || hpc_need(&f, size - 8, 8, &b, "footer", &e) != PW_OK)
        pw_ds_diag(ds, PW_SEV_ERROR, "hpctoolkit.bad-footer", path, PW_NO_OFFSET,
                   "the file is too short for its 8-byte footer \"%s\"", footer);
    else if (memcmp(b, footer, 8))
        pw_ds_diag(ds, PW_SEV_ERROR, "hpctoolkit.bad-footer", path, (int64_t)(size - 8),
                   "footer \"%s\" expected at the end of the file: the file is cut or damaged",
                   footer);
    hpc_file_close(&f);
}

static void check_footers(pw_dataset *ds, const hpc_dataset *h)
{
    int rel = h->gen == HPC_RELEASED, proto = h->gen == HPC_PROTOTYPE;
    check_footer(ds, h->meta_path, rel ? "_meta.db" : NULL);
    check_footer(ds, h->profile_path, rel ? "_prof.db" : proto ? "tfBDFORP" : NULL);
    check_footer(ds, h->cct_path, rel ? "__ctx.db" : proto ? "rtfBDTCC" : NULL);
    check_footer(ds, h->trace_path, rel ? "trace.db" : NULL);
}

pw_status hpc_check(pw_dataset *ds, pw_error *err)
{
    (void)err; /* findings are diagnostics; pw_check turns errors into PW_E_DATA */
    hpc_dataset *h = ds->impl;
    if (h->gen != HPC_OLD_XML && (h->n_profs == 0 || !h->profs[0].summary))
        pw_ds_diag(ds, PW_SEV_ERROR, "hpctoolkit.no-summary", h->profile_path,
                   h->n_profs ? (int64_t)h->profs[0].info_off : PW_NO_OFFSET,
                   "profile 0 is expected to be the summary profile");
    if (!h->cct_path && h->gen != HPC_OLD_XML) /* the old format has none */
        pw_ds_diag(ds, PW_SEV_NOTE, "hpctoolkit.no-cct", ds->path, PW_NO_OFFSET,
                   "no cct.db: context-major values not checked");
    check_footers(ds, h);
    check_trace_range(ds, h);
    hpc_cct_check(ds, h);
    return PW_OK;
}
