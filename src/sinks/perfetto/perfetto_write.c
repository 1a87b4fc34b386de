/* perfetto_write.c — the timeline as a Perfetto protobuf trace, streamed.
 *
 * Compactness (the budget is 20 bytes per event): every location
 * with records writes on its own packet sequence, whose defaults give its
 * thread track (track_uuid is then left out of most events) and an
 * incremental clock (timestamps are deltas, 1-3 bytes); event names are
 * interned per sequence (name_iid instead of the string), numbered 1, 2 ...
 * in the order the sequence first uses them, so a location's packets do
 * not depend on the names other locations used first.  Events leave out
 * the flag SEQ_NEEDS_INCREMENTAL_STATE: trace_processor
 * (importers/proto/proto_trace_reader.cc, ParsePacket) reads it only to
 * skip the packets of a sequence whose incremental state is not valid,
 * and every sequence here is valid from its first packet on (which
 * clears it); two bytes less per event.  Track
 * descriptors go on sequence 1 before the first event that uses them.
 * Track uuids are the timeline's (pw_tl_uuid_of: from the location
 * list, so small for few locations, and the same whichever process draws
 * a location); flow ids are pw_tl_flow_uuid (from the message's channel
 * and sequence number).  Pids and tids are location indexes + 1 (real ids
 * repeat across nodes and would merge).
 * Slice begins and instants carry their record's fields as debug
 * annotations (perfetto_args.h).
 *
 * A dataset read as a share (pw_dataset_set_share) gives a shard: the
 * packets of the share's sequences only.  When the timeline draws the
 * share alone (timeline_share.h) each shard holds the descriptors of the
 * tracks it drew; when every process draws every location, share 0 holds
 * them all.  Uuids and flow ids do not depend on who draws, so shards
 * concatenated in share order are a trace with the serial content
 * (packets of a sequence stay in order; Perfetto sorts events by time
 * when it loads, and takes descriptors in any order). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "views/timeline.h"
#include "core/outbuf.h"
#include "sinks/convert/convert.h"
#include "sinks/perfetto/pb.h"
#include "sinks/perfetto/perfetto_args.h"
#include "sinks/perfetto/perfetto_fields.h"

#define DESCRIPTOR_SEQUENCE 1

typedef struct pf_seq {
    int started;
    uint32_t default_track; /* its thread track's id */
    int64_t last_t;
    uint32_t *iid;     /* iid[name id]: its iid on this sequence, 0: not emitted yet */
    uint32_t cap_interned, n_iids;
    pf_args_seq args;  /* field names interned on this sequence */
} pf_seq;

typedef struct pf_writer {
    pw_outbuf out;
    pf_seq *seqs;       /* per location */
    uint32_t *track_pid; /* per track id: pid of its process */
    uint64_t *track_uuid; /* per track id: the uuid written */
    uint32_t cap_tracks, cap_uuids;
    const pw_dataset *ds;
    pw_tl_uuids uuids;
    pb_buf packet, msg, inner, scratch;
    int nomem;
    const char *path;
    pf_args args;
    uint8_t *owned;     /* per location: its sequence is written here (NULL: all) */
    int descriptors;    /* track descriptors are written here */
} pf_writer;

/* Frames the packet built in w->packet as one Trace.packet field. */
static void emit_packet(pf_writer *w)
{
    w->nomem |= w->packet.failed;
    uint8_t head[PB_FRAME_HEAD];
    pw_out_mem(&w->out, head, pb_frame_head(head, TRACE_PACKET, w->packet.n));
    pw_out_mem(&w->out, w->packet.p, w->packet.n);
    w->packet.n = 0;
}

static uint32_t sequence_of(uint32_t loc) { return loc + 2; }

static const char *name_of(const pw_names *nm, uint32_t id, size_t *n) { return pw_names_str(nm, id, n); }

static pw_status pf_track(void *ctx, const pw_names *nm, const pw_tl_track *tr, pw_error *err)
{
    pf_writer *w = ctx;
    if (!pw_grow_zeroed((void **)&w->track_pid, &w->cap_tracks, tr->id, sizeof *w->track_pid) ||
        !pw_grow_zeroed((void **)&w->track_uuid, &w->cap_uuids, tr->id, sizeof *w->track_uuid))
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    w->track_uuid[tr->id] = pw_tl_uuid_of(&w->uuids, tr);
    size_t n;
    const char *name = name_of(nm, tr->name, &n);
    pb_buf *d = &w->msg, *in = &w->inner;
    if (tr->kind == PW_TL_THREAD)
        w->seqs[tr->location].default_track = tr->id;
    if (tr->kind == PW_TL_PROCESS)
        w->track_pid[tr->id] = tr->location + 1;
    else
        w->track_pid[tr->id] = w->track_pid[tr->parent];
    if (!w->descriptors && !w->ds->run->timeline_alone)
        return PW_OK;
    pb_uint(d, TRACK_DESC_UUID, w->track_uuid[tr->id]);
    if (tr->parent)
        pb_uint(d, TRACK_DESC_PARENT_UUID, w->track_uuid[tr->parent]);
    if (tr->kind == PW_TL_PROCESS) {
        pb_uint(in, PROCESS_PID, tr->location + 1);
        pb_bytes(in, PROCESS_NAME, name, n);
        pb_message(d, TRACK_DESC_PROCESS, in);
    } else if (tr->kind == PW_TL_THREAD) {
        pb_uint(in, THREAD_PID, w->track_pid[tr->parent]);
        pb_uint(in, THREAD_TID, tr->location + 1);
        pb_bytes(in, THREAD_NAME, name, n);
        pb_message(d, TRACK_DESC_THREAD, in);
    } else {
        pb_bytes(d, TRACK_DESC_NAME, name, n);
        if (tr->kind == PW_TL_COUNTER_TRACK) {
            if (!strcmp(tr->unit, PW_TL_COUNT_UNIT)) /* counter_descriptor.proto: UNIT_COUNT */
                pb_uint(in, COUNTER_UNIT, COUNTER_UNIT_COUNT);
            else
                pb_bytes(in, COUNTER_UNIT_NAME, tr->unit, strlen(tr->unit));
            pb_message(d, TRACK_DESC_COUNTER, in);
        }
    }
    pb_uint(&w->packet, PACKET_SEQUENCE_ID, DESCRIPTOR_SEQUENCE);
    pb_message(&w->packet, PACKET_TRACK_DESCRIPTOR, d);
    emit_packet(w);
    return PW_OK;
}

/* The first packet of a location's sequence: clears its state, sets the
 * defaults (thread track, incremental clock) and anchors the clock at t. */
static void start_sequence(pf_writer *w, pf_seq *q, uint32_t seq, int64_t t)
{
    pb_buf *p = &w->packet, *m = &w->msg, *in = &w->inner;
    pb_uint(p, PACKET_TIMESTAMP, (uint64_t)t);
    pb_uint(p, PACKET_TIMESTAMP_CLOCK_ID, PF_CLOCK_BOOTTIME);
    pb_uint(p, PACKET_SEQUENCE_ID, seq);
    pb_uint(p, PACKET_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
    if (q->default_track)
        pb_uint(in, TRACK_EVENT_DEFAULTS_TRACK_UUID, w->track_uuid[q->default_track]);
    pb_uint(m, DEFAULTS_TIMESTAMP_CLOCK_ID, PF_CLOCK_SEQUENCE_INCREMENTAL);
    pb_message(m, DEFAULTS_TRACK_EVENT, in);
    pb_message(p, PACKET_DEFAULTS, m);
    pb_uint(in, PF_CLOCK_ID, PF_CLOCK_SEQUENCE_INCREMENTAL);
    pb_uint(in, PF_CLOCK_TIMESTAMP, (uint64_t)t);
    pb_uint(in, PF_CLOCK_IS_INCREMENTAL, 1);
    pb_message(m, PF_CLOCK_SNAPSHOT_CLOCKS, in);
    pb_uint(in, PF_CLOCK_ID, PF_CLOCK_BOOTTIME);
    pb_uint(in, PF_CLOCK_TIMESTAMP, (uint64_t)t);
    pb_message(m, PF_CLOCK_SNAPSHOT_CLOCKS, in);
    pb_message(p, PACKET_CLOCK_SNAPSHOT, m);
    emit_packet(w);
    q->started = 1;
    q->last_t = t;
}

/* Adds the name to the packet's interned data unless the sequence has it. */
static int intern_name(pf_writer *w, pf_seq *q, const pw_names *nm, uint32_t id)
{
    if (!pw_grow_zeroed((void **)&q->iid, &q->cap_interned, id, sizeof *q->iid))
        return 0;
    if (q->iid[id])
        return 1;
    q->iid[id] = ++q->n_iids;
    size_t n;
    const char *s = name_of(nm, id, &n);
    pb_uint(&w->inner, EVENT_NAME_IID, q->iid[id]);
    pb_bytes(&w->inner, EVENT_NAME_NAME, s, n);
    pb_message(&w->scratch, INTERNED_EVENT_NAMES, &w->inner);
    pb_message(&w->packet, PACKET_INTERNED_DATA, &w->scratch);
    return 1;
}

static const uint8_t event_type[] = {
    [PW_TL_BEGIN] = TYPE_SLICE_BEGIN, [PW_TL_END] = TYPE_SLICE_END,
    [PW_TL_INSTANT] = TYPE_INSTANT, [PW_TL_COUNTER] = TYPE_COUNTER};

/* The common event — name already interned on its sequence, no flows —
 * encoded in place in the output buffer: both lengths fit one byte, so
 * they are left blank and filled in at the end (no nested buffers, no
 * copies).  The general path below makes the same bytes. */
static void pf_fast_event(pf_writer *w, pf_seq *q, uint32_t seq, const pw_tl_event *ev, int64_t t)
{
    pw_outbuf_reserve(&w->out, PB_INPLACE_EVENT_MAX);
    if (w->out.cap - w->out.len < PB_INPLACE_EVENT_MAX)
        return; /* a memory buffer that could not grow: marked failed */
    uint8_t *start = (uint8_t *)w->out.buf + w->out.len, *p = start + 2;
    start[0] = TRACE_PACKET << 3 | PB_LEN;
    *p++ = PACKET_TIMESTAMP << 3;
    if (t >= q->last_t) {
        p += pb_put_varint(p, (uint64_t)(t - q->last_t));
        q->last_t = t;
    } else { /* time went back (ovni unordered regions): absolute, clock untouched */
        p += pb_put_varint(p, (uint64_t)t);
        p += pb_put_varint(p, (uint64_t)PACKET_TIMESTAMP_CLOCK_ID << 3);
        *p++ = PF_CLOCK_BOOTTIME;
    }
    *p++ = PACKET_SEQUENCE_ID << 3;
    p += pb_put_varint(p, seq);
    *p++ = PACKET_TRACK_EVENT << 3 | PB_LEN;
    uint8_t *te = p++;
    *p++ = TRACK_EVENT_TYPE << 3;
    *p++ = event_type[ev->kind];
    if (ev->track != q->default_track) {
        *p++ = TRACK_EVENT_TRACK_UUID << 3;
        p += pb_put_varint(p, w->track_uuid[ev->track]);
    }
    if (ev->kind == PW_TL_BEGIN || ev->kind == PW_TL_INSTANT) {
        *p++ = TRACK_EVENT_NAME_IID << 3;
        p += pb_put_varint(p, q->iid[ev->name]);
    }
    if (ev->kind == PW_TL_COUNTER) {
        p += pb_put_varint(p, (uint64_t)TRACK_EVENT_DOUBLE_COUNTER_VALUE << 3 | PB_FIXED64);
        uint64_t bits;
        memcpy(&bits, &ev->value, 8);
        for (int i = 0; i < 8; i++)
            *p++ = (uint8_t)(bits >> (8 * i));
    }
    *te = (uint8_t)(p - te - 1);
    start[1] = (uint8_t)(p - start - 2);
    w->out.len += (size_t)(p - start);
}

static pw_status pf_event(void *ctx, const pw_names *nm, const pw_tl_event *ev, pw_error *err)
{
    pf_writer *w = ctx;
    if (w->owned && !w->ds->run->timeline_alone && !w->owned[ev->location])
        return PW_OK; /* another shard's sequence (drawn alone, a share draws only its own) */
    pf_seq *q = &w->seqs[ev->location];
    uint32_t seq = sequence_of(ev->location);
    int64_t t = ev->t < 0 ? 0 : ev->t;
    if (!q->started)
        start_sequence(w, q, seq, t);
    int named = ev->kind == PW_TL_BEGIN || ev->kind == PW_TL_INSTANT;
    int args = named && ev->rec && pf_args_any(ev->rec);
    if (!ev->flow_out && !ev->n_flows_in && !args && (!named || (ev->name < q->cap_interned && q->iid[ev->name]))) {
        pf_fast_event(w, q, seq, ev, t);
        return w->out.failed ? pw_outbuf_error_at(&w->out, w->path, err) : PW_OK;
    }
    pb_buf *p = &w->packet, *e = &w->msg;
    if (t >= q->last_t) {
        pb_uint(p, PACKET_TIMESTAMP, (uint64_t)(t - q->last_t));
        q->last_t = t;
    } else { /* time went back (ovni unordered regions): absolute, clock untouched */
        pb_uint(p, PACKET_TIMESTAMP, (uint64_t)t);
        pb_uint(p, PACKET_TIMESTAMP_CLOCK_ID, PF_CLOCK_BOOTTIME);
    }
    pb_uint(p, PACKET_SEQUENCE_ID, seq);
    pb_uint(e, TRACK_EVENT_TYPE, event_type[ev->kind]);
    if (ev->track != q->default_track)
        pb_uint(e, TRACK_EVENT_TRACK_UUID, w->track_uuid[ev->track]);
    if (named) {
        if (!intern_name(w, q, nm, ev->name))
            return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
        pb_uint(e, TRACK_EVENT_NAME_IID, q->iid[ev->name]);
    }
    if (args && !pf_args_add(&w->args, &q->args, ev->rec, e, p))
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    if (ev->kind == PW_TL_COUNTER)
        pb_double(e, TRACK_EVENT_DOUBLE_COUNTER_VALUE, ev->value);
    if (ev->flow_out)
        pb_fixed64(e, TRACK_EVENT_FLOW_IDS, pw_tl_flow_uuid(ev->msg_out, ev->flow_out));
    for (size_t i = 0; i < ev->n_flows_in; i++)
        pb_fixed64(e, TRACK_EVENT_TERMINATING_FLOW_IDS, pw_tl_flow_uuid(ev->msgs_in[i], ev->flows_in[i]));
    pb_message(p, PACKET_TRACK_EVENT, e);
    emit_packet(w);
    if (w->nomem)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    if (w->out.failed)
        return pw_outbuf_error_at(&w->out, w->path, err);
    return PW_OK;
}

static void pf_free(pf_writer *w, size_t n_locs)
{
    for (size_t i = 0; w->seqs && i < n_locs; i++) {
        free(w->seqs[i].iid);
        free(w->seqs[i].args.interned);
    }
    pf_args_free(&w->args);
    free(w->seqs);
    free(w->track_pid);
    free(w->track_uuid);
    pw_tl_uuids_free(&w->uuids);
    free(w->owned);
    pb_free(&w->packet);
    pb_free(&w->msg);
    pb_free(&w->inner);
    pb_free(&w->scratch);
    pw_outbuf_free(&w->out);
}

pw_status pw_convert_perfetto(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err)
{
    FILE *f = fopen(out, "wb");
    if (!f)
        return pw_fail_errno(err, out, "cannot create");
    pf_writer w;
    memset(&w, 0, sizeof w);
    w.path = out;
    w.ds = ds;
    w.seqs = calloc(ds->n_locs ? ds->n_locs : 1, sizeof *w.seqs);
    int whole = 0;
    w.owned = pw_ds_share_owned(ds, &whole);
    w.descriptors = ds->run->share_index == 0;
    pw_status s = w.seqs && (whole || w.owned) && pw_tl_uuids_init(&w.uuids, ds) && pf_args_init(&w.args, ds) ? pw_outbuf_init(&w.out, f, err)
                                                       : pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    pw_tl_sink sink = {&w, pf_track, pf_event, NULL, NULL, 0};
    if (s == PW_OK)
        s = pw_timeline_run_decorated(ds, &sink, rep, err); /* and what analyses draw on it */
    pw_status fs = w.out.buf ? pw_outbuf_flush(&w.out, s == PW_OK ? err : NULL) : PW_OK;
    s = s == PW_OK ? fs : s;
    long size = ftell(f);
    rep->bytes_out = size > 0 ? (uint64_t)size : 0;
    if (fclose(f) != 0 && s == PW_OK)
        s = pw_fail_errno(err, out, "write failed");
    pf_free(&w, ds->n_locs);
    return s;
}
