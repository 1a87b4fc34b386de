/* view_args.c — what report tables show: --top N rows per table (default
 * 20, 0: all) and --table NAME, for stats and diff. */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"

void cli_print_view_help(FILE *out)
{
    fprintf(out,
            "  --top N                      rows per text table (default 20; 0: all)\n"
            "  --table NAME                 show only table NAME (text and CSV)\n"
            "  --tables                     list the tables (name, rows, description; --json: with columns)\n");
}

int cli_parse_view(const cli_command *cmd, int argc, char **argv, int *i, cli_args *a)
{
    const char *s = argv[*i];
    if (!strcmp(s, "--tables")) {
        a->tables = 1;
        return 1;
    }
    if (strcmp(s, "--top") && strcmp(s, "--table"))
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "perfweave %s: %s needs a value\n", cmd->name, s);
        return EXIT_USAGE;
    }
    const char *v = argv[++*i];
    if (!strcmp(s, "--table")) {
        a->table = v;
        return 1;
    }
    char *end;
    long n = strtol(v, &end, 10);
    if (*end || end == v || n < 0) {
        fprintf(stderr, "perfweave %s: --top wants a number of rows (0: all): %s\n", cmd->name, v);
        return EXIT_USAGE;
    }
    a->top = (size_t)n;
    a->top_set = 1;
    return 1;
}

/* The terminal's width when the report goes to one, else 0 (files and
 * pipes get whole lines). */
static size_t terminal_width(const cli_args *a)
{
    struct winsize ws;
    if (a->output || !isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0)
        return 0;
    return ws.ws_col;
}

int cli_apply_view(const cli_args *a, pw_report *r)
{
    size_t top = a->top_set ? a->top : 20;
    if (pw_report_set_view(r, top, a->table, terminal_width(a)))
        return 0;
    fprintf(stderr, "perfweave: error: out of memory\n");
    return EXIT_SYSTEM;
}
