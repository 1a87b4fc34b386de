/* mpi_stats.c — stats by P processes: each summarises its share of the
 * locations into a part (pw_stats_part); rank 0 gathers the parts and
 * reports them joined (pw_stats_join), the same bytes as perfweave stats. */
#include <stdlib.h>

#include "cli_mpi.h"

/* Rank 0 writes the report of the joined parts; returns its exit code. */
static int report_joined(const mpi_world *w, cli_args *a, pw_dataset *ds, const char *all,
                         const size_t *part_sizes)
{
    const void **parts = calloc((size_t)w->size, sizeof *parts);
    int code = EXIT_OK;
    FILE *out = parts ? cli_output(a, &code) : NULL;
    pw_report_style style = a->json ? PW_REPORT_JSON : a->csv ? PW_REPORT_CSV : PW_REPORT_TEXT;
    pw_report *r = out ? pw_report_open(out, style) : NULL;
    if (r && cli_apply_view(a, r)) { /* --top, --columns...: as perfweave stats shows the tables */
        pw_report_free(r);
        r = NULL;
    }
    pw_error err = {.status = PW_E_NOMEM, .message = "out of memory"};
    pw_status s = r ? PW_OK : PW_E_NOMEM;
    if (r && (code = cli_apply_view(a, r)) != 0) /* --top/--table, as perfweave's text */
        s = PW_E_NOMEM;
    for (size_t i = 0, at = 0; r && i < (size_t)w->size; at += part_sizes[i++])
        parts[i] = all + at;
    if (s == PW_OK)
        s = pw_stats_join(ds, parts, part_sizes, (size_t)w->size, r, &err);
    if (s == PW_OK)
        s = pw_report_finish(r, &err);
    if (s != PW_OK && (out || code == EXIT_OK))
        code = cli_fail(&err);
    if (out)
        code = cli_close_output(a, code);
    pw_report_free(r);
    free(parts);
    return code;
}

/* The analyses computed together (pw_stats_together: the MPI wait states
 * replayed by every process over its share, sides exchanged in time
 * windows), before the parts; rank 0 keeps their results for its join.
 * Every process calls it; returns this process's exit code. */
static int stats_together(pw_dataset *ds, const pw_collectives *co)
{
    pw_error err;
    pw_dataset_set_collectives(ds, co);
    mpi_work_begin();
    pw_status s = pw_stats_together(ds, &err);
    mpi_work_end();
    return s == PW_OK ? EXIT_OK : cli_fail(&err);
}

int mpi_stats_run(const mpi_world *w, cli_args *a)
{
    int code = EXIT_OK;
    pw_dataset *ds = mpi_open_share(w, a, &code);
    if (!ds)
        return code;
    mpi_opened opened = {pw_dataset_diag_count(ds), pw_dataset_diag_dropped(ds)};
    pw_error err;
    void *part = NULL;
    size_t size = 0;
    mpi_work_begin();
    pw_status s = pw_dataset_set_share(ds, (unsigned)w->rank, (unsigned)w->size, &err);
    if (s == PW_OK)
        s = pw_stats_part(ds, &part, &size, &err);
    mpi_work_end();
    if (s != PW_OK)
        code = cli_fail(&err);
    pw_collectives co = mpi_collectives(w);
    code = mpi_max_code(code); /* every process, or none, computes together */
    if (!code)
        code = stats_together(ds, &co);
    void *all = NULL;
    size_t *sizes = NULL;
    if (!mpi_gather(w, 0, part, size, &all, &sizes) && !code) {
        if (!w->rank)
            fprintf(stderr, "perfweave-mpi: the parts do not fit one gather to rank 0 (memory, or 2 GB in all)\n");
        code = EXIT_SYSTEM;
    }
    code = mpi_max_code(code);
    if (!w->rank && !code) {
        mpi_work_begin();
        code = report_joined(w, a, ds, all, sizes);
        mpi_work_end();
    }
    size_t errors, warnings;
    int dcode = mpi_report_diags(w, ds, &opened, &errors, &warnings);
    free(part);
    free(all);
    free(sizes);
    pw_close(ds);
    code = mpi_max_code(code);
    return code ? code : dcode;
}
