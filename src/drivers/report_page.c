/* report_page.c — pw_report_page_stats: the stats run that a report page
 * (perfweave report, src/sinks/html/) draws, kept whole in memory.  The
 * page's watch is set before pw_stats, which hands it the power samples
 * and the states over time as it goes; when the stats pass did not replay
 * the states into it (the emulator's time per state came from its per-loom
 * parts, or another watcher was there first), the states are replayed here
 * for the page's strips.  So the HTML sink only draws what it is handed. */
#include <jansson.h>

#include "analysis/analysis.h"
#include "model/report.h"
#include "sinks/html/html_watch.h"
#include "views/state_times.h"

/* A replay of ds's states into watch.  It finds again what the stats
 * pass found: its findings are taken back, so that each is reported once. */
static pw_status replay_states(pw_dataset *ds, const pw_states_watch *watch, pw_error *err)
{
    const pw_states_source *src = pw_states_source_for(ds);
    pw_states *st = NULL;
    if (!src)
        return PW_OK;
    pthread_mutex_lock(&ds->diag_lock);
    size_t n_diags = ds->n_diags;
    uint64_t dropped = ds->diags_dropped;
    int worst = ds->worst;
    pthread_mutex_unlock(&ds->diag_lock);
    pw_status s = src->start(ds, watch->change, watch->ctx, &st, err);
    if (s == PW_OK)
        watch->begin(watch->ctx, st);
    if (s == PW_OK)
        s = src->play(st, err);
    if (s == PW_OK)
        watch->end(watch->ctx, st);
    if (st)
        src->release(st);
    pw_ds_diag_take_back(ds, n_diags, dropped, worst);
    return s;
}

pw_status pw_report_page_stats(pw_dataset *ds, pw_report *r, pw_html_watch **w, pw_error *err)
{
    *w = pw_html_watch_begin(ds);
    pw_status s = pw_stats(ds, r, err);
    const pw_states_watch *unfed = s == PW_OK ? html_watch_unfed_states(*w) : NULL;
    /* the strips go with the time-per-state table: none without it */
    if (unfed && json_is_array(json_object_get(pw_report_json(r), pw_state_times_table.name))) {
        s = replay_states(ds, unfed, err);
        s = s == PW_E_DATA ? PW_OK : s; /* damage stats reported already: no strips */
    }
    return s;
}
