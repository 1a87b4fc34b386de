/* cmd_info.c — perfweave info: what a path holds. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int info_run(cli_args *a)
{
    pw_dataset *ds;
    pw_error err = {.status = PW_E_NOMEM, .message = "out of memory"};
    pw_status s = pw_open(a->path, &a->opt, &ds, &err);
    if (s == PW_E_FORMAT && !a->opt.format) { /* a folder of several datasets lists them */
        int listed = cli_info_collection(a);
        if (listed >= 0)
            return listed;
    }
    if (s != PW_OK)
        return cli_fail(&err);
    int code = EXIT_OK;
    pw_report *r = pw_report_new();
    cli_progress *prog = cli_progress_start(a, ds, "reading");
    s = r ? pw_info(ds, r, a->locations, &err) : PW_E_NOMEM;
    cli_progress_stop(prog);
    if (s == PW_OK)
        s = pw_report_write(r, stdout, a->json ? PW_REPORT_JSON : PW_REPORT_TEXT, &err);
    if (s != PW_OK)
        code = cli_fail(&err);
    int dcode = cli_report_diags(ds);
    pw_report_free(r);
    pw_close(ds);
    return code ? code : dcode;
}

const cli_command cli_info = {
    "info",
    "what a path holds: format, version, locations, time span, record count",
    "Detects the format of PATH (a file or directory), reads every record once\n"
    "to count them and find the time span, and lists the metadata.  A folder\n"
    "that holds several datasets lists them.\n\n"
    "  --json        one JSON document instead of text\n"
    "  --locations   list every location (rank, thread, stream...)\n",
    CLI_WANT_JSON | CLI_WANT_LOCATIONS,
    info_run,
};
