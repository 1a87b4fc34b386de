/* perfetto_states.c — states (views/states.h) as a Perfetto protobuf
 * trace: a process per row of every view (a thread, a CPU; named by the
 * row's title), in it a track per channel (named by the channel), on it
 * a slice per value the channel held, named by the value's label
 * ("Running", "MPI_Allreduce", a task type...; a value without a label by
 * its number), and for counter channels (hardware counters) a counter
 * track whose value follows the changes.  Value 0 (no state) draws no
 * slice.
 *
 * The rules are the ones the record writer (perfetto_write.c) keeps for
 * trace_processor: track descriptors before the events that use them
 * (track_event_tokenizer.cc), every event on a sequence whose incremental
 * state was cleared by its first packet and whose timestamps are deltas of
 * its incremental clock (track_event_tokenizer.cc, clock_tracker.cc), names
 * interned on that sequence before use (interned_data.proto), slices on a
 * track ended in the order they began and none left open
 * (slice_tracker.cc), counter tracks that state their unit
 * (counter_descriptor.proto), events without SEQ_NEEDS_INCREMENTAL_STATE
 * (proto_trace_reader.cc uses it only to skip packets while a sequence's
 * state is not valid; the output's size is what writing it costs most).
 * Changes stream through; memory grows with rows x channels and with the
 * labels, never with the changes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/keymap.h"
#include "views/states.h"
#include "core/compiler.h"
#include "core/outbuf.h"
#include "sinks/convert/convert.h"
#include "sinks/convert/states_file.h"
#include "sinks/perfetto/pb.h"
#include "sinks/perfetto/perfetto_fields.h"

enum { DESCRIPTORS = 1, EVENTS = 2 }; /* the packet sequences */

/* The end of a track's END packet past its timestamp — sequence id, track
 * event header, type, track uuid — constant per track: every event on the
 * track copies it and patches the type (and the event's length when it
 * has more fields).  At most 7 bytes and the uuid's 10; copied as
 * TAIL_MAX bytes at once (the in-place room covers the excess). */
enum { TAIL_MAX = 24, TAIL_EVENT_LEN = 3, TAIL_TYPE = 5 };

/* A row's channel: its track and the value it shows. */
typedef struct channel_track {
    int64_t value;
    uint8_t tail[TAIL_MAX];
    uint8_t tail_len;
    uint8_t counter;
} channel_track;

/* The last tracks and names looked up, by a hash of their key: rows x
 * channels and the labels in use mostly fit, and a hit costs one compare
 * instead of a lookup in the maps below. */
enum { RECENT_BITS = 10, RECENT = 1 << RECENT_BITS };

typedef struct recent_track {
    int32_t view, channel;
    uint32_t row, index_plus_1; /* 0: empty */
} recent_track;

typedef struct recent_name {
    int32_t view, channel;
    int64_t value;
    uint64_t iid;               /* 0: empty; NO_LABEL: the value has none */
} recent_name;

/* A recent name's iid for a value without a label (ids: many, each asked
 * for again at every slice it begins otherwise). */
#define NO_LABEL UINT64_MAX

/* The tracks of channels with small ids, by row and channel, in a table
 * per view (rows x the view's declared channels): the common change finds
 * its track with two loads and no hashing.  Other ids go through the
 * recent lookups and the map. */
enum { DIRECT_IDS = 1024 };

typedef struct direct_view {
    int16_t *slot_of;            /* [DIRECT_IDS]: a channel id's index in the view; -1: none */
    uint32_t n_rows, n_slots;
    uint32_t *track_plus_1;      /* [row * n_slots + slot]: index into tracks + 1; 0: none yet */
} direct_view;

typedef struct pf_states {
    pw_outbuf out;
    const pw_states *st;
    pw_keymap track_of;   /* (view, row, channel) -> index into tracks */
    channel_track *tracks;
    uint32_t n_tracks, cap_tracks;
    pw_keymap iid_of;     /* (view, channel, value) of a label -> its iid */
    recent_track recent_tracks[RECENT];
    recent_name recent_names[RECENT];
    direct_view *direct;  /* per view; NULL (memory ran out): the lookups alone */
    int n_direct;
    uint64_t next_uuid;
    int64_t last_t;
    pb_buf packet, msg, inner, scratch;
    int failed; /* memory ran out */
} pf_states;

/* Frames the packet built in w->packet as one Trace.packet field. */
static void emit_packet(pf_states *w)
{
    uint8_t head[PB_FRAME_HEAD];
    w->failed |= w->packet.failed;
    pw_out_mem(&w->out, head, pb_frame_head(head, TRACE_PACKET, w->packet.n));
    pw_out_mem(&w->out, w->packet.p, w->packet.n);
    w->packet.n = 0;
}

/* The process of every row: uuid = its index over all views + 1. */
static void declare_rows(pf_states *w)
{
    const pw_states *st = w->st;
    for (int v = 0; v < st->n_views; v++)
        for (uint32_t r = 0; r < st->views[v].n_rows; r++) {
            const char *title = st->views[v].rows[r].title;
            pb_uint(&w->msg, TRACK_DESC_UUID, ++w->next_uuid);
            pb_uint(&w->inner, PROCESS_PID, (uint64_t)v * 1000000 + r + 1);
            pb_bytes(&w->inner, PROCESS_NAME, title, strlen(title));
            pb_message(&w->msg, TRACK_DESC_PROCESS, &w->inner);
            pb_uint(&w->packet, PACKET_SEQUENCE_ID, DESCRIPTORS);
            pb_message(&w->packet, PACKET_TRACK_DESCRIPTOR, &w->msg);
            emit_packet(w);
        }
}

static uint64_t row_uuid(const pw_states *st, int view, uint32_t row)
{
    uint64_t before = 0;
    for (int v = 0; v < view; v++)
        before += st->views[v].n_rows;
    return before + row + 1;
}

/* The events' sequence: its state cleared, its clock anchored at 0. */
static void start_events(pf_states *w)
{
    pb_buf *p = &w->packet, *m = &w->msg, *in = &w->inner;
    pb_uint(p, PACKET_TIMESTAMP, 0);
    pb_uint(p, PACKET_TIMESTAMP_CLOCK_ID, PF_CLOCK_BOOTTIME);
    pb_uint(p, PACKET_SEQUENCE_ID, EVENTS);
    pb_uint(p, PACKET_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
    pb_uint(m, DEFAULTS_TIMESTAMP_CLOCK_ID, PF_CLOCK_SEQUENCE_INCREMENTAL);
    pb_message(p, PACKET_DEFAULTS, m);
    pb_uint(in, PF_CLOCK_ID, PF_CLOCK_SEQUENCE_INCREMENTAL);
    pb_uint(in, PF_CLOCK_TIMESTAMP, 0);
    pb_uint(in, PF_CLOCK_IS_INCREMENTAL, 1);
    pb_message(m, PF_CLOCK_SNAPSHOT_CLOCKS, in);
    pb_uint(in, PF_CLOCK_ID, PF_CLOCK_BOOTTIME);
    pb_uint(in, PF_CLOCK_TIMESTAMP, 0);
    pb_message(m, PF_CLOCK_SNAPSHOT_CLOCKS, in);
    pb_message(p, PACKET_CLOCK_SNAPSHOT, m);
    emit_packet(w);
}

static unsigned channel_flags(const pw_states *st, int view, int32_t channel)
{
    size_t n = st->n_channels(st, view);
    for (size_t i = 0; i < n; i++) {
        pw_state_channel ch = st->channel_at(st, view, i);
        if (ch.id == channel)
            return ch.flags;
    }
    return 0;
}

/* A new track's tail (see TAIL_MAX). */
static void track_tail(channel_track *tr, uint64_t uuid)
{
    uint8_t *p = tr->tail;
    *p++ = PACKET_SEQUENCE_ID << 3;
    *p++ = EVENTS;
    *p++ = PACKET_TRACK_EVENT << 3 | PB_LEN;
    uint8_t *event_len = p++;
    *p++ = TRACK_EVENT_TYPE << 3;
    *p++ = TYPE_SLICE_END;
    *p++ = TRACK_EVENT_TRACK_UUID << 3;
    p += pb_put_varint(p, uuid);
    *event_len = (uint8_t)(p - event_len - 1);
    tr->tail_len = (uint8_t)(p - tr->tail);
}

/* track_of past the recent ones: the map, or a new track (out of line:
 * the hot path saves fewer registers). */
static PW_NOINLINE channel_track *track_lookup(pf_states *w, int view, uint32_t row, int32_t channel)
{
    pw_key key = {{(uint64_t)view, row, (uint64_t)(uint32_t)channel, 0}};
    int added = 0;
    uint64_t *index = pw_keymap_get(&w->track_of, &key, w->n_tracks, &added);
    if (!index)
        return NULL;
    if (!added)
        return &w->tracks[*index];
    if (!pw_grow_zeroed((void **)&w->tracks, &w->cap_tracks, w->n_tracks, sizeof *w->tracks)) {
        pw_keymap_remove(&w->track_of, &key);
        return NULL;
    }
    const pw_states *st = w->st;
    channel_track *tr = &w->tracks[w->n_tracks++];
    uint64_t uuid = ++w->next_uuid;
    *tr = (channel_track){.counter = (channel_flags(st, view, channel) & PW_STATE_COUNTER) != 0};
    track_tail(tr, uuid);
    const char *name = st->channel_name(st, view, channel);
    char fallback[32];
    if (!name) {
        snprintf(fallback, sizeof fallback, "type %d", channel);
        name = fallback;
    }
    pb_uint(&w->msg, TRACK_DESC_UUID, uuid);
    pb_uint(&w->msg, TRACK_DESC_PARENT_UUID, row_uuid(st, view, row));
    pb_bytes(&w->msg, TRACK_DESC_NAME, name, strlen(name));
    if (tr->counter) {
        pb_uint(&w->inner, COUNTER_UNIT, COUNTER_UNIT_COUNT);
        pb_message(&w->msg, TRACK_DESC_COUNTER, &w->inner);
    }
    pb_uint(&w->packet, PACKET_SEQUENCE_ID, DESCRIPTORS);
    pb_message(&w->packet, PACKET_TRACK_DESCRIPTOR, &w->msg);
    emit_packet(w);
    return tr;
}

/* The direct tables of every view, from the declared channels (ids at or
 * past DIRECT_IDS, or beyond an int16_t's slots, stay in the map). */
static void direct_init(pf_states *w)
{
    const pw_states *st = w->st;
    w->direct = calloc((size_t)st->n_views, sizeof *w->direct);
    if (!w->direct)
        return;
    w->n_direct = st->n_views;
    for (int v = 0; v < st->n_views; v++) {
        direct_view *d = &w->direct[v];
        d->slot_of = malloc(DIRECT_IDS * sizeof *d->slot_of);
        if (!d->slot_of) {
            w->n_direct = v; /* later views: the lookups alone */
            return;
        }
        memset(d->slot_of, 0xff, DIRECT_IDS * sizeof *d->slot_of); /* -1 */
        size_t n = st->n_channels(st, v);
        for (size_t i = 0; i < n && d->n_slots < INT16_MAX; i++) {
            int32_t id = st->channel_at(st, v, i).id;
            if (id >= 0 && id < DIRECT_IDS && d->slot_of[id] < 0)
                d->slot_of[id] = (int16_t)d->n_slots++;
        }
        d->n_rows = st->views[v].n_rows;
        d->track_plus_1 = calloc((size_t)d->n_rows * d->n_slots + 1, sizeof *d->track_plus_1);
        if (!d->track_plus_1)
            d->n_rows = 0; /* every lookup of the view falls through to the map */
    }
}

/* The track of a row's channel, declared the first time it changes. */
static channel_track *track_of(pf_states *w, int view, uint32_t row, int32_t channel)
{
    if (view >= 0 && view < w->n_direct && (uint32_t)channel < DIRECT_IDS) {
        direct_view *d = &w->direct[view];
        int slot = d->slot_of[channel];
        if (slot >= 0 && row < d->n_rows) {
            uint32_t *cell = &d->track_plus_1[(size_t)row * d->n_slots + (uint32_t)slot];
            if (*cell)
                return &w->tracks[*cell - 1];
            channel_track *tr = track_lookup(w, view, row, channel);
            if (tr)
                *cell = (uint32_t)(tr - w->tracks) + 1;
            return tr;
        }
    }
    recent_track *r = &w->recent_tracks[pw_state_slot(view, row, (uint32_t)channel, RECENT_BITS)];
    if (r->index_plus_1 && r->row == row && r->channel == channel && r->view == view)
        return &w->tracks[r->index_plus_1 - 1];
    channel_track *tr = track_lookup(w, view, row, channel);
    if (tr)
        *r = (recent_track){view, channel, row, (uint32_t)(tr - w->tracks) + 1};
    return tr;
}

/* The common event — a slice's end, a begin named by an interned label
 * or by a number's text, a counter value — encoded in place in the
 * output buffer: packet and event are shorter than 128 bytes, so both
 * lengths are one byte (no nested buffers, no copies).  packet_open
 * writes at start a packet at `delta` past the previous one, up to its
 * event's track (the track's tail), and returns where the event's other
 * fields go; event_close fills in the lengths once they are known. */
/* An event of that type on tr at p, up to its track (the track's tail,
 * its type patched in); *event_len is where the event's length goes.
 * Writes TAIL_MAX bytes at p whatever the tail's length. */
static PW_HOT_INLINE uint8_t *event_head(uint8_t *p, const channel_track *tr, int type, uint8_t **event_len)
{
    memcpy(p, tr->tail, TAIL_MAX);
    p[TAIL_TYPE] = (uint8_t)type;
    *event_len = p + TAIL_EVENT_LEN;
    return p + tr->tail_len;
}

static PW_HOT_INLINE uint8_t *packet_open(uint8_t *start, uint64_t delta, const channel_track *tr, int type,
                                          uint8_t **event_len)
{
    uint8_t *p = start + 2;
    start[0] = TRACE_PACKET << 3 | PB_LEN;
    *p++ = PACKET_TIMESTAMP << 3;
    p += pb_put_varint(p, delta);
    return event_head(p, tr, type, event_len);
}

/* A begin's name as an interned label's iid at p; returns its end. */
static PW_HOT_INLINE uint8_t *put_name_iid(uint8_t *p, uint64_t iid)
{
    *p++ = TRACK_EVENT_NAME_IID << 3;
    return p + pb_put_varint(p, iid);
}

static PW_HOT_INLINE void event_close(uint8_t *start, uint8_t *p, uint8_t *event_len)
{
    *event_len = (uint8_t)(p - event_len - 1);
    start[1] = (uint8_t)(p - start - 2);
}

/* Where the next event goes in the output buffer, PB_INPLACE_EVENT_MAX
 * bytes of room (which hold an end and a begin together: at most 30 and
 * 32 bytes), or NULL when it has none (a memory buffer that could not
 * grow, marked failed: the event is left out). */
static PW_HOT_INLINE uint8_t *event_room(pf_states *w)
{
    pw_outbuf_reserve(&w->out, PB_INPLACE_EVENT_MAX);
    if (w->out.cap - w->out.len < PB_INPLACE_EVENT_MAX)
        return NULL;
    return (uint8_t *)w->out.buf + w->out.len;
}

/* The time of an event at t as a delta from the previous one. */
static PW_HOT_INLINE uint64_t event_delta(pf_states *w, int64_t t)
{
    uint64_t delta = (uint64_t)(t - w->last_t);
    w->last_t = t;
    return delta;
}

/* A slice ends on a track. */
static void slice_end(pf_states *w, int64_t t, const channel_track *tr)
{
    uint8_t *te, *start = event_room(w);
    if (!start)
        return;
    uint8_t *p = packet_open(start, event_delta(w, t), tr, TYPE_SLICE_END, &te);
    start[1] = (uint8_t)(p - start - 2);
    w->out.len += (size_t)(p - start);
}

/* The begin of a slice named by an interned label at p, 0 after the
 * previous event; returns its end. */
static PW_HOT_INLINE uint8_t *put_begin_iid(uint8_t *start, const channel_track *tr, uint64_t delta, uint64_t iid)
{
    uint8_t *te, *p = put_name_iid(packet_open(start, delta, tr, TYPE_SLICE_BEGIN, &te), iid);
    event_close(start, p, te);
    return p;
}

/* A slice begins, named by an interned label. */
static void slice_begin_iid(pf_states *w, int64_t t, const channel_track *tr, uint64_t iid)
{
    uint8_t *start = event_room(w);
    if (!start)
        return;
    uint8_t *p = put_begin_iid(start, tr, event_delta(w, t), iid);
    w->out.len += (size_t)(p - start);
}

/* The common change: a slice ends and the next, named by an interned
 * label, begins on the same track at the same time — both packets with
 * one room check, the second 0 after the first. */
static void end_then_begin(pf_states *w, int64_t t, const channel_track *tr, uint64_t iid)
{
    uint8_t *te, *start = event_room(w);
    if (!start)
        return;
    uint8_t *p = packet_open(start, event_delta(w, t), tr, TYPE_SLICE_END, &te);
    start[1] = (uint8_t)(p - start - 2);
    p = put_begin_iid(p, tr, 0, iid);
    w->out.len += (size_t)(p - start);
}

/* A slice begins, named by a value's number as text (at most 20 bytes). */
static PW_NOINLINE void slice_begin_number(pf_states *w, int64_t t, const channel_track *tr, int64_t value)
{
    uint8_t *te, *start = event_room(w);
    if (!start)
        return;
    uint8_t *p = packet_open(start, event_delta(w, t), tr, TYPE_SLICE_BEGIN, &te);
    p += pb_put_varint(p, (uint64_t)TRACK_EVENT_NAME << 3 | PB_LEN);
    uint8_t *len = p++;
    *len = (uint8_t)pw_put_i64((char *)p, value);
    p += *len;
    event_close(start, p, te);
    w->out.len += (size_t)(p - start);
}

/* A counter track's new value. */
static PW_NOINLINE void counter_value(pf_states *w, int64_t t, const channel_track *tr, double value)
{
    uint8_t *te, *start = event_room(w);
    if (!start)
        return;
    uint8_t *p = packet_open(start, event_delta(w, t), tr, TYPE_COUNTER, &te);
    p += pb_put_varint(p, (uint64_t)TRACK_EVENT_DOUBLE_COUNTER_VALUE << 3 | PB_FIXED64);
    uint64_t bits;
    memcpy(&bits, &value, 8);
    for (int i = 0; i < 8; i++)
        *p++ = (uint8_t)(bits >> (8 * i));
    event_close(start, p, te);
    w->out.len += (size_t)(p - start);
}

/* A slice begins named by a label interned in its own packet (the
 * label's first use): interned data, then the event. */
static void begin_interned(pf_states *w, int64_t t, const channel_track *tr, uint64_t iid, const char *label)
{
    pb_uint(&w->inner, EVENT_NAME_IID, iid);
    pb_bytes(&w->inner, EVENT_NAME_NAME, label, strlen(label));
    pb_message(&w->scratch, INTERNED_EVENT_NAMES, &w->inner);
    pb_message(&w->packet, PACKET_INTERNED_DATA, &w->scratch);
    pb_uint(&w->packet, PACKET_TIMESTAMP, event_delta(w, t));
    if (pb_room(&w->packet, TAIL_MAX + 1 + 10)) { /* else marked failed */
        uint8_t *te, *event = w->packet.p + w->packet.n;
        uint8_t *p = put_name_iid(event_head(event, tr, TYPE_SLICE_BEGIN, &te), iid);
        *te = (uint8_t)(p - te - 1);
        w->packet.n += (size_t)(p - event);
    }
    emit_packet(w);
}

/* The iid of a value's label as the recent names know it: 0 when they do
 * not, NO_LABEL for a value without one. */
static PW_HOT_INLINE uint64_t recent_iid(pf_states *w, int view, int32_t channel, int64_t value)
{
    const recent_name *r = &w->recent_names[pw_state_slot(view, (uint32_t)channel, (uint64_t)value, RECENT_BITS)];
    if (r->value == value && r->channel == channel && r->view == view)
        return r->iid;
    return 0;
}

/* A slice begins, named by the value's label, the recent names not
 * knowing it: its iid, interned the first time (labels are few); a value
 * without a label (an id: many) by its number, never interned.  Out of
 * line: the hot path saves fewer registers. */
static PW_NOINLINE void begin_slice_lookup(pf_states *w, int64_t t, const channel_track *tr, int view,
                                           int32_t channel, int64_t value)
{
    recent_name *r = &w->recent_names[pw_state_slot(view, (uint32_t)channel, (uint64_t)value, RECENT_BITS)];
    const char *label = w->st->value_label(w->st, view, channel, value);
    if (!label) {
        *r = (recent_name){view, channel, value, NO_LABEL};
        slice_begin_number(w, t, tr, value);
        return;
    }
    pw_key key = {{(uint64_t)view, (uint64_t)(uint32_t)channel, (uint64_t)value, 0}};
    int added = 0;
    uint64_t *found = pw_keymap_get(&w->iid_of, &key, w->iid_of.n + 1, &added);
    if (!found) {
        w->failed = 1;
        return;
    }
    uint64_t iid = *found;
    *r = (recent_name){view, channel, value, iid};
    if (added)
        begin_interned(w, t, tr, iid, label);
    else
        slice_begin_iid(w, t, tr, iid);
}

/* A slice begins on tr, its name's iid known (or NO_LABEL) or 0. */
static void begin_slice(pf_states *w, int64_t t, const channel_track *tr, int view, int32_t channel,
                        int64_t value, uint64_t iid)
{
    if (iid == NO_LABEL)
        slice_begin_number(w, t, tr, value);
    else if (iid)
        slice_begin_iid(w, t, tr, iid);
    else
        begin_slice_lookup(w, t, tr, view, channel, value);
}

static void on_change(void *ctx, int64_t time, int view, uint32_t row, int32_t channel, int64_t value)
{
    pf_states *w = ctx;
    channel_track *tr = track_of(w, view, row, channel);
    if (!tr) {
        w->failed = 1;
        return;
    }
    if (time < w->last_t) /* states never go back (states.h); kept in order if they did */
        time = w->last_t;
    if (tr->counter) {
        counter_value(w, time, tr, (double)value);
        return;
    }
    int64_t was = tr->value;
    tr->value = value;
    uint64_t iid = value ? recent_iid(w, view, channel, value) : 0;
    if (was && iid && iid != NO_LABEL) {
        end_then_begin(w, time, tr, iid);
        return;
    }
    if (was)
        slice_end(w, time, tr);
    if (value)
        begin_slice(w, time, tr, view, channel, value, iid);
}

/* Ends the slices still open when the states end (memory permitting:
 * w->failed says when it did not). */
static void close_slices(pf_states *w, int64_t end)
{
    if (end < w->last_t)
        end = w->last_t;
    for (uint32_t i = 0; i < w->n_tracks; i++) {
        channel_track *tr = &w->tracks[i];
        if (!tr->counter && tr->value)
            slice_end(w, end, tr);
    }
}

static void pf_states_free(pf_states *w)
{
    for (int v = 0; v < w->n_direct; v++) {
        free(w->direct[v].slot_of);
        free(w->direct[v].track_plus_1);
    }
    free(w->direct);
    pw_keymap_free(&w->track_of);
    pw_keymap_free(&w->iid_of);
    free(w->tracks);
    pb_free(&w->packet);
    pb_free(&w->msg);
    pb_free(&w->inner);
    pb_free(&w->scratch);
    pw_outbuf_free(&w->out);
}

static void begin(void *ctx, const pw_states *st)
{
    pf_states *w = ctx;
    w->st = st;
    direct_init(w);
    declare_rows(w);
    start_events(w);
}

static int end(void *ctx, const pw_states *st)
{
    pf_states *w = ctx;
    close_slices(w, st->end);
    return w->failed ? -1 : 0;
}

pw_status pw_convert_perfetto_states(pw_dataset *ds, const pw_states_source *src, const char *path,
                                     pw_convert_report *rep, pw_error *err)
{
    pf_states *w = calloc(1, sizeof *w); /* its recent lookups: 40 kB, not for the stack */
    if (!w)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    pw_states_file how = {&w->out, on_change, w, begin, end, w, 1};
    pw_status s = pw_states_write_file(ds, src, path, &how, rep, err);
    pf_states_free(w);
    free(w);
    return s;
}
