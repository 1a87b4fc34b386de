/* convert_records.c — pw_convert_records: the record writers' loop (CSV,
 * SQLite), every record merged in time order and clipped to the window,
 * counted in and out. */
#include "sinks/convert/convert.h"

#include "model/filter.h"

pw_status pw_convert_records(pw_dataset *ds, pw_convert_report *rep,
                             pw_status (*write)(void *ctx, const pw_record *rec, pw_error *err), void *ctx,
                             pw_error *err)
{
    pw_merge *m = NULL;
    pw_status s = pw_merge_open(ds, &m, err);
    const pw_record *rec;
    pw_record clipped;
    uint64_t n_clipped = 0;
    while (s == PW_OK && pw_merge_next(m, &rec, err) == PW_OK) {
        rep->records_in++;
        if (pw_window_clip(ds, rec, &clipped)) {
            rec = &clipped;
            n_clipped++;
        }
        s = write(ctx, rec, err);
        rep->records_out += s == PW_OK;
    }
    pw_merge_close(m);
    pw_convert_note(rep, "spans clipped to the --start/--end window", n_clipped, 0);
    return s;
}
