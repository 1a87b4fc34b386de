/* cmd_check.c — perfweave check: deep validation with precise findings. */
#include "cli.h"

void cli_print_check_summary(const pw_dataset *ds, size_t errors, size_t warnings, int damaged)
{
    printf("%s: %s %s: %zu error%s, %zu warning%s%s\n", pw_dataset_path(ds), pw_dataset_format(ds),
           pw_dataset_version(ds), errors, errors == 1 ? "" : "s", warnings,
           warnings == 1 ? "" : "s", damaged ? " (damaged)" : " (ok)");
}

static int check_run(cli_args *a)
{
    int code = EXIT_OK;
    pw_dataset *ds = cli_open(a, &code);
    if (!ds)
        return code;
    pw_error err;
    cli_progress *prog = cli_progress_start(a, ds, "checking");
    pw_status s = pw_check(ds, &err);
    cli_progress_stop(prog);
    int dcode = cli_report_diags(ds);
    size_t errors = 0, warnings = 0;
    for (size_t i = 0; i < pw_dataset_diag_count(ds); i++) {
        pw_severity sev = pw_dataset_diag(ds, i)->severity;
        errors += sev == PW_SEV_ERROR;
        warnings += sev == PW_SEV_WARNING;
    }
    if (s != PW_OK && s != PW_E_DATA)
        code = cli_fail(&err);
    cli_print_check_summary(ds, errors, warnings, dcode != 0);
    pw_close(ds);
    return code ? code : dcode;
}

const cli_command cli_check = {
    "check",
    "deep validation: exit 1 with file:offset findings if the data is damaged",
    "Reads every record of every location and runs the format's consistency\n"
    "checks.  Findings go to standard error, one per line, with the file, the\n"
    "byte offset and what was expected; a summary line goes to standard output.\n",
    0,
    check_run,
};
