/* cmd_report.c — perfweave report PATH [B]: one self-contained HTML page
 * of a run's stats, or of the comparison of two runs of one format (the
 * library draws it: pw_html_report, pw_html_compare). */
#include <string.h>

#include "cli.h"

/* The page: of ra alone, or of the comparison of ra and rb. */
static int page_write(cli_args *a, pw_dataset *da, const pw_report *ra, const pw_html_watch *wa, pw_dataset *db,
                      const pw_report *rb, const pw_html_watch *wb)
{
    int code = EXIT_OK;
    pw_error err;
    pw_status s = PW_OK;
    pw_report *d = NULL;
    if (db) {
        d = pw_report_new();
        s = d ? pw_diff_reports(ra, rb, a->path, a->path_b, 0, d, &err)
              : (err = (pw_error){.status = PW_E_NOMEM, .message = "out of memory"}, PW_E_NOMEM);
    }
    FILE *out = s == PW_OK ? cli_output(a, &code) : NULL;
    if (out)
        s = db ? pw_html_compare(da, ra, wa, db, rb, wb, d, out, &err) : pw_html_report(da, ra, wa, out, &err);
    if (s != PW_OK)
        code = cli_fail(&err);
    if (out)
        code = cli_close_output(a, code);
    pw_report_free(d);
    return code;
}

static int report_run(cli_args *a)
{
    pw_dataset *da = NULL, *db = NULL;
    pw_report *ra = NULL, *rb = NULL;
    pw_html_watch *wa = NULL, *wb = NULL;
    int code = cli_stats_in_memory(a, a->path, &da, &ra, &wa);
    if (!code && a->path_b)
        code = cli_stats_in_memory(a, a->path_b, &db, &rb, &wb);
    if (!code && db && strcmp(pw_dataset_format(da), pw_dataset_format(db))) {
        fprintf(stderr, "perfweave report: %s is %s and %s is %s: a comparison is of runs of one format\n",
                a->path, pw_dataset_format(da), a->path_b, pw_dataset_format(db));
        code = EXIT_USAGE;
    }
    if (!code)
        code = page_write(a, da, ra, wa, db, rb, wb);
    int dcode = da ? cli_report_diags(da) : 0;
    int dcode_b = db ? cli_report_diags(db) : 0;
    pw_report_free(ra);
    pw_report_free(rb);
    pw_html_watch_free(wa);
    pw_html_watch_free(wb);
    pw_close(da);
    pw_close(db);
    return code ? code : dcode ? dcode : dcode_b;
}

const cli_command cli_report = {
    "report",
    "one self-contained HTML page of a run (or of two runs compared)",
    "usage: perfweave report PATH [B] -o OUT.html [options]\n\n"
    "The page opens offline in any browser: a verdict in plain words first,\n"
    "then the figures the data allows (MPI time per rank, communication\n"
    "matrix, wait states, critical path; thread and CPU states over time;\n"
    "the top-down tree; simulation progress and rollbacks; power, energy and the\n"
    "Pareto front), the tables, and the JSON of 'stats --json' embedded as\n"
    "<script type=\"application/json\" id=\"perfweave-stats\">.  With B, the\n"
    "page compares the runs (the JSON of 'diff --json') and shows both.\n"
    "Filters and format options are those of 'stats'.\n",
    CLI_WANT_OUTPUT | CLI_WANT_FILTER | CLI_WANT_SECOND_PATH,
    report_run,
};
