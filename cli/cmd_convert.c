/* cmd_convert.c — perfweave convert: any dataset into a viewer's format,
 * then the account of records in and out (what the target could not hold
 * is listed, never dropped silently).  The targets, their extensions and
 * hints come from the library's sink registry. */
#include <string.h>

#include "cli.h"

/* The registry's entry of a convert target, or (size_t)-1. */
static size_t sink_index(const char *name)
{
    for (size_t i = 0; name && i < pw_sink_count(); i++)
        if (pw_sink_kind_of(i) == PW_SINK_CONVERT && !strcmp(pw_sink_name(i), name))
            return i;
    return (size_t)-1;
}

static uint64_t records_lost(const pw_convert_report *rep)
{
    uint64_t lost = 0;
    for (size_t i = 0; i < rep->n_items; i++)
        lost += rep->items[i].lost ? rep->items[i].count : 0;
    return lost;
}

void cli_print_convert_account(const pw_convert_report *rep, const char *out)
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
    const char *hint = pw_sink_hint(sink_index(rep->target));
    if (hint && rep->records_out) /* a viewer shows nothing of an empty output */
        fprintf(stderr, "perfweave: %s\n", hint);
}

/* Records the target could not hold are never dropped without a word,
 * even with -q; they fail the run unless --allow-loss accepts them. */
int cli_convert_loss_code(const cli_args *a, const pw_convert_report *rep)
{
    uint64_t lost = records_lost(rep);
    if (!lost)
        return EXIT_OK;
    if (a->quiet)
        fprintf(stderr, "perfweave: %llu records not written by the %s target%s\n",
                (unsigned long long)lost, rep->target, a->allow_loss ? "" : " (--allow-loss accepts this)");
    return a->allow_loss ? EXIT_OK : EXIT_LOSS;
}

/* A conversion is for a timeline viewer: formats that can shape their
 * records for one do; it asks for no stats, so formats skip what they
 * gather for them at open. */
void cli_convert_for_timelines(cli_args *a) { a->opt.wants = PW_WANT_TIMELINE; }

static int convert_run(cli_args *a)
{
    if (!a->output) {
        fprintf(stderr, "perfweave convert: -o OUT is required (see 'perfweave convert --help')\n");
        return EXIT_USAGE;
    }
    int code = EXIT_OK;
    cli_convert_for_timelines(a);
    pw_dataset *ds = cli_open(a, &code);
    if (!ds)
        return code;
    pw_error err;
    pw_convert_report rep;
    cli_progress *prog = cli_progress_start(a, ds, "converting");
    pw_status s = pw_convert_output(ds, a->output, a->to, a->force ? PW_OUTPUT_FORCE : 0, &rep, &err);
    cli_progress_stop(prog);
    if (s != PW_OK)
        code = cli_fail(&err);
    else if (!a->quiet)
        cli_print_convert_account(&rep, a->output);
    if (s == PW_OK)
        code = cli_convert_loss_code(a, &rep);
    int dcode = cli_report_diags(ds);
    pw_close(ds);
    return code ? code : dcode;
}

const cli_command cli_convert = {
    "convert",
    "convert to another tool's format (the targets: 'perfweave convert --help')",
    "Records of all locations are merged by time and streamed into OUT (-o,\n"
    "required; '-' is standard output for the targets that stream).  The\n"
    "target follows from OUT's extension or from --to NAME.  OUT is written\n"
    "under a temporary name and renamed when complete; an existing OUT is\n"
    "refused unless --force.  At the end, the counts of records in and out\n"
    "are printed, with what the target could not hold; records it could not\n"
    "hold are reported even with -q and make the exit code 1 unless\n"
    "--allow-loss.  Records are shaped for timelines where a format can\n"
    "(call stacks as nested frames; see 'perfweave help FORMAT').\n\n"
    "For traces whose records a runtime emulator replays into thread and CPU\n"
    "states, an OUT named as a target's \"states:\" line says (below) gets\n"
    "those states instead of the records: Paraver's thread.prv and cpu.prv as\n"
    "the emulator writes them, or slices per state for the viewers.\n\n"
    "  --to NAME     the target (below)\n"
    "  --force       replace an existing OUT (a directory too)\n"
    "  --allow-loss  exit 0 even when the target could not hold some records\n",
    CLI_WANT_OUTPUT | CLI_WANT_TARGET | CLI_WANT_FILTER,
    convert_run,
};
