/* filter_set.c — pw_dataset_filter: turning a pw_filter (text, as a user
 * types it) into the state cursors test records against: a window in the
 * dataset's clocks, a keep flag per location and per schema. */
#define _GNU_SOURCE /* FNM_CASEFOLD: type globs ignore case */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/filter.h"
#include "model/mpi_profile.h"

/* A TIME as typed: seconds after the first record, or (abs) a time in
 * the dataset's clock unit. */
typedef struct typed_time {
    int set, abs;
    double value;
    /* An absolute time written as a whole number, exactly: a double holds
     * nanosecond clocks of ~1.6e18 only to the nearest 256 ns. */
    int whole_set;
    int64_t whole;
} typed_time;

/* Sets t->whole when text is an integer that fits in 64 bits. */
static void parse_whole(const char *text, typed_time *t)
{
    size_t i = text[0] == '-' || text[0] == '+';
    if (!text[i] || strspn(text + i, "0123456789") != strlen(text + i))
        return;
    errno = 0;
    long long v = strtoll(text, NULL, 10);
    if (errno == 0) {
        t->whole = v;
        t->whole_set = 1;
    }
}

/* Parses "250ms", "1.5s", "42ns", "0.25" or "@962331108150". */
static pw_status parse_time(const char *text, const char *what, typed_time *t, pw_error *err)
{
    static const struct { const char *suffix; double scale; } units[] = {
        {"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
    memset(t, 0, sizeof *t);
    if (!text || !*text)
        return PW_OK;
    t->abs = text[0] == '@';
    char *end;
    t->value = strtod(text + t->abs, &end);
    if (end == text + t->abs || !isfinite(t->value))
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET,
                       "%s: '%s' is not a time (e.g. 0.25, 250ms, 1.5s, 100us, 42ns, @962331108150)",
                       what, text);
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        if (strcmp(end, units[i].suffix))
            continue;
        if (t->abs && *end)
            break; /* absolute times are in the clock's own unit */
        t->value *= units[i].scale;
        t->set = 1;
        if (t->abs)
            parse_whole(text + 1, t);
        return PW_OK;
    }
    return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET, "%s: '%s': unknown unit '%s' (s, ms, us, ns%s)",
                   what, text, end, t->abs ? "; none after '@'" : "");
}

/* The first times of the dataset: the least first timed record over the
 * locations (each location's records come in time order, or nearly).
 * Untimed records may come first (an HPCToolkit profile's metric values
 * before its trace): they are passed over, however many. */
typedef struct origin {
    int has_ns, has_vt;
    int64_t ns;
    double vt;
} origin;

static void origin_of_location(pw_dataset *ds, uint32_t loc, origin *o)
{
    pw_cursor *c;
    pw_error e;
    if (pw_cursor_open(ds, loc, &c, &e) != PW_OK)
        return;
    const pw_record *r;
    while (pw_cursor_next(c, &r, &e) == PW_OK) {
        if (r->clock == PW_CLOCK_NS) {
            if (!o->has_ns || r->t < o->ns)
                o->ns = r->t;
            o->has_ns = 1;
            break;
        }
        if (r->clock == PW_CLOCK_VIRTUAL) {
            if (!o->has_vt || r->vt < o->vt)
                o->vt = r->vt;
            o->has_vt = 1;
            break;
        }
    }
    pw_cursor_close(c);
}

static int64_t ns_bound(const typed_time *t, const origin *o, int64_t open)
{
    if (!t->set)
        return open;
    if (t->whole_set)
        return t->whole;
    double v = t->abs ? t->value : (double)o->ns + t->value * 1e9;
    if (v >= 9.2e18)
        return INT64_MAX;
    if (v <= -9.2e18)
        return INT64_MIN;
    return t->abs ? (int64_t)llround(t->value) : o->ns + (int64_t)llround(t->value * 1e9);
}

static double vt_bound(const typed_time *t, const origin *o, double open)
{
    if (!t->set)
        return open;
    return t->abs ? t->value : o->vt + t->value;
}

static pw_status set_window(pw_dataset *ds, const pw_filter *f, pw_filter_state *st, pw_error *err)
{
    typed_time start, end;
    pw_status s = parse_time(f->start, "--start", &start, err);
    if (s == PW_OK)
        s = parse_time(f->end, "--end", &end, err);
    if (s != PW_OK || (!start.set && !end.set))
        return s;
    origin o = {0};
    if ((start.set && !start.abs) || (end.set && !end.abs)) {
        for (size_t i = 0; i < ds->n_locs; i++)
            if (ds->locs[i].has_records)
                origin_of_location(ds, (uint32_t)i, &o);
        if (!o.has_ns && !o.has_vt)
            return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                           "no record has a time to count a relative --start/--end from");
    } else {
        o.has_ns = o.has_vt = 1; /* absolute bounds apply to either clock */
    }
    st->has_window = 1;
    st->win.has_ns = o.has_ns;
    st->win.start_ns = ns_bound(&start, &o, INT64_MIN);
    st->win.end_ns = ns_bound(&end, &o, INT64_MAX);
    st->win.has_vt = o.has_vt;
    st->win.start_vt = vt_bound(&start, &o, -INFINITY);
    st->win.end_vt = vt_bound(&end, &o, INFINITY);
    st->stop_at_end = ds->time_ordered;
    return PW_OK;
}

/* Is id in a list of ranks such as "0-3,7"?  -1 when the list is malformed. */
static int rank_listed(const char *list, int64_t id)
{
    const char *p = list;
    int found = 0;
    while (*p) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p || lo < 0)
            return -1;
        if (*end == '-') {
            p = end + 1;
            hi = strtol(p, &end, 10);
            if (end == p || hi < lo)
                return -1;
        }
        found |= id >= lo && id <= hi;
        if (*end && *end != ',')
            return -1;
        p = *end ? end + 1 : end;
    }
    return found;
}

static int location_matches(const pw_filter *f, const pw_location *l)
{
    for (size_t g = 0; g < f->n_locs; g++)
        if (fnmatch(f->locs[g], l->path, 0) == 0)
            return 1;
    return f->ranks && l->kind == PW_LOC_PROCESS && rank_listed(f->ranks, l->id) == 1;
}

/* The error of a --loc/--ranks that keeps nothing, with the locations
 * there are (--ranks: the process ids; --loc: the paths). */
static pw_status no_location_matches(const pw_dataset *ds, const pw_filter *f, pw_error *err)
{
    char list[1500] = "";
    size_t used = 0, shown = 0;
    for (size_t i = 0; i < ds->n_locs && used + 1 < sizeof list; i++) {
        const pw_location *l = &ds->locs[i];
        if (f->ranks && !f->n_locs && l->kind != PW_LOC_PROCESS)
            continue;
        char *at = list + used;
        size_t room = sizeof list - used;
        int w = f->ranks && !f->n_locs ? snprintf(at, room, "%s%lld", shown ? "," : "", (long long)l->id)
                                       : snprintf(at, room, "%s\"%s\"", shown ? ", " : "", l->path);
        used += w > 0 ? (size_t)w : 0;
        shown++;
    }
    if (used + 1 >= sizeof list)
        snprintf(list + sizeof list - 5, 5, "...");
    if (f->ranks && !f->n_locs)
        return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                       "--ranks %s: no process has such a rank; the ranks are: %s", f->ranks,
                       shown ? list : "(none: no process locations)");
    return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                   "--loc/--ranks: no location matches; the locations are: %s", shown ? list : "(none)");
}

/* Keeps the locations that match or lie under one that does.  Where each
 * cursor yields records of its own subtree only, the locations with none
 * kept lose their records (their files stay unread); a location whose
 * cursor yields records of kept ones (a DUMPI rank file yields its
 * threads') keeps them. */
static pw_status set_locations(pw_dataset *ds, const pw_filter *f, pw_filter_state *st, pw_error *err)
{
    if (!f->n_locs && !f->ranks)
        return PW_OK;
    if (f->ranks && rank_listed(f->ranks, 0) < 0)
        return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET,
                       "--ranks: '%s' is not a list of ranks such as 0-3,7", f->ranks);
    size_t n = ds->n_locs;
    uint8_t *needed = pw_ds_alloc(ds, n ? n : 1);
    st->loc_keep = pw_ds_alloc(ds, n ? n : 1);
    if (!needed || !st->loc_keep)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        for (int32_t a = (int32_t)i; a >= 0 && (size_t)a < n && !st->loc_keep[i]; a = ds->locs[a].parent)
            st->loc_keep[i] = location_matches(f, &ds->locs[a]);
        for (int32_t a = (int32_t)i; st->loc_keep[i] && a >= 0 && (size_t)a < n; a = ds->locs[a].parent)
            needed[a] = 1;
        kept += st->loc_keep[i];
    }
    if (!kept) /* an empty result would look like an empty trace */
        return no_location_matches(ds, f, err);
    /* what the report leaves out, analyses still read (filter.h) */
    st->had_records = ds->own_subtree ? pw_ds_alloc(ds, n ? n : 1) : NULL;
    if (ds->own_subtree && !st->had_records)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; ds->own_subtree && i < n; i++) {
        st->had_records[i] = ds->locs[i].has_records && !needed[i];
        ds->locs[i].has_records &= needed[i];
    }
    return PW_OK;
}

static pw_status set_types(pw_dataset *ds, const pw_filter *f, pw_filter_state *st, pw_error *err)
{
    if (!f->n_types)
        return PW_OK;
    st->n_types = f->n_types;
    st->types = pw_ds_alloc(ds, f->n_types * sizeof *st->types);
    st->schema_keep = pw_ds_alloc(ds, ds->n_schemas ? ds->n_schemas : 1);
    if (!st->types || !st->schema_keep)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t g = 0; g < f->n_types; g++)
        if (!(st->types[g] = pw_ds_strdup(ds, f->types[g])))
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < ds->n_schemas; i++)
        for (size_t g = 0; g < f->n_types && !st->schema_keep[i]; g++)
            st->schema_keep[i] = fnmatch(f->types[g], ds->schemas[i]->name, FNM_CASEFOLD) == 0;
    return PW_OK;
}

/* The history analyses read (filter.h): the window's end alone, where
 * the window has one. */
static pw_status set_history(pw_dataset *ds, pw_filter_state *st, pw_error *err)
{
    const pw_time_window *w = &st->win;
    if (!st->has_window || ((!w->has_ns || w->end_ns == INT64_MAX) && (!w->has_vt || isinf(w->end_vt))))
        return PW_OK;
    pw_filter_state *h = pw_ds_alloc(ds, sizeof *h);
    if (!h)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    h->has_window = 1;
    h->win = *w;
    h->win.start_ns = INT64_MIN;
    h->win.start_vt = -INFINITY;
    h->stop_at_end = st->stop_at_end;
    st->history = h;
    return PW_OK;
}

pw_status pw_dataset_filter(pw_dataset *ds, const pw_filter *f, pw_error *err)
{
    if (ds->filter)
        return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET, "a filter is already set");
    pw_filter_state *st = pw_ds_alloc(ds, sizeof *st);
    if (!st)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    pw_status s = set_window(ds, f, st, err);
    if (s == PW_OK)
        s = set_history(ds, st, err);
    if (s == PW_OK)
        s = set_types(ds, f, st, err);
    if (s == PW_OK)
        s = set_locations(ds, f, st, err);
    if (s == PW_OK && (st->has_window || st->loc_keep || st->n_types)) {
        ds->filter = st;
        /* a profile a format made while opening is of every call: the
         * report's is made again of what the filter selects */
        if (ds->mpi_profiles)
            ds->mpi_profiles->complete = 0;
    }
    return s;
}
