/* chrome_write.c — the timeline as Chrome JSON trace events (the "JSON
 * Array/Object Format" that chrome://tracing and Perfetto read).
 *
 * Every thread or child track becomes a Chrome thread (tid = track id, so
 * lanes and slice groups keep nesting), named by "M" metadata events;
 * slices are B/E pairs, instants "i" (thread scope), samples "C" events,
 * messages flow events "s" (on the send slice) and "f" (binding to the
 * enclosing receive slice, "bp":"e": trace_processor's json_trace_parser
 * binds it to the topmost open slice on its thread), written just before
 * the "E" of the call that completes the receive, at the same time.
 * Timestamps are µs with ns decimals counted from the first event, so
 * every nanosecond survives the double importers parse them into; the
 * first event's epoch time is "otherData"."trace_start_ns".  Values JSON
 * cannot hold (NaN, infinities) are left out and counted.
 * A path ending in .gz is written gzip-compressed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "views/timeline.h"
#include "core/outbuf.h"
#include "core/path_name.h"
#include "sinks/chrome/gzfile.h"
#include "sinks/convert/convert.h"
#include "sinks/jsonl/jsonl_dump.h"

typedef struct ch_writer {
    pw_outbuf out;
    struct ch_track {
        uint32_t pid, tid; /* tid 0: a counter track (no thread) */
        uint32_t name;     /* counters: the name shown */
    } *tracks;             /* per track id */
    uint32_t cap_tracks;
    int first;
    int started;      /* t0 is set */
    int64_t t0;       /* the first event's time: timestamps count from it */
    uint64_t nonfinite; /* values left out */
    const char *path;
} ch_writer;

static void ch_name(pw_outbuf *o, const pw_names *nm, uint32_t id)
{
    size_t n;
    const char *s = pw_names_str(nm, id, &n);
    pw_out_json_string(o, s, n);
}

/* Starts an event object: separator, "ph", "pid" and (when set) "tid". */
static void ch_open(ch_writer *w, char ph, uint32_t pid, uint32_t tid)
{
    pw_outbuf *o = &w->out;
    pw_out_str(o, w->first ? "\n{\"ph\":\"" : ",\n{\"ph\":\"");
    w->first = 0;
    pw_out_char(o, ph);
    pw_out_str(o, "\",\"pid\":");
    pw_out_u64(o, pid);
    if (tid) {
        pw_out_str(o, ",\"tid\":");
        pw_out_u64(o, tid);
    }
}

/* The event's time: ns as µs with three decimals. */
static void ch_ts(pw_outbuf *o, int64_t t)
{
    pw_out_str(o, ",\"ts\":");
    pw_out_us(o, t);
}

static pw_status ch_track(void *ctx, const pw_names *nm, const pw_tl_track *tr, pw_error *err)
{
    ch_writer *w = ctx;
    if (!pw_grow_zeroed((void **)&w->tracks, &w->cap_tracks, tr->id, sizeof *w->tracks))
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    struct ch_track *t = &w->tracks[tr->id];
    t->name = tr->name;
    t->tid = tr->kind == PW_TL_THREAD || tr->kind == PW_TL_CHILD ? tr->id : 0;
    t->pid = tr->kind == PW_TL_PROCESS ? tr->location + 1 : w->tracks[tr->parent].pid;
    if (tr->kind == PW_TL_COUNTER_TRACK)
        return PW_OK; /* a "C" event names itself */
    ch_open(w, 'M', t->pid, t->tid);
    pw_out_str(&w->out, tr->kind == PW_TL_PROCESS ? ",\"name\":\"process_name\"" : ",\"name\":\"thread_name\"");
    pw_out_str(&w->out, ",\"args\":{\"name\":");
    if (tr->kind == PW_TL_CHILD) { /* "thread.12 6W": the group under its thread */
        size_t n1, n2;
        const char *a = pw_names_str(nm, w->tracks[tr->parent].name, &n1);
        const char *b = pw_names_str(nm, tr->name, &n2);
        pw_out_char(&w->out, '"');
        pw_out_json_escaped(&w->out, a, n1);
        pw_out_char(&w->out, ' ');
        pw_out_json_escaped(&w->out, b, n2);
        pw_out_char(&w->out, '"');
    } else {
        ch_name(&w->out, nm, tr->name);
    }
    pw_out_str(&w->out, "}}");
    return PW_OK;
}

static int finite(double d) { return d - d == 0; }

/* The record's present fields as "args", the way Chrome shows details;
 * numbers JSON cannot hold are left out (counted). */
static void ch_args(ch_writer *w, pw_outbuf *o, const pw_record *rec)
{
    const pw_schema *sc = rec->cursor->ds->schemas[rec->schema];
    if (!sc->n_fields)
        return;
    const pw_value *v = pw_record_fields(rec);
    int first = 1;
    for (size_t i = 0; i < sc->n_fields; i++) {
        if (!v[i].present)
            continue;
        if (v[i].type == PW_T_F64 && !finite(v[i].v.f)) {
            w->nonfinite++;
            continue;
        }
        pw_out_str(o, first ? ",\"args\":{\"" : ",\"");
        first = 0;
        pw_out_json_escaped(o, sc->fields[i].name, strlen(sc->fields[i].name));
        pw_out_str(o, "\":");
        pw_jsonl_value(o, &v[i]);
    }
    if (!first)
        pw_out_char(o, '}');
}

/* A flow event bound to the slice open on its thread. */
static void ch_flow(ch_writer *w, char ph, const struct ch_track *t, int64_t ts, uint64_t id)
{
    ch_open(w, ph, t->pid, t->tid);
    ch_ts(&w->out, ts);
    pw_out_str(&w->out, ",\"cat\":\"message\",\"name\":\"message\",\"id\":\"0x");
    char hex[17];
    snprintf(hex, sizeof hex, "%llx", (unsigned long long)id);
    pw_out_str(&w->out, hex);
    pw_out_str(&w->out, ph == 'f' ? "\",\"bp\":\"e\"}" : "\"}");
}

static pw_status ch_event(void *ctx, const pw_names *nm, const pw_tl_event *ev, pw_error *err)
{
    ch_writer *w = ctx;
    const struct ch_track *t = &w->tracks[ev->track];
    pw_outbuf *o = &w->out;
    static const char ph[] = {[PW_TL_BEGIN] = 'B', [PW_TL_END] = 'E', [PW_TL_INSTANT] = 'i', [PW_TL_COUNTER] = 'C'};
    if (!w->started) {
        w->started = 1;
        w->t0 = ev->t;
    }
    int64_t ts;
    if (__builtin_sub_overflow(ev->t, w->t0, &ts))
        ts = ev->t < w->t0 ? INT64_MIN : INT64_MAX;
    if (ev->kind == PW_TL_COUNTER && !finite(ev->value)) {
        w->nonfinite++;
        return PW_OK;
    }
    if (ev->kind == PW_TL_END) /* before the E: the receiving call is still open */
        for (size_t i = 0; i < ev->n_flows_in; i++)
            ch_flow(w, 'f', t, ts, ev->flows_in[i]);
    ch_open(w, ph[ev->kind], t->pid, t->tid);
    ch_ts(o, ts);
    if (ev->kind == PW_TL_BEGIN || ev->kind == PW_TL_INSTANT) {
        pw_out_str(o, ",\"name\":");
        ch_name(o, nm, ev->name);
    }
    if (ev->kind == PW_TL_INSTANT)
        pw_out_str(o, ",\"s\":\"t\"");
    if ((ev->kind == PW_TL_BEGIN || ev->kind == PW_TL_INSTANT) && ev->rec)
        ch_args(w, o, ev->rec);
    if (ev->kind == PW_TL_COUNTER) {
        pw_out_str(o, ",\"name\":");
        ch_name(o, nm, t->name);
        pw_out_str(o, ",\"args\":{\"value\":");
        pw_out_f64(o, ev->value);
        pw_out_char(o, '}');
    }
    pw_out_char(o, '}');
    if (ev->flow_out)
        ch_flow(w, 's', t, ts, ev->flow_out);
    for (size_t i = 0; ev->kind != PW_TL_END && i < ev->n_flows_in; i++)
        ch_flow(w, 'f', t, ts, ev->flows_in[i]);
    if (o->failed)
        return pw_outbuf_error_at(o, w->path, err);
    return PW_OK;
}

pw_status pw_convert_chrome(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err)
{
    int gz = pw_ends_with(out, ".gz");
    FILE *f = gz ? pw_gzfile_create(out) : fopen(out, "wb");
    if (!f)
        return pw_fail_errno(err, out, errno == ENOSYS ? "gzip output needs zlib, absent from this build"
                                                       : "cannot create");
    ch_writer w;
    memset(&w, 0, sizeof w);
    w.first = 1;
    w.path = out;
    pw_status s = pw_outbuf_init(&w.out, f, err);
    pw_tl_sink sink = {&w, ch_track, ch_event, NULL, NULL, 0};
    if (s == PW_OK) {
        pw_out_str(&w.out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
        s = pw_timeline_run_decorated(ds, &sink, rep, err); /* and what analyses draw on it */
        pw_out_str(&w.out, "\n],\"otherData\":{\"trace_start_ns\":");
        pw_out_i64(&w.out, w.t0);
        pw_out_str(&w.out, "}}\n");
    }
    pw_status fs = w.out.buf ? pw_outbuf_flush(&w.out, s == PW_OK ? err : NULL) : PW_OK;
    s = s == PW_OK ? fs : s;
    if (!gz) {
        long size = ftell(f);
        rep->bytes_out = size > 0 ? (uint64_t)size : 0;
    }
    if (fclose(f) != 0 && s == PW_OK)
        s = pw_fail_errno(err, out, "write failed");
    pw_convert_note(rep, "values JSON cannot hold (NaN, infinities), left out", w.nonfinite, 1);
    pw_outbuf_free(&w.out);
    free(w.tracks);
    return s;
}
