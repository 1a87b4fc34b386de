/* common.c — opening datasets, outputs, diagnostics and exit codes. */
#include <errno.h>
#include <string.h>

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

int cli_fail(const pw_error *err)
{
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

FILE *cli_output(cli_args *a)
{
    if (!a->output || !strcmp(a->output, "-"))
        return stdout;
    FILE *f = fopen(a->output, "wb");
    if (!f)
        fprintf(stderr, "perfweave: error: %s: cannot create: %s\n", a->output, strerror(errno));
    return f;
}

int cli_close_output(cli_args *a, FILE *out)
{
    int bad = fflush(out) != 0 || ferror(out);
    if (out != stdout)
        bad |= fclose(out) != 0;
    if (bad) {
        fprintf(stderr, "perfweave: error: %s: write failed: %s\n",
                a->output ? a->output : "<stdout>", strerror(errno));
        return EXIT_SYSTEM;
    }
    return EXIT_OK;
}

int cli_report_diags(const pw_dataset *ds)
{
    static const char *const sev[] = {"note", "warning", "error"};
    size_t n = pw_dataset_diag_count(ds);
    for (size_t i = 0; i < n; i++) {
        const pw_diag *d = pw_dataset_diag(ds, i);
        fprintf(stderr, "perfweave: %s: %s [%s]\n", sev[d->severity], d->message, d->code);
    }
    if (pw_dataset_diag_dropped(ds))
        fprintf(stderr, "perfweave: ... and %llu more findings not shown\n",
                (unsigned long long)pw_dataset_diag_dropped(ds));
    return pw_dataset_system_fault(ds) ? EXIT_SYSTEM : pw_dataset_worst_severity(ds) >= PW_SEV_ERROR ? EXIT_DAMAGED : EXIT_OK;
}
