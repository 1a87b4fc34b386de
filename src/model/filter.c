/* filter.c — testing records against a dataset's filter, inside the
 * cursors' step, so that every reader (merge, stats, dump, convert) sees
 * only what the filter keeps; and clipping spans to the window. */
#define _GNU_SOURCE /* FNM_CASEFOLD: type globs ignore case */
#include "model/filter.h"

#include <fnmatch.h>

/* Is the time window's test passed?  A span (begin..end) is kept when it
 * overlaps [start, end); a point (or an empty span) when start <= t < end. */
static int in_window_ns(const pw_time_window *w, const pw_record *r, int *past)
{
    int64_t last = r->kind == PW_REC_SPAN && r->has_end ? r->t_end : r->t;
    *past = r->t >= w->end_ns;
    return r->t < w->end_ns && (r->t >= w->start_ns || last > w->start_ns);
}

static int in_window_vt(const pw_time_window *w, const pw_record *r, int *past)
{
    double last = r->kind == PW_REC_SPAN && r->has_end ? r->vt_end : r->vt;
    *past = r->vt >= w->end_vt;
    return r->vt < w->end_vt && (r->vt >= w->start_vt || last > w->start_vt);
}

/* A record whose type is its schema's name is judged by its schema (one
 * test per schema, made when the filter was set); a more specific type
 * (an ovni event of an unknown model) by the globs themselves. */
static int type_kept(const pw_filter_state *f, const pw_dataset *ds, const pw_record *r)
{
    if (r->schema < ds->n_schemas && r->type == ds->schemas[r->schema]->name)
        return f->schema_keep[r->schema];
    for (size_t i = 0; i < f->n_types; i++)
        if (r->type && fnmatch(f->types[i], r->type, FNM_CASEFOLD) == 0)
            return 1;
    return 0;
}

/* Does the filter keep r?  *past is set when r lies at or after the
 * window's end (so that, in a time-ordered cursor, nothing later can match). */
static int filter_keeps(const pw_filter_state *f, const pw_dataset *ds, const pw_record *r, int *past)
{
    *past = 0;
    if (f->has_window) {
        if (r->clock == PW_CLOCK_NS && f->win.has_ns && !in_window_ns(&f->win, r, past))
            return 0;
        if (r->clock == PW_CLOCK_VIRTUAL && f->win.has_vt && !in_window_vt(&f->win, r, past))
            return 0;
    }
    if (f->loc_keep && r->location < ds->n_locs && !f->loc_keep[r->location])
        return 0;
    return !f->n_types || type_kept(f, ds, r);
}

pw_status pw_filter_skip(pw_cursor *c, pw_error *err)
{
    const pw_filter_state *f = c->filter;
    for (;;) {
        int past;
        if (filter_keeps(f, c->ds, &c->rec, &past))
            return PW_OK;
        c->past_end |= past;
        if (past && f->stop_at_end)
            return PW_END;
        pw_status s = c->ops->next(c, err);
        if (s != PW_OK)
            return s;
    }
}

int pw_filter_keeps_record(const pw_dataset *ds, const pw_record *rec)
{
    int past;
    return !ds->filter || filter_keeps(ds->filter, ds, rec, &past);
}

int pw_window_clip(const pw_dataset *ds, const pw_record *rec, pw_record *clipped)
{
    const pw_filter_state *f = ds->filter;
    if (!f || !f->has_window || rec->kind != PW_REC_SPAN || !rec->has_end)
        return 0;
    const pw_time_window *w = &f->win;
    if (rec->clock == PW_CLOCK_NS && w->has_ns && (rec->t < w->start_ns || rec->t_end > w->end_ns)) {
        *clipped = *rec;
        clipped->t = rec->t < w->start_ns ? w->start_ns : rec->t;
        clipped->t_end = rec->t_end > w->end_ns ? w->end_ns : rec->t_end;
        return 1;
    }
    if (rec->clock == PW_CLOCK_VIRTUAL && w->has_vt && (rec->vt < w->start_vt || rec->vt_end > w->end_vt)) {
        *clipped = *rec;
        clipped->vt = rec->vt < w->start_vt ? w->start_vt : rec->vt;
        clipped->vt_end = rec->vt_end > w->end_vt ? w->end_vt : rec->vt_end;
        return 1;
    }
    return 0;
}

int pw_ds_history_has_records(const pw_dataset *ds, uint32_t loc)
{
    if (loc >= ds->n_locs)
        return 0;
    const pw_filter_state *f = ds->filter;
    return ds->locs[loc].has_records || (f && f->had_records && f->had_records[loc]);
}

int pw_selection_window_ns(const pw_dataset *ds, int64_t *start_ns, int64_t *end_ns)
{
    const pw_filter_state *f = ds->filter;
    if (!f || !f->has_window || !f->win.has_ns)
        return 0;
    *start_ns = f->win.start_ns;
    *end_ns = f->win.end_ns;
    return 1;
}

int pw_selection_keeps_location(const pw_dataset *ds, uint32_t loc)
{
    const pw_filter_state *f = ds->filter;
    return !f || !f->loc_keep || (loc < ds->n_locs && f->loc_keep[loc]);
}

int pw_selection_keeps_type(const pw_dataset *ds, const char *type)
{
    const pw_filter_state *f = ds->filter;
    if (!f || !f->n_types)
        return 1;
    for (size_t i = 0; type && i < f->n_types; i++)
        if (fnmatch(f->types[i], type, FNM_CASEFOLD) == 0)
            return 1;
    return 0;
}
