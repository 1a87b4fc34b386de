/* waits_timeline.c — a timeline sink in front of the writer's: it passes
 * every event on, and after the BEGIN of an MPI call that waited draws the
 * wait as a child slice.  The waits and the critical path are found first
 * (the replay and its walk); the path is drawn as slices on a track of its
 * own under each process it visits; the sink numbers the tracks again to
 * fit those in.  ENDs and path boundaries wait in a small
 * heap until the stream reaches their time, so the writer still sees
 * events in time order. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/mpi_waits.h"
#include "analysis/mpi_waits/waits_timeline.h"
#include "core/heap.h"
#include "core/error.h"

/* Scalasca's names of the wait states. */
static const char *const slice_names[MW_N_WAITS] = {"Late Sender",     "Late Receiver",  "Wait at NxN",
                                                    "Wait at Barrier", "Late Broadcast", "Early Reduce"};

/* Something to draw once the stream reaches time t: the END of a wait
 * slice, or a boundary of the critical path on a rank's track.  At one
 * time, ends come before begins. */
typedef struct pending {
    int64_t t;
    int begin;
    uint32_t track, location;
    size_t rank; /* critical path: the rank slot; SIZE_MAX for a wait */
} pending;

typedef struct wait_sink {
    const pw_tl_sink *inner;
    mw_run *run;
    uint32_t names[MW_N_WAITS + 1]; /* the waits', then "critical path" */
    int named;
    pw_heap due; /* of pending */
    uint32_t *ids; /* the timeline's track id -> ours (ours add the path's) */
    size_t cap_ids;
    uint32_t n_tracks;
    uint32_t *path_track; /* per rank slot: its critical-path track, 0: none */
    uint64_t *path_next;  /* per rank slot: its next span */
} wait_sink;

static int before(const void *pa, const void *pb)
{
    const pending *a = pa, *b = pb;
    return a->t < b->t || (a->t == b->t && a->begin < b->begin);
}

static int heap_push(wait_sink *w, pending e) { return pw_heap_push(&w->due, &e, sizeof e, before); }

/* Rank slot r's next critical-path boundary (after `done`, which was a
 * begin or an end of span path_next[r]). */
static int push_path(wait_sink *w, size_t r, int after_begin)
{
    const mw_rank *rk = &w->run->ranks[r];
    uint64_t j = w->path_next[r];
    if (j >= rk->n_path)
        return 1;
    if (!after_begin)
        return heap_push(w, (pending){rk->path[j].a, 1, w->path_track[r], rk->locs[0], r});
    w->path_next[r]++;
    return heap_push(w, (pending){rk->path[j].b, 0, w->path_track[r], rk->locs[0], r});
}

/* What is due at or before t, in time order. */
static pw_status flush_until(wait_sink *w, const pw_names *names, int64_t t, pw_error *err)
{
    pw_status s = PW_OK;
    while (s == PW_OK && w->due.n && ((const pending *)pw_heap_first(&w->due))->t <= t) {
        pending e;
        pw_heap_pop(&w->due, &e, sizeof e, before);
        pw_tl_event ev = {.kind = e.begin ? PW_TL_BEGIN : PW_TL_END, .track = e.track, .location = e.location,
                          .name = w->names[MW_N_WAITS], .t = e.t};
        s = w->inner->event(w->inner->ctx, names, &ev, err);
        if (s == PW_OK && e.rank != SIZE_MAX && !push_path(w, e.rank, e.begin))
            s = pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    }
    return s;
}

/* The names live in the timeline's table, which the sink is handed as
 * const; the timeline owns it mutably and interning only appends. */
static int intern_names(wait_sink *w, const pw_names *names)
{
    for (int k = 0; k <= MW_N_WAITS && !w->named; k++) {
        const char *s = k < MW_N_WAITS ? slice_names[k] : "critical path";
        if (!(w->names[k] = pw_names_intern((pw_names *)names, s, strlen(s))))
            return 0;
    }
    w->named = 1;
    return 1;
}

/* Waits by the call they happen in (entry, then location). */
static int by_call(const void *a, const void *b)
{
    const mw_wait_at *x = a, *y = b;
    if (x->enter != y->enter)
        return x->enter < y->enter ? -1 : 1;
    return (x->location > y->location) - (x->location < y->location);
}

/* The wait of the call rec on rank rk, or NULL (waits sorted by_call). */
static const mw_wait_at *wait_of(const mw_rank *rk, const pw_record *rec)
{
    mw_wait_at key = {.enter = rec->t, .location = rec->location};
    size_t lo = 0, hi = rk->n_waits;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (by_call(&rk->waits[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < rk->n_waits && !by_call(&rk->waits[lo], &key) ? &rk->waits[lo] : NULL;
}

/* The wait of ev's call, if it waited, drawn inside it. */
static pw_status draw_wait(wait_sink *w, const pw_names *names, const pw_tl_event *ev, uint32_t track,
                           pw_error *err)
{
    mw_run *run = w->run;
    const mw_rank *rk = mw_rank_of(run, pw_tl_rank_of(run->ds, ev->rec->location));
    const mw_wait_at *wt = rk ? wait_of(rk, ev->rec) : NULL;
    if (!wt)
        return PW_OK;
    pw_tl_event begin = {.kind = PW_TL_BEGIN, .track = track, .location = ev->location,
                         .name = w->names[wt->kind], .t = wt->enter};
    pw_status s = w->inner->event(w->inner->ctx, names, &begin, err);
    if (s == PW_OK && !heap_push(w, (pending){wt->resume, 0, track, ev->location, SIZE_MAX}))
        s = pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    return s;
}

static uint32_t new_track_id(wait_sink *w, uint32_t inner_id)
{
    if (inner_id >= w->cap_ids) {
        size_t cap = w->cap_ids ? w->cap_ids : 64;
        while (cap <= inner_id)
            cap *= 2;
        uint32_t *ids = realloc(w->ids, cap * sizeof *ids);
        if (!ids)
            return 0;
        memset(ids + w->cap_ids, 0, (cap - w->cap_ids) * sizeof *ids);
        w->ids = ids;
        w->cap_ids = cap;
    }
    return w->ids[inner_id] = ++w->n_tracks;
}

static uint32_t our_track(const wait_sink *w, uint32_t inner_id)
{
    return inner_id < w->cap_ids ? w->ids[inner_id] : 0;
}

/* A process whose rank the critical path visits gets a track for it. */
static pw_status path_track(wait_sink *w, const pw_names *names, const pw_tl_track *proc, pw_error *err)
{
    mw_run *run = w->run;
    int64_t r = pw_tl_rank_of(run->ds, proc->location);
    if (r < 0 || (size_t)r >= run->n_world || run->rank_slot[r] < 0)
        return PW_OK;
    size_t slot = (size_t)run->rank_slot[r];
    if (w->path_track[slot] || !run->ranks[slot].n_path)
        return PW_OK;
    pw_tl_track tr = {++w->n_tracks, proc->id, PW_TL_CHILD, proc->location, w->names[MW_N_WAITS], NULL};
    w->path_track[slot] = tr.id;
    pw_status s = w->inner->track(w->inner->ctx, names, &tr, err);
    if (s == PW_OK && !push_path(w, slot, 0))
        s = pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    return s;
}

static pw_status ws_track(void *ctx, const pw_names *names, const pw_tl_track *tr, pw_error *err)
{
    wait_sink *w = ctx;
    pw_tl_track ours = *tr;
    ours.parent = tr->parent ? our_track(w, tr->parent) : 0;
    if (!(ours.id = new_track_id(w, tr->id)) || !intern_names(w, names))
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    pw_status s = w->inner->track(w->inner->ctx, names, &ours, err);
    if (s == PW_OK && tr->kind == PW_TL_PROCESS)
        s = path_track(w, names, &ours, err);
    return s;
}

static pw_status ws_event(void *ctx, const pw_names *names, const pw_tl_event *ev, pw_error *err)
{
    wait_sink *w = ctx;
    pw_tl_event ours = *ev;
    ours.track = our_track(w, ev->track);
    pw_status s = flush_until(w, names, ev->t, err);
    if (s == PW_OK)
        s = w->inner->event(w->inner->ctx, names, &ours, err);
    /* a call's begin: its span's, or the event that enters it (OTF2's
     * Enter, whose call the replay assembled from its events) */
    int timed = ev->rec && ev->rec->clock == PW_CLOCK_NS && (ev->rec->has_end || ev->rec->kind == PW_REC_BEGIN);
    if (s == PW_OK && ev->kind == PW_TL_BEGIN && timed)
        s = draw_wait(w, names, ev, ours.track, err);
    return s;
}

static pw_status ws_finish(void *ctx, const pw_names *names, pw_error *err)
{
    wait_sink *w = ctx;
    pw_status s = flush_until(w, names, INT64_MAX, err);
    if (s == PW_OK && w->inner->finish)
        s = w->inner->finish(w->inner->ctx, names, err);
    return s;
}

/* The replay and the critical path's walk, then each rank's waits in
 * call order for the drawing. */
static pw_status find_waits(mw_run *run, wait_sink *w, pw_error *err)
{
    w->path_track = calloc(run->n_ranks ? run->n_ranks : 1, sizeof *w->path_track);
    w->path_next = calloc(run->n_ranks ? run->n_ranks : 1, sizeof *w->path_next);
    if (!w->path_track || !w->path_next)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    pw_status s = mw_replay(run, err);
    for (size_t i = 0; s == PW_OK && i < run->n_ranks; i++)
        if (run->ranks[i].n_waits)
            qsort(run->ranks[i].waits, run->ranks[i].n_waits, sizeof *run->ranks[i].waits, by_call);
    return s;
}

static int waits_offered(const pw_dataset *ds) { return pw_ds_option(ds, "waits") != NULL; }

static pw_status draw_waits(pw_dataset *ds, const pw_tl_sink *sink, pw_tl_rest_fn rest, void *rest_ctx,
                            pw_error *err)
{
    mw_run run;
    int mpi = mw_run_init(&run, ds);
    pw_status s = mpi < 0 ? pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory") : PW_OK;
    if (s == PW_OK && !mpi)
        s = rest(rest_ctx, sink, err);
    wait_sink w = {.inner = sink, .run = &run};
    if (s == PW_OK && mpi) {
        run.timed_only = 1;
        s = mw_prepare(&run, err);
        if (s == PW_OK)
            s = find_waits(&run, &w, err);
        pw_tl_sink wrapped = {&w, ws_track, ws_event, ws_finish, NULL, 0};
        if (s == PW_OK)
            s = rest(rest_ctx, &wrapped, err);
    }
    pw_heap_free(&w.due);
    free(w.ids);
    free(w.path_track);
    free(w.path_next);
    mw_run_free(&run);
    return s;
}

const pw_tl_decoration pw_mpi_waits_decoration = {waits_offered, draw_waits};
