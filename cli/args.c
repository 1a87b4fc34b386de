/* args.c — the option parser shared by all subcommands. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Format f's options, with the --set key each one stands for. */
static void print_format_options(FILE *out, size_t f)
{
    int any = 0;
    for (const pw_format_option *o = pw_format_options(f); o && o->key; o++) {
        if (!any++)
            fprintf(out, "\noptions (any command):\n");
        char flag[96];
        snprintf(flag, sizeof flag, "--%s%s%s", o->flag, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(out, "  %-28s %s (--set %s.%s=...)\n", flag, o->help, pw_format_name(f), o->key);
    }
}

/* The convert targets, as the library's sink registry lists them. */
static void print_targets(FILE *out)
{
    fprintf(out, "\ntargets (--to NAME, or from OUT's extension):\n");
    for (size_t i = 0; i < pw_sink_count(); i++) {
        if (pw_sink_kind_of(i) != PW_SINK_CONVERT)
            continue;
        fprintf(out, "  %-10s %s%s\n", pw_sink_name(i), pw_sink_description(i),
                pw_sink_caps(i) & PW_SINK_MISSING ? " (not in this build)" : "");
        fprintf(out, "  %-10s %s%s\n", "", pw_sink_extensions(i),
                pw_sink_caps(i) & PW_SINK_STREAMS ? "; streams to '-', FIFOs, devices" : "");
        const char *states = pw_sink_states_output(i);
        if (states)
            fprintf(out, "  %-10s states: %s\n", "", *states ? states : "OUT without an extension (a directory)");
    }
}

void cli_print_help(const cli_command *cmd, FILE *out)
{
    fprintf(out, "usage: perfweave %s PATH [options]\n\n%s\n%s\ncommon options:\n", cmd->name,
            cmd->summary, cmd->usage);
    if (cmd->wants & CLI_WANT_FILTER)
        cli_print_filter_help(out);
    if (cmd->wants & CLI_WANT_VIEW)
        cli_print_view_help(out);
    if (cmd->wants & CLI_WANT_OUTPUT)
        fprintf(out, "  -o FILE                      write to FILE instead of standard output\n"
                     "  --force                      replace FILE if it exists\n");
    fprintf(out,
            "  --format NAME                read PATH as this format (default: detect)\n"
            "  -j N, -jN                    worker threads (default: all cores; dump\n"
            "                               counts the cores the load leaves idle)\n"
            "  --set FORMAT.KEY=VALUE       set a format option by its key\n"
            "  -q, --quiet                  no progress bar\n"
            "  -h, --help                   this help\n");
    if (cmd->wants & CLI_WANT_TARGET)
        print_targets(out);
    fprintf(out, "\nA format's own options: 'perfweave help FORMAT' (");
    for (size_t f = 0; f < pw_format_count(); f++)
        fprintf(out, "%s%s", f ? ", " : "", pw_format_name(f));
    fprintf(out, ").\n");
}

/* The tables stats gives for the format: its own, then the analyses'. */
static void print_format_tables(FILE *out, size_t f)
{
    const char *name, *desc, *by;
    if (pw_format_table(f, 0, NULL))
        fprintf(out, "\ntables of 'perfweave stats' (--table NAME shows one, --tables lists a dataset's):\n");
    for (size_t i = 0; (name = pw_format_table(f, i, &desc)); i++)
        fprintf(out, "  %-26s %s\n", name, desc);
    if (pw_format_analysis_table(f, 0, NULL, NULL))
        fprintf(out, "\ntables the analyses add when the records hold what they need:\n");
    for (size_t i = 0; (name = pw_format_analysis_table(f, i, &desc, &by)); i++)
        fprintf(out, "  %-26s %s (%s)\n", name, desc, by);
}

int cli_print_format_help(const char *name, FILE *out)
{
    for (size_t f = 0; f < pw_format_count(); f++) {
        if (strcmp(name, pw_format_name(f)))
            continue;
        fprintf(out, "%s: %s\n", pw_format_name(f), pw_format_description(f));
        if (!pw_format_options(f) || !pw_format_options(f)->key)
            fprintf(out, "\nno options of its own\n");
        print_format_options(out, f);
        print_format_tables(out, f);
        return 1;
    }
    return 0;
}

/* Matches a format's --flag; fills the option and consumes its value. */
static int parse_format_flag(cli_args *a, const char *arg, int argc, char **argv, int *i)
{
    for (size_t f = 0; f < pw_format_count(); f++) {
        for (const pw_format_option *o = pw_format_options(f); o && o->key; o++) {
            if (strncmp(arg, "--", 2) || strcmp(arg + 2, o->flag))
                continue;
            if (a->opt.n_kv >= sizeof a->kv / sizeof *a->kv)
                return -1;
            static char keys[64][128]; /* one parse per process */
            size_t k = a->opt.n_kv;
            snprintf(keys[k], sizeof keys[0], "%s.%s", pw_format_name(f), o->key);
            const char *value = "1";
            if (o->arg) {
                if (*i + 1 >= argc)
                    return -1;
                value = argv[++*i];
            }
            a->kv[k] = (pw_option_kv){keys[k], value};
            a->opt.n_kv = k + 1;
            return 1;
        }
    }
    return 0;
}

static int usage_error(const cli_command *cmd, const char *what, const char *arg)
{
    fprintf(stderr, "perfweave %s: %s%s%s\n(see 'perfweave %s --help')\n", cmd->name, what,
            arg ? ": " : "", arg ? arg : "", cmd->name);
    return EXIT_USAGE;
}

int cli_parse(const cli_command *cmd, int argc, char **argv, cli_args *a)
{
    memset(a, 0, sizeof *a);
    a->opt.kv = a->kv;
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        int more = i + 1 < argc, r;
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            cli_print_help(cmd, stdout);
            return EXIT_OK;
        } else if (!strcmp(s, "--json") && (cmd->wants & CLI_WANT_JSON)) {
            a->json = 1;
        } else if (!strcmp(s, "--csv") && (cmd->wants & CLI_WANT_CSV)) {
            a->csv = 1;
        } else if (!strcmp(s, "--jsonl") && (cmd->wants & CLI_WANT_JSONL)) {
            a->jsonl = 1;
        } else if (!strcmp(s, "--states") && (cmd->wants & CLI_WANT_STATES)) {
            a->states = 1;
        } else if (!strcmp(s, "--locations") && (cmd->wants & CLI_WANT_LOCATIONS)) {
            a->locations = 1;
        } else if (!strcmp(s, "-q") || !strcmp(s, "--quiet")) {
            a->quiet = 1;
        } else if (!strcmp(s, "-o") && (cmd->wants & CLI_WANT_OUTPUT) && more) {
            a->output = argv[++i];
        } else if (!strcmp(s, "--force") && (cmd->wants & CLI_WANT_OUTPUT)) {
            a->force = 1;
        } else if (!strcmp(s, "--allow-loss") && (cmd->wants & CLI_WANT_TARGET)) {
            a->allow_loss = 1;
        } else if (!strcmp(s, "--to") && (cmd->wants & CLI_WANT_TARGET) && more) {
            a->to = argv[++i];
        } else if ((cmd->wants & CLI_WANT_FILTER) && (r = cli_parse_filter(cmd, argc, argv, &i, a)) != 0) {
            if (r != 1)
                return r;
        } else if ((cmd->wants & CLI_WANT_VIEW) && (r = cli_parse_view(cmd, argc, argv, &i, a)) != 0) {
            if (r != 1)
                return r;
        } else if (!strcmp(s, "--format") && more) {
            a->opt.format = argv[++i];
        } else if ((!strcmp(s, "-j") && more) || (!strncmp(s, "-j", 2) && s[2])) {
            const char *v = s[2] ? s + 2 : argv[++i]; /* -j4 as well as -j 4 */
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || end == v || n < 1 || n > 256)
                return usage_error(cmd, "-j wants a number of threads from 1 to 256", v);
            a->opt.threads = (int)n;
        } else if (!strcmp(s, "--set") && more) {
            char *eq = strchr(argv[++i], '=');
            if (!eq || a->opt.n_kv >= sizeof a->kv / sizeof *a->kv)
                return usage_error(cmd, "--set wants FORMAT.KEY=VALUE", argv[i]);
            *eq = '\0';
            a->kv[a->opt.n_kv++] = (pw_option_kv){argv[i], eq + 1};
        } else if (s[0] == '-' && s[1]) {
            r = parse_format_flag(a, s, argc, argv, &i);
            if (r < 0)
                return usage_error(cmd, "option needs a value", s);
            if (r == 0)
                return usage_error(cmd, "unknown option", s);
        } else if (!a->path) {
            a->path = s;
        } else if ((cmd->wants & (CLI_WANT_TWO_PATHS | CLI_WANT_SECOND_PATH)) && !a->path_b) {
            a->path_b = s;
        } else {
            return usage_error(cmd, "more than one PATH", s);
        }
    }
    if (!a->path)
        return usage_error(cmd, "no PATH given", NULL);
    if ((cmd->wants & CLI_WANT_TWO_PATHS) && !a->path_b)
        return usage_error(cmd, "two PATHs are needed", NULL);
    if (a->json + a->csv + a->jsonl > 1)
        return usage_error(cmd, "choose one output style", NULL);
    return -1;
}

void cli_warn_foreign_options(const cli_args *a, const pw_dataset *ds)
{
    const char *mine = pw_dataset_format(ds);
    size_t n = strlen(mine);
    for (size_t i = 0; i < a->opt.n_kv; i++) {
        const char *key = a->kv[i].key;
        const char *dot = strchr(key, '.');
        if (!dot || ((size_t)(dot - key) == n && !strncmp(key, mine, n)))
            continue;
        fprintf(stderr, "perfweave: warning: %.*s option '%s' ignored: %s is a %s dataset\n",
                (int)(dot - key), key, dot + 1, pw_dataset_path(ds), mine);
    }
}
