/* cmd_dump.c — perfweave dump: every record, merged in time order. */
#include "cli.h"

static int dump_run(cli_args *a)
{
    int code = EXIT_OK;
    a->opt.wants = PW_WANT_RECORDS; /* formats skip what they gather for stats */
    pw_dataset *ds = cli_open(a, &code);
    if (!ds)
        return code;
    /* --states: the channel changes of the runtime emulator that replays
     * the records (ovni) */
    if (a->states && !pw_dataset_prop_get(ds, "emulation")) {
        fprintf(stderr, "perfweave dump: --states needs a trace whose records a runtime emulator replays\n");
        pw_close(ds);
        return EXIT_USAGE;
    }
    FILE *out = cli_output(a, &code);
    if (!out) {
        pw_close(ds);
        return code;
    }
    pw_error err;
    cli_progress *prog = cli_progress_start(a, ds, "dumping");
    pw_status s;
    if (a->states)
        s = pw_dump_states(ds, out, PW_DUMP_JSONL, &err);
    else
        s = pw_dump_all(ds, out, a->jsonl ? PW_DUMP_JSONL : PW_DUMP_TEXT, &err);
    cli_progress_stop(prog);
    if (s != PW_OK)
        code = cli_fail(&err);
    code = cli_close_output(a, code);
    int dcode = cli_report_diags(ds);
    pw_close(ds);
    return code ? code : dcode;
}

const cli_command cli_dump = {
    "dump",
    "every record, one per line, in time order (text or JSON Lines)",
    "Records of all locations are merged by time; records of one location keep\n"
    "their file order.  Text lines read '<time> <location> <type> field=value...'.\n"
    "JSON Lines objects carry \"loc\", \"t\", \"type\" and one key per field.\n\n"
    "  --jsonl       one JSON object per line\n"
    "  --states      the runtime emulator's thread and CPU channel changes as JSON\n"
    "                Lines (loc, view, t, type, channel, value, label)\n",
    CLI_WANT_JSONL | CLI_WANT_OUTPUT | CLI_WANT_STATES | CLI_WANT_FILTER,
    dump_run,
};
