/* filter_args.c — the options that cut a dataset down (--start, --end,
 * --loc, --ranks, --type), for dump, stats, convert and diff.  The library
 * does the cutting (pw_dataset_filter); this only collects the text. */
#define _GNU_SOURCE /* FNM_CASEFOLD: type globs ignore case, as the library's */
#include <fnmatch.h>
#include <string.h>

#include "cli.h"

void cli_print_filter_help(FILE *out)
{
    fprintf(out,
            "  --start TIME                 keep from TIME on (after the first record: 0.25,\n"
            "                               250ms, 1.5s, 100us, 42ns; @T: clock units)\n"
            "  --end TIME                   keep what comes before TIME (spans that overlap\n"
            "                               the window are kept; converters clip them)\n"
            "  --loc GLOB                   locations whose path matches (repeatable)\n"
            "  --ranks LIST                 MPI ranks, e.g. 0-3,7\n"
            "  --type GLOB                  record types that match, e.g. 'MPI_*send*'\n"
            "                               (repeatable)\n");
}

/* Appends a repeatable option's value; 0 when the list is full. */
static int append(const char **list, size_t *n, const char *value)
{
    if (*n >= 64)
        return 0;
    list[(*n)++] = value;
    return 1;
}

int cli_parse_filter(const cli_command *cmd, int argc, char **argv, int *i, cli_args *a)
{
    static const char *const names[] = {"--start", "--end", "--loc", "--ranks", "--type"};
    const char *s = argv[*i];
    size_t which = 0;
    while (which < 5 && strcmp(s, names[which]))
        which++;
    if (which == 5)
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "perfweave %s: %s needs a value\n", cmd->name, s);
        return EXIT_USAGE;
    }
    const char *v = argv[++*i];
    pw_filter *f = &a->filter;
    int ok = 1;
    switch (which) {
    case 0: f->start = v; break;
    case 1: f->end = v; break;
    case 2: ok = append(a->filter_locs, &f->n_locs, v); break;
    case 3: f->ranks = v; break;
    default: ok = append(a->filter_types, &f->n_types, v); break;
    }
    if (!ok) {
        fprintf(stderr, "perfweave %s: too many %s options (64 at most)\n", cmd->name, s);
        return EXIT_USAGE;
    }
    f->locs = a->filter_locs;
    f->types = a->filter_types;
    return 1;
}

/* A --type that names no record type of the dataset gives an empty answer
 * that looks like an empty trace: it is said, with the types there are. */
static void warn_unmatched_types(const pw_filter *f, const pw_dataset *ds)
{
    size_t n = pw_schema_count(ds);
    for (size_t g = 0; g < f->n_types; g++) {
        size_t i = 0;
        while (i < n && fnmatch(f->types[g], pw_schema_get(ds, i)->name, FNM_CASEFOLD) != 0)
            i++;
        if (i < n)
            continue;
        fprintf(stderr, "perfweave: warning: --type '%s' matches no record type; the types are:", f->types[g]);
        for (i = 0; i < n && i < 60; i++)
            fprintf(stderr, "%s %s", i ? "," : "", pw_schema_get(ds, i)->name);
        fprintf(stderr, "%s\n", n > 60 ? ", ..." : "");
    }
}

int cli_apply_filter(cli_args *a, pw_dataset *ds)
{
    const pw_filter *f = &a->filter;
    if (!f->start && !f->end && !f->n_locs && !f->ranks && !f->n_types)
        return 0;
    pw_error err;
    if (pw_dataset_filter(ds, f, &err) != PW_OK)
        return cli_fail(&err);
    warn_unmatched_types(f, ds);
    return 0;
}
