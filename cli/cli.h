/* cli.h — what the subcommands share: option parsing, opening a dataset,
 * reporting diagnostics, exit codes and the progress bar.  No format logic
 * lives in cli/. */
#ifndef PW_CLI_H
#define PW_CLI_H
#include <stdio.h>

#include "perfweave.h"

/* Exit codes (DESIGN.md). */
enum {
    EXIT_OK = 0,
    EXIT_DAMAGED = 1, /* the data is damaged; what could be read was written */
    EXIT_USAGE = 2,
    EXIT_SYSTEM = 3
};

/* Options common to every subcommand, filled by cli_parse. */
typedef struct cli_args {
    const char *path;
    const char *path_b;   /* diff's second PATH */
    const char *output;   /* -o FILE, or NULL for stdout */
    const char *to;       /* convert --to NAME, or NULL */
    int json, csv, jsonl; /* output styles */
    int states;           /* dump --states: the emulator's channel changes */
    int locations;        /* info --locations */
    int quiet;            /* no progress bar */
    int force;            /* --force: replace an existing output */
    int allow_loss;       /* convert --allow-loss: records the target cannot hold are not an error */
    pw_output *out;       /* the output cli_output opened */
    pw_options opt;
    pw_option_kv kv[64];
    /* --start/--end/--loc/--ranks/--type (filter_args.c) */
    pw_filter filter;
    const char *filter_locs[64];
    const char *filter_types[64];
    /* --top/--table (view_args.c) */
    size_t top;
    int top_set;
    const char *table;
    int tables;           /* stats --tables: list the tables, not their rows */
} cli_args;

/* What a subcommand accepts beyond the common options. */
enum {
    CLI_WANT_JSON = 1,
    CLI_WANT_CSV = 2,
    CLI_WANT_JSONL = 4,
    CLI_WANT_OUTPUT = 8,
    CLI_WANT_LOCATIONS = 16,
    CLI_WANT_TARGET = 32,
    CLI_WANT_FILTER = 64,
    CLI_WANT_TWO_PATHS = 128,
    CLI_WANT_VIEW = 256,
    CLI_WANT_STATES = 512,
    CLI_WANT_SECOND_PATH = 1024 /* a second PATH may follow (report A [B]) */
};

/* Exit code of a conversion that dropped records (without --allow-loss). */
#define EXIT_LOSS EXIT_DAMAGED

typedef struct cli_command {
    const char *name;
    const char *summary;
    const char *usage;  /* the help text after the synopsis */
    unsigned wants;
    int (*run)(cli_args *a);
} cli_command;

extern const cli_command cli_info, cli_dump, cli_stats, cli_check, cli_convert, cli_diff, cli_report;

/* Parses argv (after the subcommand); returns -1 to go on, or an exit code
 * (help printed: 0; bad usage: 2). */
int cli_parse(const cli_command *cmd, int argc, char **argv, cli_args *a);
void cli_print_help(const cli_command *cmd, FILE *out);
/* 'perfweave help FORMAT': the format's options; 0 when no format has
 * that name. */
int cli_print_format_help(const char *name, FILE *out);
/* Warns on stderr about format options given for another format than
 * ds's (they would be ignored without a word). */
void cli_warn_foreign_options(const cli_args *a, const pw_dataset *ds);

/* The filter options (filter_args.c): 1 when argv[*i] was one (its value
 * consumed), 0 when it is not, or an exit code after a usage message. */
int cli_parse_filter(const cli_command *cmd, int argc, char **argv, int *i, cli_args *a);
void cli_print_filter_help(FILE *out);
/* Sets the parsed filter on ds; 0, or an exit code with the error printed. */
int cli_apply_filter(cli_args *a, pw_dataset *ds);

/* --top/--table (view_args.c), as the filter options above. */
int cli_parse_view(const cli_command *cmd, int argc, char **argv, int *i, cli_args *a);
void cli_print_view_help(FILE *out);
/* Sets what r's text and CSV show; 0, or an exit code. */
int cli_apply_view(const cli_args *a, pw_report *r);

/* info on a folder of datasets (info_dir.c): lists those among its
 * entries; -1 when none opens (the caller reports its own error). */
int cli_info_collection(cli_args *a);

/* Opens a.path, printing the error and returning NULL on failure (*code set). */
pw_dataset *cli_open(cli_args *a, int *code);
/* Opens `path` with a's options and runs its stats into a new report kept
 * in memory (*ds, *r: the caller frees both); watch, when not NULL,
 * receives what an HTML page keeps of the run.  Returns an exit code. */
int cli_stats_in_memory(cli_args *a, const char *path, pw_dataset **ds, pw_report **r, pw_html_watch **watch);
/* The output stream (-o or stdout, under the library's output discipline);
 * NULL with the error printed (*code set). */
FILE *cli_output(cli_args *a, int *code);
/* Checks every write, closes and renames the output into place (code 0),
 * or removes it (code != 0, an error already printed); returns the exit
 * code of the close. */
int cli_close_output(cli_args *a, int code);
/* Signal handlers that remove temporary outputs (SIGINT, SIGTERM) and the
 * final check of standard output. */
void cli_handle_signals(void);
int cli_close_stdout(int code);
/* Prints the dataset's diagnostics to stderr; returns the exit code they
 * imply (1 when any error-level finding exists, else 0). */
int cli_report_diags(const pw_dataset *ds);
/* One diagnostic's line, and the line of the findings not kept (none when
 * 0), as cli_report_diags prints them. */
void cli_print_diag(const pw_diag *d);
void cli_print_dropped(uint64_t dropped);
/* check's summary line on standard output. */
void cli_print_check_summary(const pw_dataset *ds, size_t errors, size_t warnings, int damaged);
/* Prints err to stderr and returns the exit code of its status. */
int cli_fail(const pw_error *err);
int cli_exit_code(pw_status s);

/* convert's steps (cmd_convert.c), for perfweave-mpi's convert: the
 * options a conversion sets, the account it prints, and its exit code
 * for records the target could not hold. */
void cli_convert_for_timelines(cli_args *a);
void cli_print_convert_account(const pw_convert_report *rep, const char *out);
int cli_convert_loss_code(const cli_args *a, const pw_convert_report *rep);

/* Progress bar on stderr while long work runs (only when stderr is a
 * terminal and --quiet is not given). */
typedef struct cli_progress cli_progress;
cli_progress *cli_progress_start(const cli_args *a, const pw_dataset *ds, const char *what);
void cli_progress_stop(cli_progress *p);
#endif
