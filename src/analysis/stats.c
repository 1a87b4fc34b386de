/* stats.c — pw_stats: the format's own summary (or the generic counts),
 * then what every registered analysis finds in the records.  It lives in
 * the analysis layer because it is where formats' results and analyses'
 * results meet; formats and analyses never call each other. */
#include "analysis/analysis.h"

pw_status pw_stats(pw_dataset *ds, pw_report *r, pw_error *err)
{
    pw_status s;
    /* A format's own summary that reads its files past the cursors would
     * ignore a filter: the generic counts (through cursors) serve then,
     * and the report says why. */
    if (ds->fmt->stats && (!ds->filter || ds->fmt->stats_filtered)) {
        s = ds->fmt->stats(ds, r, err);
    } else {
        if (ds->fmt->stats)
            pw_rnode_str(pw_report_root(r), "filtered",
                         "records per type and location only: this format's summary reads the whole trace");
        s = pw_stats_generic(ds, r, err);
    }
    for (size_t i = 0; s == PW_OK && i < pw_n_analyses; i++)
        s = pw_analyses[i]->report(ds, r, err);
    return s;
}
