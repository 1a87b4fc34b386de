/* cmd_stats.c — perfweave stats: the summary a user of the format wants. */
#include "cli.h"

/* The charts directory a format's "plot" option names (--plot DIR), or NULL. */
static const char *plot_dir(const cli_args *a, const pw_dataset *ds)
{
    char key[128];
    snprintf(key, sizeof key, "%s.plot", pw_dataset_format(ds));
    return pw_options_get(&a->opt, key);
}

/* stats --tables: the report built whole, then only its list of tables. */
static int list_tables(cli_args *a, pw_dataset *ds)
{
    int code = EXIT_OK;
    FILE *out = cli_output(a, &code);
    pw_report *r = out ? pw_report_new() : NULL;
    pw_error err = {.status = PW_E_NOMEM, .message = "out of memory"};
    pw_status s = r ? pw_stats(ds, r, &err) : PW_E_NOMEM;
    if (s == PW_OK)
        s = pw_report_write_tables(r, out, a->json, &err);
    if (out && s != PW_OK)
        code = cli_fail(&err);
    if (out)
        code = cli_close_output(a, code);
    int dcode = cli_report_diags(ds);
    pw_report_free(r);
    pw_close(ds);
    return code ? code : dcode;
}

static int stats_run(cli_args *a)
{
    int code = EXIT_OK;
    pw_dataset *ds = cli_open(a, &code);
    if (!ds)
        return code;
    if (a->tables)
        return list_tables(a, ds);
    FILE *out = cli_output(a, &code);
    /* Opened up front, so that large arrays stream to the output. */
    pw_report_style style = a->json ? PW_REPORT_JSON : a->csv ? PW_REPORT_CSV : PW_REPORT_TEXT;
    pw_report *r = out ? pw_report_open(out, style) : NULL;
    if (r && cli_apply_view(a, r)) {
        pw_report_free(r);
        r = NULL;
    }
    pw_error err = {.status = PW_E_NOMEM, .message = "out of memory"};
    pw_status s = out && r ? PW_OK : PW_E_IO;
    pw_plot *plot = NULL;
    const char *charts = out && r ? plot_dir(a, ds) : NULL;
    if (charts)
        s = pw_plot_begin(ds, charts, a->force ? PW_OUTPUT_FORCE : 0, &plot, &err);
    if (out && r && s == PW_OK) {
        cli_progress *prog = cli_progress_start(a, ds, "reading");
        s = pw_stats(ds, r, &err);
        cli_progress_stop(prog);
        pw_error perr;
        pw_status ps = pw_plot_finish(plot, s == PW_OK, &perr);
        if (s == PW_OK && ps != PW_OK) {
            s = ps;
            err = perr;
        }
        if (s == PW_OK)
            s = pw_report_finish(r, &err);
        if (s != PW_OK)
            code = cli_fail(&err);
    } else if (out) {
        code = cli_fail(&err);
    }
    if (out)
        code = cli_close_output(a, code);
    int dcode = cli_report_diags(ds);
    pw_report_free(r);
    pw_close(ds);
    return code ? code : dcode;
}

const cli_command cli_stats = {
    "stats",
    "the summary a user of the format wants (tables, JSON or CSV)",
    "What it reports depends on the format: for event traces, per location\n"
    "and per record type counts, clock ranges and rates; for MPI traces, the\n"
    "profile of calls and the communication matrix; for profiles, top-down\n"
    "trees; for power data, energies.  Locations are read in parallel.\n\n"
    "  --json        one JSON document\n"
    "  --csv         CSV tables, each introduced by a '# name' line\n"
    "  --tables      the tables this dataset gives (--table NAME shows one)\n",
    CLI_WANT_JSON | CLI_WANT_CSV | CLI_WANT_OUTPUT | CLI_WANT_FILTER | CLI_WANT_VIEW,
    stats_run,
};
