/* waits_timeline.c — a timeline sink in front of the writer's: it passes
 * every event on, and after the BEGIN of an MPI call replays the call as
 * pass 2 would (the records come merged in time, each rank's in its own
 * order) and, when the call waited, draws the wait as a child slice.  The
 * slice's END waits in a small heap until the stream reaches its time, so
 * the writer still sees events in time order. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/mpi_waits.h"
#include "analysis/mpi_waits/waits_timeline.h"
#include "core/error.h"

/* Scalasca's names of the wait states. */
static const char *const slice_names[MW_N_WAITS] = {"Late Sender",     "Late Receiver",  "Wait at NxN",
                                                    "Wait at Barrier", "Late Broadcast", "Early Reduce"};

typedef struct pending_end {
    int64_t t;
    uint32_t track, location;
} pending_end;

typedef struct wait_sink {
    const pw_tl_sink *inner;
    mw_run *run;
    uint32_t names[MW_N_WAITS];
    int named;
    pending_end *heap; /* min-heap on t */
    size_t n, cap;
} wait_sink;

static int heap_push(wait_sink *w, pending_end e)
{
    if (w->n == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        pending_end *h = realloc(w->heap, cap * sizeof *h);
        if (!h)
            return 0;
        w->heap = h;
        w->cap = cap;
    }
    size_t i = w->n++;
    for (; i > 0 && w->heap[(i - 1) / 2].t > e.t; i = (i - 1) / 2)
        w->heap[i] = w->heap[(i - 1) / 2];
    w->heap[i] = e;
    return 1;
}

static pending_end heap_pop(wait_sink *w)
{
    pending_end top = w->heap[0], last = w->heap[--w->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= w->n)
            break;
        if (c + 1 < w->n && w->heap[c + 1].t < w->heap[c].t)
            c++;
        if (w->heap[c].t >= last.t)
            break;
        w->heap[i] = w->heap[c];
        i = c;
    }
    if (w->n)
        w->heap[i] = last;
    return top;
}

/* The ENDs of wait slices that end at or before t (a wait ending with its
 * call closes before the call's own END). */
static pw_status flush_until(wait_sink *w, const pw_names *names, int64_t t, pw_error *err)
{
    pw_status s = PW_OK;
    while (s == PW_OK && w->n && w->heap[0].t <= t) {
        pending_end e = heap_pop(w);
        pw_tl_event end = {.kind = PW_TL_END, .track = e.track, .location = e.location, .t = e.t};
        s = w->inner->event(w->inner->ctx, names, &end, err);
    }
    return s;
}

/* The names live in the timeline's table, which the sink is handed as
 * const; the timeline owns it mutably and interning only appends. */
static int intern_names(wait_sink *w, const pw_names *names)
{
    for (int k = 0; k < MW_N_WAITS && !w->named; k++)
        if (!(w->names[k] = pw_names_intern((pw_names *)names, slice_names[k], strlen(slice_names[k]))))
            return 0;
    w->named = 1;
    return 1;
}

/* The call of ev replayed; its wait, if any, drawn. */
static pw_status draw_wait(wait_sink *w, const pw_names *names, const pw_tl_event *ev, pw_error *err)
{
    mw_run *run = w->run;
    const pw_record *rec = ev->rec;
    int64_t r = pw_tl_rank_of(run->ds, rec->location);
    if (r < 0 || (size_t)r >= run->n_world || run->rank_slot[r] < 0)
        return PW_OK;
    mw_rank *rk = &run->ranks[run->rank_slot[r]];
    const mw_schema *sc = &run->schemas[rec->schema];
    int coll = sc->coll.op != PW_COLL_NONE;
    const pw_value *v = sc->p2p || coll ? pw_record_fields(rec) : NULL;
    rk->n_waits = 0; /* nothing kept: each wait is drawn at once */
    if (sc->p2p)
        mw_waits_p2p(run, rk, sc, rec, v);
    if (coll)
        mw_waits_coll(run, rk, sc, rec, v);
    pw_comm_replay_feed(&run->comms, rec);
    if (rk->failed)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    if (!rk->n_waits)
        return PW_OK;
    const mw_wait_at *wt = &rk->waits[0];
    if (!intern_names(w, names))
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    pw_tl_event begin = {.kind = PW_TL_BEGIN, .track = ev->track, .location = ev->location,
                         .name = w->names[wt->kind], .t = wt->enter};
    pw_status s = w->inner->event(w->inner->ctx, names, &begin, err);
    if (s == PW_OK && !heap_push(w, (pending_end){wt->resume, ev->track, ev->location}))
        s = pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    return s;
}

static pw_status ws_track(void *ctx, const pw_names *names, const pw_tl_track *tr, pw_error *err)
{
    wait_sink *w = ctx;
    return w->inner->track(w->inner->ctx, names, tr, err);
}

static pw_status ws_event(void *ctx, const pw_names *names, const pw_tl_event *ev, pw_error *err)
{
    wait_sink *w = ctx;
    pw_status s = flush_until(w, names, ev->t, err);
    if (s == PW_OK)
        s = w->inner->event(w->inner->ctx, names, ev, err);
    int timed = ev->rec && ev->rec->clock == PW_CLOCK_NS && ev->rec->has_end;
    if (s == PW_OK && ev->kind == PW_TL_BEGIN && timed)
        s = draw_wait(w, names, ev, err);
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

pw_status pw_mpi_waits_timeline_run(pw_dataset *ds, const pw_tl_sink *sink, pw_convert_report *rep,
                                    pw_error *err)
{
    if (!pw_ds_option(ds, "waits"))
        return pw_timeline_run(ds, sink, rep, err);
    mw_run run;
    int mpi = mw_run_init(&run, ds);
    pw_status s = mpi < 0 ? pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory") : PW_OK;
    if (s == PW_OK && !mpi)
        s = pw_timeline_run(ds, sink, rep, err);
    wait_sink w = {.inner = sink, .run = &run};
    if (s == PW_OK && mpi) {
        run.timed_only = 1;
        s = mw_prepare(&run, err);
        pw_tl_sink wrapped = {&w, ws_track, ws_event, ws_finish, NULL, 0};
        if (s == PW_OK)
            s = pw_timeline_run(ds, &wrapped, rep, err);
    }
    free(w.heap);
    mw_run_free(&run);
    return s;
}
