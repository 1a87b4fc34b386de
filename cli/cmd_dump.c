/* cmd_dump.c — perfweave dump: every record, merged in time order. */
#include "cli.h"

static int dump_run(cli_args *a)
{
    int code = EXIT_OK;
    pw_dataset *ds = cli_open(a, &code);
    if (!ds)
        return code;
    FILE *out = cli_output(a);
    if (!out) {
        pw_close(ds);
        return EXIT_SYSTEM;
    }
    pw_error err;
    pw_dump *d = NULL;
    pw_merge *m = NULL;
    cli_progress *prog = cli_progress_start(a, ds, "dumping");
    pw_status s = pw_dump_open(ds, out, a->jsonl ? PW_DUMP_JSONL : PW_DUMP_TEXT, &d, &err);
    if (s == PW_OK)
        s = pw_merge_open(ds, &m, &err);
    const pw_record *rec;
    while (s == PW_OK && pw_merge_next(m, &rec, &err) == PW_OK)
        s = pw_dump_record(d, rec, &err);
    pw_status sc = pw_dump_close(d, s == PW_OK ? &err : NULL);
    s = s == PW_OK ? sc : s;
    pw_merge_close(m);
    cli_progress_stop(prog);
    if (s != PW_OK)
        code = cli_fail(&err);
    int c = cli_close_output(a, out);
    code = code ? code : c;
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
    "  --jsonl       one JSON object per line\n",
    CLI_WANT_JSONL | CLI_WANT_OUTPUT,
    dump_run,
};
