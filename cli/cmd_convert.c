/* cmd_convert.c — perfweave convert: any dataset into a viewer's format,
 * then the account of records in and out (what the target could not hold
 * is listed, never dropped silently). */
#include <string.h>

#include "cli.h"

static void print_account(const pw_convert_report *rep, const char *out)
{
    fprintf(stderr, "perfweave: converted to %s: %s (%llu records in, %llu out",
            rep->target ? rep->target : "?", out, (unsigned long long)rep->records_in,
            (unsigned long long)rep->records_out);
    if (rep->bytes_out)
        fprintf(stderr, ", %llu bytes", (unsigned long long)rep->bytes_out);
    fprintf(stderr, ")\n");
    for (size_t i = 0; i < rep->n_items; i++)
        fprintf(stderr, "perfweave:   %s %llu %s\n", rep->items[i].lost ? "not written:" : "adapted:    ",
                (unsigned long long)rep->items[i].count, rep->items[i].what);
    if (rep->target && !strcmp(rep->target, "perfetto"))
        fprintf(stderr, "perfweave: open it at https://ui.perfetto.dev (Open trace file)\n");
}

static int convert_run(cli_args *a)
{
    if (!a->output) {
        fprintf(stderr, "perfweave convert: -o OUT is required (see 'perfweave convert --help')\n");
        return EXIT_USAGE;
    }
    int code = EXIT_OK;
    pw_dataset *ds = cli_open(a, &code);
    if (!ds)
        return code;
    pw_error err;
    pw_convert_report rep;
    cli_progress *prog = cli_progress_start(a, ds, "converting");
    pw_status s = pw_convert(ds, a->output, a->to, &rep, &err);
    cli_progress_stop(prog);
    if (s != PW_OK)
        code = cli_fail(&err);
    else if (!a->quiet)
        print_account(&rep, a->output);
    int dcode = cli_report_diags(ds);
    pw_close(ds);
    return code ? code : dcode;
}

const cli_command cli_convert = {
    "convert",
    "convert to Perfetto, Chrome JSON, OTF2, Paraver, CSV or SQLite",
    "Records of all locations are merged by time and streamed into OUT (-o,\n"
    "required).  The target follows from OUT's extension (.pftrace, .json,\n"
    ".json.gz, .otf2, .prv, .csv.d, .sqlite/.db) or from --to NAME.  At the\n"
    "end, the counts of records in and out are printed, with what the target\n"
    "could not hold.\n\n"
    "  --to NAME     perfetto | chrome | otf2 | paraver | csv | sqlite\n",
    CLI_WANT_OUTPUT | CLI_WANT_TARGET | CLI_WANT_FILTER,
    convert_run,
};
