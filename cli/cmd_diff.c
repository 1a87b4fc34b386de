/* cmd_diff.c — perfweave diff A B: what changed between two runs, table by
 * table of their stats (the library matches the rows: pw_diff_reports). */
#include <string.h>

#include "cli.h"

static int diff_write(cli_args *a, const pw_report *ra, const pw_report *rb)
{
    pw_report_style style = a->json ? PW_REPORT_JSON : a->csv ? PW_REPORT_CSV : PW_REPORT_TEXT;
    int code = EXIT_OK;
    pw_report *d = pw_report_new();
    if (!d || cli_apply_view(a, d)) {
        pw_report_free(d);
        return EXIT_SYSTEM;
    }
    FILE *out = cli_output(a, &code);
    if (!out) {
        pw_report_free(d);
        return code;
    }
    pw_error err;
    pw_status s = pw_diff_reports(ra, rb, a->path, a->path_b, style != PW_REPORT_JSON, d, &err);
    if (s == PW_OK)
        s = pw_report_write(d, out, style, &err);
    if (s != PW_OK)
        code = cli_fail(&err);
    code = cli_close_output(a, code);
    pw_report_free(d);
    return code;
}

static int diff_run(cli_args *a)
{
    pw_dataset *da = NULL, *db = NULL;
    pw_report *ra = NULL, *rb = NULL;
    int code = cli_stats_in_memory(a, a->path, &da, &ra, NULL);
    if (!code)
        code = cli_stats_in_memory(a, a->path_b, &db, &rb, NULL);
    if (!code && strcmp(pw_dataset_format(da), pw_dataset_format(db))) {
        fprintf(stderr, "perfweave diff: %s is %s and %s is %s: diff compares runs of one format\n",
                a->path, pw_dataset_format(da), a->path_b, pw_dataset_format(db));
        code = EXIT_USAGE;
    }
    if (!code)
        code = diff_write(a, ra, rb);
    int dcode = da ? cli_report_diags(da) : 0;
    int dcode_b = db ? cli_report_diags(db) : 0;
    pw_report_free(ra);
    pw_report_free(rb);
    pw_close(da);
    pw_close(db);
    return code ? code : dcode ? dcode : dcode_b;
}

const cli_command cli_diff = {
    "diff",
    "what changed between two runs: their stats, row by row (B - A)",
    "usage: perfweave diff A B [options]\n\n"
    "Both datasets must be of one format.  For each table of 'stats', rows are\n"
    "matched by what names the thing in both runs (names, ranks, PEs; processes\n"
    "and threads by their order, not their ids; paths relative to the dataset;\n"
    "calling contexts by their path from the root) and every numeric column\n"
    "shows A, B and B - A; identifiers and absolute clocks are never subtracted.\n"
    "Rows that did not change are left out; the largest relative change first.\n"
    "Filters apply to both datasets.\n\n"
    "  --json        {\"a\", \"b\", \"tables\": {NAME: [{key, a, b, delta}]}}\n"
    "  --csv         CSV tables, each introduced by a '# name' line\n",
    CLI_WANT_JSON | CLI_WANT_CSV | CLI_WANT_OUTPUT | CLI_WANT_FILTER | CLI_WANT_TWO_PATHS | CLI_WANT_VIEW,
    diff_run,
};
