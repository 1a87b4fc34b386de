/* mpi_check.c — check by P processes: each reads its share of the
 * locations; rank 0 prints every process's findings and the summary line
 * perfweave check prints. */
#include "cli_mpi.h"

int mpi_check_run(const mpi_world *w, cli_args *a)
{
    int code = EXIT_OK;
    pw_dataset *ds = mpi_open_share(w, a, &code);
    if (!ds)
        return code;
    mpi_opened opened = {pw_dataset_diag_count(ds), pw_dataset_diag_dropped(ds)};
    pw_collectives co = mpi_collectives(w); /* the locations share 0's analyses read, told to all */
    pw_dataset_set_collectives(ds, &co);
    pw_error err;
    mpi_work_begin();
    pw_status s = pw_dataset_set_share(ds, (unsigned)w->rank, (unsigned)w->size, &err);
    if (s == PW_OK)
        s = pw_check(ds, &err);
    mpi_work_end();
    if (s != PW_OK && s != PW_E_DATA)
        code = cli_fail(&err);
    size_t errors, warnings;
    int dcode = mpi_report_diags(w, ds, &opened, &errors, &warnings);
    if (!w->rank)
        cli_print_check_summary(ds, errors, warnings, dcode != 0);
    pw_close(ds);
    code = mpi_max_code(code);
    return code ? code : dcode;
}
