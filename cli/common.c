/* common.c — opening datasets, outputs, diagnostics and exit codes. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cli_exit_code(pw_status s)
{
    switch (s) {
    case PW_OK:
    case PW_END: return EXIT_OK;
    case PW_E_DATA: return EXIT_DAMAGED;
    case PW_E_FORMAT:
    case PW_E_USAGE: return EXIT_USAGE;
    case PW_E_IO:
    case PW_E_NOMEM: return EXIT_SYSTEM;
    }
    return EXIT_SYSTEM;
}

/* The name of the output being written, for the library's messages that
 * say "<output>" (a writer given a stream does not know its name). */
static const char *output_name = "<stdout>";

int cli_fail(const pw_error *err)
{
    const char *generic = "<output>";
    if (!strncmp(err->message, generic, strlen(generic)))
        fprintf(stderr, "perfweave: error: %s%s\n", output_name, err->message + strlen(generic));
    else
        fprintf(stderr, "perfweave: error: %s\n", err->message);
    return cli_exit_code(err->status);
}

pw_dataset *cli_open(cli_args *a, int *code)
{
    pw_dataset *ds;
    pw_error err;
    if (pw_open(a->path, &a->opt, &ds, &err) != PW_OK) {
        *code = cli_fail(&err);
        return NULL;
    }
    cli_warn_foreign_options(a, ds);
    if ((*code = cli_apply_filter(a, ds)) != 0) {
        pw_close(ds);
        return NULL;
    }
    return ds;
}

FILE *cli_output(cli_args *a, int *code)
{
    pw_error err;
    unsigned flags = a->force ? PW_OUTPUT_FORCE : 0;
    if (a->output && strcmp(a->output, "-"))
        output_name = a->output;
    if (pw_output_open(a->output ? a->output : "-", flags, &a->out, &err) != PW_OK) {
        *code = cli_fail(&err);
        return NULL;
    }
    return pw_output_stream(a->out);
}

int cli_close_output(cli_args *a, int code)
{
    pw_error err;
    if (code && code != EXIT_DAMAGED) { /* damaged input: what could be read is kept */
        pw_output_discard(a->out);
    } else if (pw_output_commit(a->out, &err) != PW_OK) {
        code = cli_fail(&err);
    }
    a->out = NULL;
    return code;
}

/* A signal ends the run: what was being written goes, then the process
 * ends with 128 + the signal's number, as a shell reports it. */
static void on_signal(int sig)
{
    pw_output_abandon_all();
    _exit(128 + sig);
}

void cli_handle_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int cli_close_stdout(int code)
{
    errno = 0;
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int saved = errno ? errno : EIO;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    if (!bad)
        return code;
    if (code != EXIT_SYSTEM) /* not said already */
        fprintf(stderr, "perfweave: error: <stdout>: write failed: %s\n", strerror(saved));
    return EXIT_SYSTEM;
}

void cli_print_diag(const pw_diag *d)
{
    static const char *const sev[] = {"note", "warning", "error"};
    fprintf(stderr, "perfweave: %s: %s [%s]\n", sev[d->severity], d->message, d->code);
}

void cli_print_dropped(uint64_t dropped)
{
    if (dropped)
        fprintf(stderr, "perfweave: ... and %llu more findings not shown\n", (unsigned long long)dropped);
}

int cli_report_diags(const pw_dataset *ds)
{
    size_t n = pw_dataset_diag_count(ds);
    for (size_t i = 0; i < n; i++)
        cli_print_diag(pw_dataset_diag(ds, i));
    cli_print_dropped(pw_dataset_diag_dropped(ds));
    return pw_dataset_system_fault(ds) ? EXIT_SYSTEM : pw_dataset_worst_severity(ds) >= PW_SEV_ERROR ? EXIT_DAMAGED : EXIT_OK;
}
