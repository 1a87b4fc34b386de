/* cmd_stats.c — perfweave stats: the summary a user of the format wants. */
#include "cli.h"

static int stats_run(cli_args *a)
{
    int code = EXIT_OK;
    pw_dataset *ds = cli_open(a, &code);
    if (!ds)
        return code;
    FILE *out = cli_output(a);
    /* Opened up front, so that large arrays stream to the output. */
    pw_report_style style = a->json ? PW_REPORT_JSON : a->csv ? PW_REPORT_CSV : PW_REPORT_TEXT;
    pw_report *r = out ? pw_report_open(out, style) : NULL;
    if (r && cli_apply_view(a, r)) {
        pw_report_free(r);
        r = NULL;
    }
    pw_error err = {.status = PW_E_NOMEM, .message = "out of memory"};
    pw_status s = out && r ? PW_OK : PW_E_IO;
    if (out && r) {
        cli_progress *prog = cli_progress_start(a, ds, "reading");
        s = pw_stats(ds, r, &err);
        cli_progress_stop(prog);
        if (s == PW_OK)
            s = pw_report_finish(r, &err);
        if (s != PW_OK)
            code = cli_fail(&err);
    } else {
        code = r ? EXIT_SYSTEM : cli_fail(&err);
    }
    if (out) {
        int c = cli_close_output(a, out);
        code = code ? code : c;
    }
    int dcode = cli_report_diags(ds);
    pw_report_free(r);
    pw_close(ds);
    return code ? code : dcode;
}

const cli_command cli_stats = {
    "stats",
    "the summary a user of the format wants (tables, JSON or CSV)",
    "What it reports depends on the format: for ovni, per stream events, clock\n"
    "range and rate, per model and per event-type counts, payload sizes, jumbo\n"
    "volume and per loom/process totals.  Locations are read in parallel.\n\n"
    "  --json        one JSON document\n"
    "  --csv         CSV tables, each introduced by a '# name' line\n",
    CLI_WANT_JSON | CLI_WANT_CSV | CLI_WANT_OUTPUT | CLI_WANT_FILTER | CLI_WANT_VIEW,
    stats_run,
};
