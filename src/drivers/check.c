/* check.c — pw_check: what every registered analysis finds wrong in the
 * records (an emulator's forbidden transitions), then every record the
 * analyses did not read, read (the model's pw_check_records), and the
 * format's cross-file checks. */
#include "analysis/analysis.h"

pw_status pw_check(pw_dataset *ds, pw_error *err)
{
    /* Analyses read every location: once over all shares, by the first;
     * first, so that the read-through skips the locations they read. */
    pw_status s = pw_check_note_reads(ds, err);
    for (size_t i = 0; s == PW_OK && ds->run->share_index == 0 && pw_analyses_wanted(ds) && i < pw_n_analyses; i++)
        if (pw_analyses[i]->check)
            s = pw_analyses[i]->check(ds, err);
    /* Run whatever came before: under several processes every one takes
     * part in the read-through's exchange (pw_check_records). */
    pw_error later;
    pw_status r = pw_check_records(ds, s == PW_OK ? err : &later);
    if (s == PW_OK)
        s = r;
    if (s != PW_OK)
        return s;
    if (pw_dataset_worst_severity(ds) >= PW_SEV_ERROR)
        return pw_fail(err, PW_E_DATA, ds->path, PW_NO_OFFSET, "the data is damaged (%zu findings)",
                       pw_dataset_diag_count(ds));
    return PW_OK;
}
