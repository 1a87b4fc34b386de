/* paraver_write.c — the timeline as a Paraver trace: <out>.prv (records),
 * .pcf (labels of every event type and value) and .row (object names).
 *
 * Application 1 has one task per process of the timeline and one thread
 * per location that draws something, numbered from 1 in the order they
 * first draw (paraver-kernel's tracebodyio_v1.cpp validRecordLocation:
 * application, task and thread are 1-based and must exist in the header's
 * process model; times are >= 0).  Every event is one event record
 * "2:cpu:appl:task:thread:time:type:value": instants are type 1 with the
 * name as value; slices of a thread track are type 2, those of a child
 * track (slice group or lane) type 100 + the group's name id; a slice's
 * begin sets its name as value and its end restores the enclosing one (0
 * at the outermost), the way ovniemu writes states.  Samples are type
 * 90000000 + counter, with values rounded to integers (counted).  The
 * stream is in time order already; times are ns from the first record,
 * raised when they would go back (counted).  Records go to <out>.events
 * first; the header, known at the end (total time, tasks, threads), is
 * then written to <out> with the records merged with the communications.
 * Matched MPI messages become communication records (paraver_comms.h):
 * logical and physical send time are the sending call's begin, receive
 * times the end of the call that completed the receive, so the send never
 * comes after the receive; size the sent bytes (mpi_coll.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "views/mpi_coll.h"
#include "views/timeline.h"
#include "core/outbuf.h"
#include "sinks/convert/convert.h"
#include "sinks/paraver/paraver_comms.h"

#define PRV_INSTANT_TYPE 1
#define PRV_SLICE_TYPE 2
#define PRV_GROUP_TYPE_BASE 100
#define PRV_COUNTER_TYPE_BASE 90000000

typedef struct prv_track {
    uint32_t task, thread; /* 1-based Paraver ids (thread and child tracks) */
    uint32_t type;
    uint32_t name;
    uint32_t *stack; /* names of open slices */
    size_t n_stack, cap_stack;
} prv_track;

typedef struct prv_writer {
    pw_dataset *ds;
    pw_outbuf out;
    uint32_t *task_of, *thread_of; /* per location; 0: draws nothing (yet) */
    uint32_t *task_of_process;     /* per process location */
    uint32_t *thread_locs, n_threads; /* locations in the order they got a thread */
    uint32_t n_tasks, *threads_in_task;
    prv_track *tracks;
    uint32_t cap_tracks, n_tracks;
    uint8_t *value_used; /* per name id: some slice or instant had it */
    uint32_t cap_values;
    int64_t t0, last;
    int started;
    uint64_t raised, rounded, flows;
    prv_comms comms;
    pw_mpi_calls calls;
    const char *base;
    char spill[4200];  /* <out>.comms */
    const char *events; /* <out>.events: the event records, before the header */
} prv_writer;

static pw_status prv_nomem(pw_error *err) { return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory"); }

/* loc's task and thread, given when it first draws unless the layout
 * gave them: every record of a location lands on a thread the header
 * declares. */
static void prv_place(prv_writer *w, uint32_t loc)
{
    if (w->thread_of[loc])
        return;
    uint32_t p = pw_tl_process_of(w->ds, loc);
    if (!w->task_of_process[p])
        w->task_of_process[p] = ++w->n_tasks;
    w->task_of[loc] = w->task_of_process[p];
    w->thread_of[loc] = ++w->threads_in_task[w->task_of[loc]];
    w->thread_locs[w->n_threads++] = loc;
}

/* Tasks and threads known from the dataset, in location order (task n is
 * the n-th rank): a location with records is a thread, and so are the
 * locations under it (a DUMPI rank's threads).  Locations whose records
 * come from another location's cursor (ROSS LPs) are placed when they
 * first draw. */
static int prv_layout(prv_writer *w)
{
    size_t n = w->ds->n_locs ? w->ds->n_locs : 1;
    w->task_of_process = calloc(n, sizeof *w->task_of_process);
    w->task_of = calloc(n, sizeof *w->task_of);
    w->thread_of = calloc(n, sizeof *w->thread_of);
    w->thread_locs = calloc(n, sizeof *w->thread_locs);
    w->threads_in_task = calloc(n + 1, sizeof *w->threads_in_task);
    if (!w->task_of_process || !w->task_of || !w->thread_of || !w->thread_locs || !w->threads_in_task)
        return 0;
    for (size_t i = 0; i < w->ds->n_locs; i++) {
        int32_t parent = w->ds->locs[i].parent;
        if (w->ds->locs[i].has_records || (parent >= 0 && (size_t)parent < i && w->thread_of[parent]))
            prv_place(w, (uint32_t)i);
    }
    return 1;
}

static void prv_header(prv_writer *w, FILE *f)
{
    fprintf(f, "#Paraver (01/01/70 at 00:00):%lld_ns:0:1:%u(", (long long)w->last, w->n_tasks);
    for (uint32_t t = 1; t <= w->n_tasks; t++)
        fprintf(f, "%s%u:1", t > 1 ? "," : "", w->threads_in_task[t]);
    fprintf(f, ")\n");
}

static pw_status prv_track_cb(void *ctx, const pw_names *nm, const pw_tl_track *tr, pw_error *err)
{
    (void)nm;
    prv_writer *w = ctx;
    if (!pw_grow_zeroed((void **)&w->tracks, &w->cap_tracks, tr->id, sizeof *w->tracks))
        return prv_nomem(err);
    prv_track *t = &w->tracks[tr->id];
    w->n_tracks = tr->id;
    t->name = tr->name;
    if (tr->kind != PW_TL_PROCESS)
        prv_place(w, tr->location);
    t->task = w->task_of[tr->location];
    t->thread = w->thread_of[tr->location];
    switch (tr->kind) {
    case PW_TL_THREAD: t->type = PRV_SLICE_TYPE; break;
    case PW_TL_CHILD: t->type = PRV_GROUP_TYPE_BASE + tr->name; break;
    case PW_TL_COUNTER_TRACK: t->type = PRV_COUNTER_TYPE_BASE + tr->name; break;
    default: t->type = 0; break;
    }
    return PW_OK;
}

static void prv_record(prv_writer *w, const prv_track *t, int64_t time, uint32_t type, int64_t value)
{
    pw_outbuf *o = &w->out;
    pw_out_str(o, "2:0:1:");
    pw_out_u64(o, t->task);
    pw_out_char(o, ':');
    pw_out_u64(o, t->thread);
    pw_out_char(o, ':');
    pw_out_i64(o, time);
    pw_out_char(o, ':');
    pw_out_u64(o, type);
    pw_out_char(o, ':');
    pw_out_i64(o, value);
    pw_out_char(o, '\n');
}

static int prv_value(prv_writer *w, uint32_t name)
{
    if (!pw_grow_zeroed((void **)&w->value_used, &w->cap_values, name, 1))
        return 0;
    w->value_used[name] = 1;
    return 1;
}

/* The ends of messages at ev: the send's size from its call's arguments. */
static pw_status prv_message_ends(prv_writer *w, const prv_track *t, const pw_tl_event *ev, int64_t time,
                                  pw_error *err)
{
    pw_status s = PW_OK;
    if (ev->flow_out) {
        pw_mpi_call call;
        if (!pw_mpi_calls_read(&w->calls, ev->rec, &call))
            return prv_nomem(err);
        s = prv_comms_end(&w->comms, ev->flow_out, 1, t->task, t->thread, time, call.sent, ev->msg_out->tag,
                          w->spill, err);
    }
    for (size_t i = 0; s == PW_OK && i < ev->n_flows_in; i++)
        s = prv_comms_end(&w->comms, ev->flows_in[i], 2, t->task, t->thread, time, 0, 0, w->spill, err);
    return s;
}

static pw_status prv_event(void *ctx, const pw_names *nm, const pw_tl_event *ev, pw_error *err)
{
    (void)nm;
    prv_writer *w = ctx;
    prv_track *t = &w->tracks[ev->track];
    if (!w->started) {
        w->started = 1;
        w->t0 = ev->t;
    }
    int64_t time;
    if (__builtin_sub_overflow(ev->t, w->t0, &time))
        time = ev->t < w->t0 ? INT64_MIN : INT64_MAX;
    if (time < w->last) {
        time = w->last;
        w->raised++;
    }
    w->last = time;
    w->flows += (ev->flow_out != 0);
    if (ev->flow_out || ev->n_flows_in) {
        pw_status s = prv_message_ends(w, t, ev, time, err);
        if (s != PW_OK)
            return s;
    }
    switch (ev->kind) {
    case PW_TL_INSTANT:
        if (!prv_value(w, ev->name))
            return prv_nomem(err);
        prv_record(w, t, time, PRV_INSTANT_TYPE, ev->name);
        break;
    case PW_TL_BEGIN:
        if (!prv_value(w, ev->name))
            return prv_nomem(err);
        if (!pw_grow((void **)&t->stack, t->n_stack, &t->cap_stack, sizeof *t->stack))
            return prv_nomem(err);
        t->stack[t->n_stack++] = ev->name;
        prv_record(w, t, time, t->type, ev->name);
        break;
    case PW_TL_END:
        t->n_stack--;
        prv_record(w, t, time, t->type, t->n_stack ? t->stack[t->n_stack - 1] : 0);
        break;
    case PW_TL_COUNTER: {
        double r = nearbyint(ev->value);
        w->rounded += r != ev->value;
        prv_record(w, t, time, t->type, pw_tl_int64(r));
        break;
    }
    }
    if (w->out.failed)
        return pw_outbuf_error_at(&w->out, w->events, err);
    return PW_OK;
}

static void pcf_values(FILE *f, const prv_writer *w, const pw_names *nm)
{
    fprintf(f, "VALUES\n0 End\n");
    for (uint32_t id = 1; id < w->cap_values; id++)
        if (w->value_used[id])
            fprintf(f, "%u %s\n", id, pw_names_str(nm, id, NULL));
    fprintf(f, "\n\n");
}

/* The .pcf (labels) and .row (names), at the end when all are known. */
static pw_status prv_finish(void *ctx, const pw_names *nm, pw_error *err)
{
    prv_writer *w = ctx;
    char path[4096];
    snprintf(path, sizeof path, "%s.pcf", w->base);
    FILE *f = fopen(path, "w");
    if (!f)
        return pw_fail_errno(err, path, "cannot create");
    fprintf(f, "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\n\n\n");
    fprintf(f, "EVENT_TYPE\n0 %d Instant event\n", PRV_INSTANT_TYPE);
    pcf_values(f, w, nm);
    fprintf(f, "EVENT_TYPE\n0 %d Slice\n", PRV_SLICE_TYPE);
    pcf_values(f, w, nm);
    uint8_t *seen = calloc((size_t)w->n_tracks + 1, 1);
    for (uint32_t id = 1; seen && id <= w->n_tracks; id++) {
        const prv_track *t = &w->tracks[id];
        if (t->type < PRV_GROUP_TYPE_BASE)
            continue;
        int dup = 0; /* one section per type: tracks of other threads share it */
        for (uint32_t j = 1; j < id && !dup; j++)
            dup = seen[j] && w->tracks[j].type == t->type;
        if (dup)
            continue;
        seen[id] = 1;
        fprintf(f, "EVENT_TYPE\n0 %u %s\n", t->type, pw_names_str(nm, t->name, NULL));
        if (t->type < PRV_COUNTER_TYPE_BASE)
            pcf_values(f, w, nm);
        else
            fprintf(f, "\n\n");
    }
    free(seen);
    int bad = fclose(f) != 0;
    snprintf(path, sizeof path, "%s.row", w->base);
    f = bad ? NULL : fopen(path, "w");
    if (!f)
        return pw_fail_errno(err, path, "cannot write");
    fprintf(f, "LEVEL NODE SIZE 1\n%s\n\nLEVEL THREAD SIZE %u\n", pw_dataset_path(w->ds), w->n_threads);
    for (uint32_t t = 1; t <= w->n_tasks; t++) /* threads in task order, as in the header */
        for (uint32_t i = 0; i < w->n_threads; i++)
            if (w->task_of[w->thread_locs[i]] == t)
                fprintf(f, "%s\n", w->ds->locs[w->thread_locs[i]].path);
    return fclose(f) == 0 ? PW_OK : pw_fail_errno(err, path, "write failed");
}

/* The .prv at out: the header, then the records merged with the
 * communications; the records' file is removed. */
static pw_status prv_assemble(prv_writer *w, const char *out, const char *events, pw_error *err)
{
    FILE *f = fopen(out, "wb");
    if (!f)
        return pw_fail_errno(err, out, "cannot create");
    prv_header(w, f);
    pw_status s = prv_comms_merge(&w->comms, f, out, events, w->spill, err);
    if (fclose(f) != 0 && s == PW_OK)
        s = pw_fail_errno(err, out, "write failed");
    return s;
}

pw_status pw_convert_paraver(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err)
{
    size_t n = strlen(out);
    if (n < 5 || strcmp(out + n - 4, ".prv"))
        return pw_fail(err, PW_E_USAGE, out, PW_NO_OFFSET, "a Paraver output must end in .prv");
    char base[4096], events[4200];
    snprintf(base, sizeof base, "%.*s", (int)(n - 4), out);
    snprintf(events, sizeof events, "%s.events", out);
    prv_writer w;
    memset(&w, 0, sizeof w);
    w.ds = ds;
    w.base = base;
    snprintf(w.spill, sizeof w.spill, "%s.comms", out);
    w.events = events;
    FILE *f = fopen(events, "wb");
    if (!f)
        return pw_fail_errno(err, events, "cannot create");
    pw_status s = prv_layout(&w) && pw_mpi_calls_init(&w.calls, ds) ? pw_outbuf_init(&w.out, f, err)
                                                                         : prv_nomem(err);
    pw_tl_sink sink = {&w, prv_track_cb, prv_event, prv_finish, NULL, 0};
    if (s == PW_OK)
        s = pw_timeline_run(ds, &sink, rep, err);
    pw_status fs = w.out.buf ? pw_outbuf_flush(&w.out, s == PW_OK ? err : NULL) : PW_OK;
    s = s == PW_OK ? fs : s;
    if (fclose(f) != 0 && s == PW_OK)
        s = pw_fail_errno(err, events, "write failed");
    if (s == PW_OK)
        s = prv_assemble(&w, out, events, err);
    remove(events);
    if (s != PW_OK)
        remove(w.spill);
    pw_convert_note(rep, "times that went back, raised to keep Paraver's order", w.raised, 0);
    pw_convert_note(rep, "sample values rounded to integers", w.rounded, 0);
    pw_convert_note(rep, "messages sent with no matching receive (no communication record)",
                    w.flows - prv_comms_complete(&w.comms), 0);
    prv_comms_free(&w.comms);
    pw_mpi_calls_free(&w.calls);
    for (uint32_t i = 1; i <= w.n_tracks; i++)
        free(w.tracks[i].stack);
    pw_outbuf_free(&w.out);
    free(w.tracks);
    free(w.task_of);
    free(w.thread_of);
    free(w.task_of_process);
    free(w.thread_locs);
    free(w.threads_in_task);
    free(w.value_used);
    return s;
}
