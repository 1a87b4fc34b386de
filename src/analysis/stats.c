/* stats.c — pw_stats: the format's own summary (or the generic counts),
 * then what every registered analysis finds in the records.  It lives in
 * the analysis layer because it is where formats' results and analyses'
 * results meet; formats and analyses never call each other.  The
 * summaries of shares (pw_stats_part, in the model) meet here too. */
#include <stdint.h>
#include <stdlib.h>

#include "analysis/analysis.h"

/* The tables of every registered analysis, over every location. */
static pw_status add_analyses(pw_dataset *ds, pw_report *r, pw_error *err)
{
    pw_status s = PW_OK;
    for (size_t i = 0; s == PW_OK && pw_analyses_wanted(ds) && i < pw_n_analyses; i++)
        s = pw_analyses[i]->report(ds, r, err);
    return s;
}

/* The format's summary of every location: its own, or its one part over
 * all locations joined, or the generic counts. */
static pw_status format_summary(pw_dataset *ds, pw_report *r, pw_error *err)
{
    int own = ds->fmt->stats || ds->fmt->stats_part;
    /* A format's own summary that reads its files past the cursors would
     * ignore a filter: the generic counts (through cursors) serve then,
     * and the report says why. */
    if (own && ds->filter && !ds->fmt->stats_filtered) {
        pw_rnode_str(pw_report_root(r), "filtered",
                     "records per type and location only: this format's summary reads the whole trace");
        return pw_stats_generic(ds, r, err);
    }
    if (ds->fmt->stats)
        return ds->fmt->stats(ds, r, err);
    if (ds->fmt->summary_by_analyses)
        return PW_OK;
    if (ds->fmt->stats_part) {
        void *part = NULL;
        size_t size = 0;
        pw_status s = ds->fmt->stats_part(ds, 0, SIZE_MAX, &part, &size, err);
        if (s == PW_OK)
            s = ds->fmt->stats_join(ds, (const void *const *)&part, &size, 1, r, err);
        free(part);
        return s;
    }
    return pw_stats_generic(ds, r, err);
}

pw_status pw_stats(pw_dataset *ds, pw_report *r, pw_error *err)
{
    pw_status s = format_summary(ds, r, err);
    return s == PW_OK ? add_analyses(ds, r, err) : s;
}

pw_status pw_stats_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n,
                        pw_report *r, pw_error *err)
{
    /* What follows reads every location on this process: the format's
     * summary where it has no parts, and the analyses. */
    int joined = pw_ds_summary_in_parts(ds);
    pw_status s = joined ? ds->fmt->stats_join(ds, parts, sizes, n, r, err) : PW_OK;
    ds->share_index = 0;
    ds->share_first = 0;
    ds->share_end = SIZE_MAX;
    if (!joined)
        return pw_stats(ds, r, err);
    return s == PW_OK ? add_analyses(ds, r, err) : s;
}
