/* timeline.c — the record stream as tracks and slices (see timeline.h).
 * Memory grows with locations, tracks and open spans, never with records:
 * SPAN ends wait in a min-heap until the merged stream passes them. */
#include "core/grow.h"
#include "core/heap.h"
#include "model/account.h"
#include "views/timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "views/keymap.h"
#include "views/msgmatch.h"
#include "views/timeline_flows.h"
#include "views/timeline_schema.h"
#include "views/timeline_share.h"
#include "model/filter.h"

typedef struct tl_lane {
    uint32_t track;
    uint32_t n, cap;
    int64_t *ends; /* ends of the open spans, innermost last */
} tl_lane;

typedef struct tl_loc {
    uint32_t last_group;     /* the group asked for last, and its index + 1 */
    uint32_t last_group_idx;
    uint32_t thread_track;
    uint32_t process_track; /* when this location is some location's process */
    uint32_t process_loc;
    int64_t rank;
    tl_lane *lanes;
    uint32_t n_lanes;
} tl_loc;

typedef struct tl_group {
    uint32_t track;
    uint64_t depth;
} tl_group;

typedef struct tl_pending {
    int64_t t;
    uint64_t seq; /* later pushes (inner spans) end first on ties */
    uint32_t track, loc, lane;
    uint32_t flows; /* parked receive flows (tl_flows_park), 0: none */
} tl_pending;

typedef struct pw_timeline {
    pw_dataset *ds;
    const pw_tl_sink *sink;
    pw_names names;
    tl_schema *schemas;
    tl_loc *locs;
    uint32_t n_tracks;
    int64_t *slice_last; /* per track id: time of its last slice begin or end */
    uint32_t cap_slice_last;
    pw_keymap group_map; /* (loc, group) -> index into groups */
    tl_group *groups;
    size_t n_groups, cap_groups;
    pw_keymap counters; /* (loc, schema, field) -> track */
    pw_heap pending; /* of tl_pending: SPAN ends not yet reached */
    uint64_t seq;
    tl_flows flows;
    uint64_t out, untimed, lost_kind[8], unmatched_ends, bad_spans, no_value_samples, raised;
    uint64_t clipped; /* spans cut to the filter's window */
    /* Drawing a share alone (timeline_share.h), or NULL: */
    tl_share *share;
    int recording;      /* the pass that only notes message ends crossing processes */
    pw_sort_key at_key; /* the merge order of the record being drawn */
} pw_timeline;

static pw_status tl_nomem(pw_timeline *tl, pw_error *err)
{
    return pw_fail(err, PW_E_NOMEM, tl->ds->path, PW_NO_OFFSET, "out of memory");
}

uint32_t pw_tl_process_of(const pw_dataset *ds, uint32_t loc)
{
    uint32_t top = loc;
    for (int32_t i = (int32_t)loc; i >= 0; i = ds->locs[i].parent) {
        if (ds->locs[i].kind == PW_LOC_PROCESS)
            return (uint32_t)i;
        top = (uint32_t)i;
    }
    return top;
}

int64_t pw_tl_rank_of(const pw_dataset *ds, uint32_t loc)
{
    const pw_location *p = &ds->locs[pw_tl_process_of(ds, loc)];
    return p->id >= 0 ? p->id : (int64_t)p->index;
}

int pw_tl_uuids_init(pw_tl_uuids *u, const pw_dataset *ds)
{
    u->n_locs = ds->n_locs;
    u->n_children = calloc(ds->n_locs ? ds->n_locs : 1, sizeof *u->n_children);
    return u->n_children != NULL;
}

void pw_tl_uuids_free(pw_tl_uuids *u)
{
    free(u->n_children);
    u->n_children = NULL;
}

uint64_t pw_tl_uuid_of(pw_tl_uuids *u, const pw_tl_track *tr)
{
    uint64_t slot = tr->kind == PW_TL_PROCESS ? 0 : tr->kind == PW_TL_THREAD ? 1 : 2 + (uint64_t)u->n_children[tr->location]++;
    return slot * ((uint64_t)u->n_locs + 1) + tr->location + 1;
}

static pw_status tl_declare(pw_timeline *tl, pw_tl_track_kind kind, uint32_t parent, uint32_t loc,
                            uint32_t name, const char *unit, uint32_t *id, pw_error *err)
{
    if (!name)
        return tl_nomem(tl, err);
    pw_tl_track tr = {++tl->n_tracks, parent, kind, loc, name, unit};
    *id = tr.id;
    if (tr.id >= tl->cap_slice_last) {
        uint32_t cap = tl->cap_slice_last ? tl->cap_slice_last * 2 : 256;
        int64_t *p = realloc(tl->slice_last, cap * sizeof *p);
        if (!p)
            return tl_nomem(tl, err);
        for (uint32_t i = tl->cap_slice_last; i < cap; i++)
            p[i] = INT64_MIN;
        tl->slice_last = p;
        tl->cap_slice_last = cap;
    }
    return tl->sink->track(tl->sink->ctx, &tl->names, &tr, err);
}

static uint32_t intern_str(pw_timeline *tl, const char *s) { return pw_names_intern(&tl->names, s, strlen(s)); }

/* The thread track of loc, declared (with its process) on first use. */
static pw_status thread_track(pw_timeline *tl, uint32_t loc, uint32_t *id, pw_error *err)
{
    tl_loc *l = &tl->locs[loc];
    pw_status s = PW_OK;
    if (!l->thread_track) {
        tl_loc *p = &tl->locs[l->process_loc];
        if (!p->process_track)
            s = tl_declare(tl, PW_TL_PROCESS, 0, l->process_loc,
                           intern_str(tl, tl->ds->locs[l->process_loc].path), NULL, &p->process_track, err);
        if (s == PW_OK)
            s = tl_declare(tl, PW_TL_THREAD, p->process_track, loc, intern_str(tl, tl->ds->locs[loc].name),
                           NULL, &l->thread_track, err);
    }
    *id = l->thread_track;
    return s;
}

/* The slice group of (loc, group), its child track declared on first use. */
static pw_status group_state(pw_timeline *tl, uint32_t loc, uint32_t group, tl_group **g, pw_error *err)
{
    tl_loc *l = &tl->locs[loc];
    if (l->last_group_idx && l->last_group == group) { /* slices come in runs of one group */
        *g = &tl->groups[l->last_group_idx - 1];
        return PW_OK;
    }
    pw_key k = {{loc, group, 0, 0}};
    int added;
    uint64_t *v = pw_keymap_get(&tl->group_map, &k, tl->n_groups, &added);
    if (!v)
        return tl_nomem(tl, err);
    if (added) {
        if (!pw_grow((void **)&tl->groups, tl->n_groups, &tl->cap_groups, sizeof *tl->groups))
            return tl_nomem(tl, err);
        tl_group *ng = &tl->groups[tl->n_groups++];
        ng->depth = 0;
        pw_status s = thread_track(tl, loc, &ng->track, err);
        if (s == PW_OK && group)
            s = tl_declare(tl, PW_TL_CHILD, ng->track, loc, group, NULL, &ng->track, err);
        if (s != PW_OK)
            return s;
    }
    *g = &tl->groups[*v];
    l->last_group = group;
    l->last_group_idx = (uint32_t)*v + 1;
    return PW_OK;
}

/* The heap's order: by time, and at one time the later push (an inner
 * span) first. */
static int pending_before(const void *pa, const void *pb)
{
    const tl_pending *a = pa, *b = pb;
    return a->t != b->t ? a->t < b->t : a->seq > b->seq;
}

static int pending_push(pw_timeline *tl, tl_pending p)
{
    return pw_heap_push(&tl->pending, &p, sizeof p, pending_before);
}

/* Hands ev to the sink.  A slice begin or end earlier than the last one on
 * its track (clocks that go back: ovni unordered regions, damage) is
 * raised to that time, so slices still nest; instants keep their time. */
static pw_status emit(pw_timeline *tl, pw_tl_event *ev, pw_error *err)
{
    tl_pos at = {ev->t, ev->rec == NULL, tl->at_key}; /* where it falls in the merged stream */
    if (tl->recording) {
        tl_flows_note_ends(&tl->flows, ev, &at);
        return PW_OK;
    }
    if (tl->share && ev->flow_out)
        tl_flows_share_send(&tl->flows, ev, &at);
    if (ev->kind == PW_TL_BEGIN || ev->kind == PW_TL_END) {
        int64_t *last = &tl->slice_last[ev->track];
        if (ev->t < *last) {
            ev->t = *last;
            tl->raised++;
        }
        *last = ev->t;
    }
    if (ev->n_flows_in && tl->flows.time_ordered && !tl_flows_drop_backwards(&tl->flows, ev, &at))
        return tl_nomem(tl, err);
    return tl->sink->event(tl->sink->ctx, &tl->names, ev, err);
}

/* Ends the SPAN slices whose end is at or before t, in time order. */
static pw_status flush_ends(pw_timeline *tl, int64_t t, pw_error *err)
{
    while (tl->pending.n && ((const tl_pending *)pw_heap_first(&tl->pending))->t <= t) {
        tl_pending p;
        pw_heap_pop(&tl->pending, &p, sizeof p, pending_before);
        tl->locs[p.loc].lanes[p.lane].n--;
        pw_tl_event ev = {.kind = PW_TL_END, .track = p.track, .location = p.loc, .t = p.t,
                          .request_out = PW_TL_NO_REQUEST, .request_posted = PW_TL_NO_REQUEST};
        if (p.flows && !tl_flows_unpark(&tl->flows, p.flows, &ev))
            return tl_nomem(tl, err);
        pw_status s = emit(tl, &ev, err);
        if (s != PW_OK)
            return s;
    }
    return PW_OK;
}

static int value_numeric(const pw_value *v, double *out)
{
    if (!v->present)
        return 0;
    switch (v->type) {
    case PW_T_BOOL: *out = v->v.b; return 1;
    case PW_T_I64: *out = (double)v->v.i; return 1;
    case PW_T_U64: *out = (double)v->v.u; return 1;
    case PW_T_F64:
    case PW_T_DECIMAL: *out = pw_value_number(v); return 1;
    default: return 0;
    }
}

static int64_t record_time(const pw_record *rec)
{
    return rec->clock == PW_CLOCK_NS ? rec->t : pw_tl_int64(nearbyint(rec->vt * PW_TL_VT_SCALE));
}

/* A lane of loc where a span ending at `end` nests; a new one if needed. */
static pw_status span_lane(pw_timeline *tl, uint32_t loc, int64_t end, uint32_t *lane, pw_error *err)
{
    tl_loc *l = &tl->locs[loc];
    uint32_t i = 0;
    while (i < l->n_lanes && l->lanes[i].n && l->lanes[i].ends[l->lanes[i].n - 1] < end)
        i++;
    if (i == l->n_lanes) {
        tl_lane *nl = realloc(l->lanes, (i + 1) * sizeof *nl);
        if (!nl)
            return tl_nomem(tl, err);
        l->lanes = nl;
        memset(&nl[i], 0, sizeof nl[i]);
        pw_status s = thread_track(tl, loc, &nl[i].track, err);
        if (s == PW_OK && i > 0) {
            char name[32];
            snprintf(name, sizeof name, "lane %u", i);
            s = tl_declare(tl, PW_TL_CHILD, nl[i].track, loc, intern_str(tl, name), NULL, &nl[i].track, err);
        }
        if (s != PW_OK)
            return s;
        l->n_lanes++;
    }
    tl_lane *ln = &l->lanes[i];
    if (ln->n == ln->cap) {
        uint32_t cap = ln->cap ? ln->cap * 2 : 8;
        int64_t *e = realloc(ln->ends, cap * sizeof *e);
        if (!e)
            return tl_nomem(tl, err);
        ln->ends = e;
        ln->cap = cap;
    }
    ln->ends[ln->n++] = end;
    *lane = i;
    return PW_OK;
}

/* A SPAN record: a begin now, its end queued.  A span with no usable end
 * is drawn as an instant (counted). */
static pw_status draw_span(pw_timeline *tl, const tl_schema *sc, pw_tl_event *ev, pw_error *err)
{
    const pw_value *v = pw_record_fields(ev->rec);
    int64_t end = INT64_MIN;
    double x;
    double scale = ev->rec->clock == PW_CLOCK_VIRTUAL ? PW_TL_VT_SCALE : 1.0;
    if (ev->rec->has_end) { /* the format knows the end */
        end = ev->rec->clock == PW_CLOCK_VIRTUAL ? pw_tl_int64(nearbyint(ev->rec->vt_end * scale))
                                                 : ev->rec->t_end;
    } else if (sc->f_end >= 0 && value_numeric(&v[sc->f_end], &x)) {
        end = pw_tl_int64(nearbyint(x * scale));
    } else if (sc->f_dur >= 0 && value_numeric(&v[sc->f_dur], &x)) {
        int64_t dur = pw_tl_int64(nearbyint(x * scale));
        if (dur >= 0 && dur <= INT64_MAX - ev->t)
            end = ev->t + dur;
    }
    if (end < ev->t) {
        tl->bad_spans++;
        ev->kind = PW_TL_INSTANT;
        return thread_track(tl, ev->location, &ev->track, err);
    }
    uint32_t lane = 0;
    pw_status s = span_lane(tl, ev->location, end, &lane, err);
    if (s != PW_OK)
        return s;
    ev->kind = PW_TL_BEGIN;
    ev->track = tl->locs[ev->location].lanes[lane].track;
    uint32_t flows = tl_flows_park(&tl->flows, ev); /* drawn where the call returns */
    if (flows == UINT32_MAX || !pending_push(tl, (tl_pending){end, tl->seq++, ev->track, ev->location, lane, flows}))
        return tl_nomem(tl, err);
    return PW_OK;
}

/* An integer field named "...id" (ROSS peid, kpid, lpid) says which
 * object a sample is about: it is no quantity to draw over time. */
static int identifier_field(const pw_field *f)
{
    size_t n = strlen(f->name);
    return (f->type == PW_T_U64 || f->type == PW_T_I64) && n >= 2 && !strcmp(f->name + n - 2, "id");
}

/* A SAMPLE record: one counter value per numeric field but identifiers.
 * A field without a unit is drawn as a plain count. */
static pw_status draw_sample(pw_timeline *tl, pw_tl_event *ev, pw_error *err)
{
    const pw_record *rec = ev->rec;
    const pw_schema *sc = tl->ds->schemas[rec->schema];
    const pw_value *v = pw_record_fields(rec);
    int drawn = 0;
    for (size_t i = 0; i < sc->n_fields; i++) {
        if (identifier_field(&sc->fields[i]))
            continue;
        if (!value_numeric(&v[i], &ev->value))
            continue;
        pw_key k = {{rec->location, rec->schema, i, 0}};
        int added;
        uint64_t *tr = pw_keymap_get(&tl->counters, &k, 0, &added);
        if (!tr)
            return tl_nomem(tl, err);
        pw_status s = PW_OK;
        if (added) {
            uint32_t parent, id = 0;
            char name[256];
            snprintf(name, sizeof name, "%s.%s", sc->name, sc->fields[i].name);
            s = thread_track(tl, rec->location, &parent, err);
            if (s == PW_OK)
                s = tl_declare(tl, PW_TL_COUNTER_TRACK, parent, rec->location, intern_str(tl, name),
                               sc->fields[i].unit ? sc->fields[i].unit : PW_TL_COUNT_UNIT, &id, err);
            *tr = id;
        }
        ev->kind = PW_TL_COUNTER;
        ev->track = (uint32_t)*tr;
        if (s == PW_OK)
            s = tl->sink->event(tl->sink->ctx, &tl->names, ev, err);
        if (s != PW_OK)
            return s;
        drawn = 1;
    }
    if (drawn)
        return PW_END; /* already emitted */
    tl->no_value_samples++;
    ev->kind = PW_TL_INSTANT;
    return thread_track(tl, ev->location, &ev->track, err);
}

static pw_status draw_end(pw_timeline *tl, const tl_schema *sc, pw_tl_event *ev, pw_error *err)
{
    tl_group *g;
    pw_status s = group_state(tl, ev->location, sc->group, &g, err);
    if (s != PW_OK)
        return s;
    if (g->depth) {
        g->depth--;
        ev->kind = PW_TL_END;
        ev->track = g->track;
        return PW_OK;
    }
    tl->unmatched_ends++;
    ev->kind = PW_TL_INSTANT;
    return thread_track(tl, ev->location, &ev->track, err);
}

/* strcmp() == 0 for the short type names records carry, inline: a libc
 * call per record costs more than the compare. */
static inline int same_str(const char *a, const char *b)
{
    if (a == b)
        return 1;
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

/* Shapes one record into its event(s) and hands them to the sink. */
static pw_status draw_record(pw_timeline *tl, const pw_record *rec, pw_error *err)
{
    tl_schema *sc = &tl->schemas[rec->schema];
    pw_record clipped;
    if (tl->share) /* the merge's order, before the window moves a time */
        tl->at_key = pw_sort_key_of(rec);
    if (pw_window_clip(tl->ds, rec, &clipped)) {
        rec = &clipped;
        tl->clipped++;
    }
    if (tl->recording && !sc->has_msg) /* the first pass notes message ends only */
        return PW_OK;
    if (rec->clock == PW_CLOCK_NONE) {
        tl->untimed++;
        return PW_OK;
    }
    if (sc->role == TL_LOST) {
        tl->lost_kind[rec->kind & 7]++;
        return PW_OK;
    }
    pw_tl_event ev = {.location = rec->location, .t = record_time(rec), .rec = rec,
                      .request_out = PW_TL_NO_REQUEST, .request_posted = PW_TL_NO_REQUEST};
    pw_status s = flush_ends(tl, ev.t, err);
    if (s != PW_OK)
        return s;
    const char *schema_name = tl->ds->schemas[rec->schema]->name;
    if (!sc->name)
        sc->name = intern_str(tl, schema_name);
    if (sc->group_len && !sc->group)
        sc->group = pw_names_intern(&tl->names, schema_name, sc->group_len);
    /* Most records carry their schema's name (in a buffer of their own):
     * comparing three bytes beats hashing. */
    ev.name = same_str(rec->type, schema_name) ? sc->name : intern_str(tl, rec->type);
    if (sc->f_name >= 0) {
        const pw_value *nv = &pw_record_fields(rec)[sc->f_name];
        if (nv->present && nv->v.s.n)
            ev.name = pw_names_intern(&tl->names, nv->v.s.p, nv->v.s.n);
    }
    if (!ev.name || (sc->group_len && !sc->group) || (sc->has_msg && !tl_flows_of(&tl->flows, sc, rec, tl->locs[rec->location].rank, &ev)))
        return tl_nomem(tl, err);
    tl_group *g;
    switch (sc->role) {
    case TL_BEGIN:
        s = group_state(tl, rec->location, sc->group, &g, err);
        if (s == PW_OK) {
            g->depth++;
            ev.kind = PW_TL_BEGIN;
            ev.track = g->track;
        }
        break;
    case TL_END: s = draw_end(tl, sc, &ev, err); break;
    case TL_SPAN: s = draw_span(tl, sc, &ev, err); break;
    case TL_SAMPLE: s = draw_sample(tl, &ev, err); break;
    default:
        ev.kind = PW_TL_INSTANT;
        s = thread_track(tl, rec->location, &ev.track, err);
        break;
    }
    if (s == PW_OK)
        s = emit(tl, &ev, err);
    if (s == PW_END)
        s = PW_OK;
    if (s == PW_OK)
        tl->out++;
    return s;
}

static pw_status tl_init(pw_timeline *tl, pw_dataset *ds, const pw_tl_sink *sink, pw_error *err)
{
    memset(tl, 0, sizeof *tl);
    tl->ds = ds;
    tl->sink = sink;
    pw_names_init(&tl->names);
    tl_flows_init(&tl->flows);
    tl->schemas = calloc(ds->n_schemas ? ds->n_schemas : 1, sizeof *tl->schemas);
    tl->locs = calloc(ds->n_locs ? ds->n_locs : 1, sizeof *tl->locs);
    if (!tl->schemas || !tl->locs)
        return tl_nomem(tl, err);
    tl_schemas_classify(ds, tl->schemas);
    for (size_t i = 0; i < ds->n_locs; i++) {
        tl->locs[i].process_loc = pw_tl_process_of(ds, (uint32_t)i);
        tl->locs[i].rank = pw_tl_rank_of(ds, (uint32_t)i);
    }
    return PW_OK;
}

static void tl_free(pw_timeline *tl)
{
    for (size_t i = 0; tl->locs && i < tl->ds->n_locs; i++) {
        for (uint32_t j = 0; j < tl->locs[i].n_lanes; j++)
            free(tl->locs[i].lanes[j].ends);
        free(tl->locs[i].lanes);
    }
    free(tl->locs);
    free(tl->schemas);
    free(tl->groups);
    pw_heap_free(&tl->pending);

    free(tl->slice_last);
    pw_keymap_free(&tl->group_map);
    pw_keymap_free(&tl->counters);
    tl_flows_free(&tl->flows);
    pw_names_free(&tl->names);
}

enum tl_count {
    TC_IN, TC_OUT, TC_UNTIMED, TC_VALUES, TC_META, TC_UNMATCHED_ENDS, TC_BAD_SPANS, TC_NO_VALUE, TC_RAISED,
    TC_CLIPPED, TC_OPEN, TC_SENDS, TC_RECVS, TC_BACKWARDS, TC_FAILED, TC_N
};

/* The account: what was drawn differently, what could not be drawn.  A
 * share drawn alone adds its counts to the other processes' (every
 * process reaches this sum, failed or not, so none waits for another):
 * each count is its locations' own, so the sums are the serial ones. */
static pw_status tl_account(pw_timeline *tl, uint64_t in, pw_status s, pw_convert_report *rep, pw_error *err)
{
    uint64_t c[TC_N] = {0};
    c[TC_IN] = in;
    c[TC_OUT] = tl->out;
    c[TC_UNTIMED] = tl->untimed;
    c[TC_VALUES] = tl->lost_kind[PW_REC_VALUE];
    c[TC_META] = tl->lost_kind[PW_REC_META];
    c[TC_UNMATCHED_ENDS] = tl->unmatched_ends;
    c[TC_BAD_SPANS] = tl->bad_spans;
    c[TC_NO_VALUE] = tl->no_value_samples;
    c[TC_RAISED] = tl->raised;
    c[TC_CLIPPED] = tl->clipped;
    for (size_t i = 0; i < tl->n_groups; i++)
        c[TC_OPEN] += tl->groups[i].depth;
    tl_flows_unmatched(&tl->flows, &c[TC_SENDS], &c[TC_RECVS]);
    c[TC_BACKWARDS] = tl->flows.backwards;
    c[TC_FAILED] = s != PW_OK;
    if (tl->share)
        tl->ds->run->collectives->sum(tl->ds->run->collectives->ctx, c, TC_N);
    if (s == PW_OK && c[TC_FAILED])
        s = pw_fail(err, PW_E_IO, tl->ds->path, PW_NO_OFFSET, "another process could not draw its share of the timeline");
    if (s != PW_OK)
        return s;
    rep->records_in += c[TC_IN];
    rep->records_out += c[TC_OUT];
    pw_convert_note(rep, "records without a time (not drawn)", c[TC_UNTIMED], 1);
    pw_convert_note(rep, "profile values (VALUE records, not drawn)", c[TC_VALUES], 1);
    pw_convert_note(rep, "definitions (META records, not drawn)", c[TC_META], 1);
    pw_convert_note(rep, "span ends with no open span, drawn as instants", c[TC_UNMATCHED_ENDS], 0);
    pw_convert_note(rep, "spans without a usable end, drawn as instants", c[TC_BAD_SPANS], 0);
    pw_convert_note(rep, "samples without a numeric value, drawn as instants", c[TC_NO_VALUE], 0);
    pw_convert_note(rep, "slice times that went back on their track, raised to keep nesting", c[TC_RAISED], 0);
    pw_convert_note(rep, "spans clipped to the --start/--end window", c[TC_CLIPPED], 0);
    pw_convert_note(rep, "spans still open at the end of the trace (left unterminated)", c[TC_OPEN], 0);
    pw_convert_note(rep, "sends with no matching receive (flow with one end)", c[TC_SENDS], 0);
    pw_convert_note(rep, "receives with no matching send (flow with one end)", c[TC_RECVS], 0);
    pw_convert_note(rep, "messages received before they were sent by the trace's clocks (not synchronised), drawn as no flow",
                    c[TC_BACKWARDS], 0);
    return PW_OK;
}

/* After the last record: pending ends, the sink's finish, the account. */
static pw_status tl_end(pw_timeline *tl, uint64_t in, pw_status s, pw_convert_report *rep, pw_error *err)
{
    if (s == PW_OK)
        s = flush_ends(tl, INT64_MAX, err);
    if (s == PW_OK && tl->sink->finish)
        s = tl->sink->finish(tl->sink->ctx, &tl->names, err);
    if (s == PW_OK || tl->share)
        s = tl_account(tl, in, s, rep, err);
    tl_free(tl);
    return s;
}

/* Draws the records of this process's share, merged in time order. */
static pw_status tl_draw_share(pw_timeline *tl, uint64_t *in, pw_error *err)
{
    pw_merge *m;
    pw_status s = tl_share_merge_open(tl->ds, &m, err);
    const pw_record *rec;
    while (s == PW_OK && pw_merge_next(m, &rec, err) == PW_OK) {
        ++*in;
        s = draw_record(tl, rec, err);
    }
    pw_merge_close(m);
    return s;
}

static pw_status null_track(void *ctx, const pw_names *names, const pw_tl_track *tr, pw_error *err)
{
    (void)ctx, (void)names, (void)tr, (void)err;
    return PW_OK;
}

static pw_status null_event(void *ctx, const pw_names *names, const pw_tl_event *ev, pw_error *err)
{
    (void)ctx, (void)names, (void)ev, (void)err;
    return PW_OK;
}

/* The share drawn alone: a pass that notes the message ends other
 * processes need, their exchange, then the drawing (timeline_share.h).
 * Every process reaches the exchange and the account, failed or not. */
static pw_status tl_run_share(pw_dataset *ds, const pw_tl_sink *sink, tl_share *sh, pw_convert_report *rep,
                              pw_error *err)
{
    static const pw_tl_sink none = {NULL, null_track, null_event, NULL, NULL, 0};
    pw_timeline tl;
    uint64_t in = 0;
    pw_status s = tl_init(&tl, ds, &none, err);
    int messages = 0; /* the same schemas everywhere: every process skips alike */
    for (size_t i = 0; tl.schemas && i < ds->n_schemas; i++)
        messages |= tl.schemas[i].has_msg;
    tl.share = sh;
    tl.recording = 1;
    tl.flows.share = sh;
    pw_diag_mark mark = tl_diag_mark(ds);
    if (s == PW_OK && messages)
        s = tl_draw_share(&tl, &in, err);
    if (s == PW_OK && messages)
        s = flush_ends(&tl, INT64_MAX, err);
    tl_free(&tl);
    if (s == PW_OK)
        tl_diag_restore(ds, &mark);
    int exchanged = !messages || tl_share_exchange(sh, ds->run->collectives, s == PW_OK);
    if (s == PW_OK && !exchanged)
        s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "the processes could not exchange their messages' ends (out of memory, or another process failed)");
    in = 0;
    pw_status si = tl_init(&tl, ds, sink, err);
    s = s == PW_OK ? si : s;
    tl.share = sh;
    tl.flows.share = sh;
    tl.flows.time_ordered = 1;
    if (s == PW_OK)
        s = tl_draw_share(&tl, &in, err);
    return tl_end(&tl, in, s, rep, err);
}

typedef pw_status (*tl_share_run)(pw_dataset *ds, const pw_tl_sink *sink, tl_share *sh, pw_convert_report *rep,
                                  pw_error *err);

/* Draws this process's share with `run` when every process can draw its
 * share alone (*done set, as when memory runs out); else leaves the
 * drawing to the caller. */
static pw_status tl_try_alone(pw_dataset *ds, const pw_tl_sink *sink, tl_share_run run, pw_convert_report *rep,
                              pw_error *err, int *done)
{
    tl_share sh;
    int alone = tl_share_begin(&sh, ds);
    ds->run->timeline_alone = alone == 1;
    *done = alone != 0;
    if (alone < 0)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    if (!alone)
        return PW_OK;
    pw_status s = run(ds, sink, &sh, rep, err);
    tl_share_free(&sh);
    return s;
}

pw_status pw_timeline_run(pw_dataset *ds, const pw_tl_sink *sink, pw_convert_report *rep, pw_error *err)
{
    int done;
    pw_status s = tl_try_alone(ds, sink, tl_run_share, rep, err, &done);
    if (done)
        return s;
    pw_timeline tl;
    pw_merge *m = NULL;
    uint64_t in = 0;
    s = tl_init(&tl, ds, sink, err);
    tl.flows.time_ordered = 1;
    if (s == PW_OK)
        s = pw_merge_open(ds, &m, err);
    const pw_record *rec;
    while (s == PW_OK && pw_merge_next(m, &rec, err) == PW_OK) {
        in++;
        s = draw_record(&tl, rec, err);
    }
    pw_merge_close(m);
    return tl_end(&tl, in, s, rep, err);
}

/* Locations drawn per pass when cursors yield records of other locations,
 * unless the sink says how many it can keep open. */
#define TL_PASS_LOCATIONS 16

/* Opens location i's cursor; damage that stops it is a diagnostic (as in
 * the merge), so NULL with PW_OK means "skip it". */
static pw_status tl_cursor(pw_timeline *tl, uint32_t i, pw_cursor **c, pw_error *err)
{
    pw_status s = pw_cursor_open(tl->ds, i, c, err);
    if (s == PW_E_DATA || s == PW_E_IO) {
        pw_ds_diag_error(tl->ds, PW_SEV_ERROR, "unreadable", err);
        *c = NULL;
        return PW_OK;
    }
    return s;
}

/* Draws the records of cursor location i whose location's pass is `pass`
 * (pass_of NULL: all of them). */
static pw_status tl_draw_cursor(pw_timeline *tl, uint32_t i, const uint32_t *pass_of, uint32_t pass, uint64_t *in,
                                pw_error *err)
{
    pw_cursor *c;
    pw_status s = tl_cursor(tl, i, &c, err);
    const pw_record *rec;
    pw_error e;
    while (s == PW_OK && c && pw_cursor_next(c, &rec, &e) == PW_OK) {
        if (pass_of && pass_of[rec->location] != pass)
            continue;
        ++*in;
        s = draw_record(tl, rec, err);
    }
    pw_cursor_close(c);
    return s;
}

/* Does some cursor of locs[0 .. n) yield records of another location
 * (ROSS: one file's cursor yields many LPs)?  Its first record tells. */
static pw_status tl_probe_foreign(pw_timeline *tl, const uint32_t *locs, size_t n, int *foreign, pw_error *err)
{
    *foreign = 0;
    for (size_t i = 0; i < n && !*foreign; i++) {
        pw_cursor *c;
        pw_status s = tl_cursor(tl, locs[i], &c, err);
        if (s != PW_OK)
            return s;
        const pw_record *rec;
        pw_error e;
        if (c && pw_cursor_next(c, &rec, &e) == PW_OK)
            *foreign = rec->location != locs[i];
        pw_cursor_close(c);
    }
    return PW_OK;
}

/* Which pass draws each location: the sink's pass_locations (or
 * TL_PASS_LOCATIONS) of the locations that records carry per pass
 * (pass_of[loc] from 1; 0: no records). */
static pw_status tl_census(pw_timeline *tl, uint32_t *pass_of, uint32_t *n_passes, pw_error *err)
{
    pw_status s = PW_OK;
    for (uint32_t i = 0; s == PW_OK && i < tl->ds->n_locs; i++) {
        pw_cursor *c = NULL;
        if (tl->ds->locs[i].has_records)
            s = tl_cursor(tl, i, &c, err);
        const pw_record *rec;
        pw_error e;
        while (s == PW_OK && c && pw_cursor_next(c, &rec, &e) == PW_OK)
            pass_of[rec->location] = 1;
        pw_cursor_close(c);
    }
    uint32_t k = 0, per_pass = tl->sink->pass_locations ? tl->sink->pass_locations : TL_PASS_LOCATIONS;
    for (uint32_t i = 0; i < tl->ds->n_locs; i++)
        if (pass_of[i])
            pass_of[i] = k++ / per_pass + 1;
    *n_passes = (k + per_pass - 1) / per_pass;
    return s;
}

/* A pass is over: its slices end, its locations are done. */
static pw_status tl_pass_done(pw_timeline *tl, uint32_t loc, pw_error *err)
{
    pw_status s = flush_ends(tl, INT64_MAX, err);
    if (s == PW_OK && tl->sink->location_done)
        s = tl->sink->location_done(tl->sink->ctx, loc, err);
    return s;
}

/* Foreign records: every cursor is read once per pass, and each pass
 * draws a bounded number of locations, so memory stays bounded. */
static pw_status tl_run_passes(pw_timeline *tl, uint64_t *in, pw_error *err)
{
    uint32_t n_passes = 0, *pass_of = calloc(tl->ds->n_locs ? tl->ds->n_locs : 1, sizeof *pass_of);
    pw_status s = pass_of ? tl_census(tl, pass_of, &n_passes, err) : tl_nomem(tl, err);
    for (uint32_t p = 1; s == PW_OK && p <= n_passes; p++) {
        for (uint32_t i = 0; s == PW_OK && i < tl->ds->n_locs; i++)
            if (tl->ds->locs[i].has_records)
                s = tl_draw_cursor(tl, i, pass_of, p, in, err);
        if (s == PW_OK)
            s = tl_pass_done(tl, UINT32_MAX, err);
    }
    free(pass_of);
    return s;
}

/* The share drawn alone, one location after the other: nothing crosses
 * processes while drawing (without time order no flow is dropped), only
 * the message counts of the channels shared with other processes at the
 * end, for the account of unmatched ends (timeline_share.h). */
static pw_status tl_run_share_by_location(pw_dataset *ds, const pw_tl_sink *sink, tl_share *sh,
                                          pw_convert_report *rep, pw_error *err)
{
    pw_timeline tl;
    uint64_t in = 0;
    size_t n = 0, first = 0, end = 0;
    pw_status s = tl_init(&tl, ds, sink, err);
    tl.share = sh;
    tl.flows.share = sh;
    const uint32_t *locs = pw_ds_record_locations(ds, &n);
    if (s == PW_OK && !locs)
        s = tl_nomem(&tl, err);
    if (locs)
        pw_ds_share(ds, n, &first, &end);
    int foreign; /* none (tl_share_begin): the probe's findings are the serial run's */
    if (s == PW_OK)
        s = tl_probe_foreign(&tl, locs + first, end - first, &foreign, err);
    for (size_t i = first; s == PW_OK && i < end; i++) {
        s = tl_draw_cursor(&tl, locs[i], NULL, 0, &in, err);
        if (s == PW_OK)
            s = tl_pass_done(&tl, locs[i], err);
    }
    if (!tl_share_exchange_counts(sh, ds->run->collectives, &tl.flows.mm, s == PW_OK) && s == PW_OK)
        s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "the processes could not exchange their message counts (out of memory, or another process failed)");
    return tl_end(&tl, in, s, rep, err);
}

pw_status pw_timeline_run_by_location(pw_dataset *ds, const pw_tl_sink *sink, pw_convert_report *rep,
                                      pw_error *err)
{
    int done;
    pw_status s = tl_try_alone(ds, sink, tl_run_share_by_location, rep, err, &done);
    if (done)
        return s;
    pw_timeline tl;
    uint64_t in = 0;
    int foreign = 0;
    size_t n = 0;
    const uint32_t *locs = pw_ds_record_locations(ds, &n);
    s = tl_init(&tl, ds, sink, err);
    if (s == PW_OK && !locs)
        s = tl_nomem(&tl, err);
    if (s == PW_OK)
        s = tl_probe_foreign(&tl, locs, n, &foreign, err);
    if (s == PW_OK && foreign)
        s = tl_run_passes(&tl, &in, err);
    for (uint32_t i = 0; s == PW_OK && !foreign && i < ds->n_locs; i++) {
        if (!ds->locs[i].has_records)
            continue;
        s = tl_draw_cursor(&tl, i, NULL, 0, &in, err);
        if (s == PW_OK)
            s = tl_pass_done(&tl, i, err);
    }
    return tl_end(&tl, in, s, rep, err);
}
