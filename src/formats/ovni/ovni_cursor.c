/* ovni_cursor.c — the cursor over one ovni stream file.
 *
 * A stream is an 8-byte header ("ovni" + u32 version 1 in the writer's byte
 * order) followed by events: 12-byte header (flags|size-code byte, MCV,
 * u64 clock) + 0..16 payload bytes, or for jumbo events a 4-byte length N
 * and N bytes of data (ovni-facts.md §2). */
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/compiler.h"
#include "core/window.h"
#include "formats/ovni/ovni.h"
#include "formats/ovni/ovni_stream.h"

/* Per stream, findings of one kind beyond this are counted, not listed. */
#define OVNI_DIAGS_PER_KIND 10

static void ovni_stream_close(pw_cursor *c)
{
    ovni_stream *s = c->impl;
    if (!s)
        return;
    pw_window_close(&s->w);
    free(s);
}

/* Checks the 8-byte stream header and learns the byte order. */
static pw_status read_header(pw_cursor *c, ovni_stream *s, pw_error *err)
{
    const char *file = s->w.path;
    const uint8_t *p;
    pw_status st = pw_window_need(&s->w, 0, OVNI_HEADER_SIZE, &p, err);
    if (st == PW_END) {
        c->err_code = s->w.file_size ? "ovni.truncated-header" : "ovni.empty-file";
        return pw_fail(err, PW_E_DATA, file, 0,
                       "stream header of 8 bytes (\"ovni\" + version) expected, the file has %llu",
                       (unsigned long long)s->w.file_size);
    }
    if (st != PW_OK)
        return st;
    if (memcmp(p, "ovni", 4)) {
        c->err_code = "ovni.bad-magic";
        return pw_fail(err, PW_E_DATA, file, 0, "magic \"ovni\" expected, found %02x %02x %02x %02x",
                       p[0], p[1], p[2], p[3]);
    }
    uint32_t v = pw_le32(p + 4);
    if (v == 1)
        s->big = 0;
    else if (pw_be32(p + 4) == 1)
        s->big = 1; /* written on a machine of the other byte order */
    else {
        c->err_code = "ovni.bad-version";
        return pw_fail(err, PW_E_DATA, file, 4, "stream version 1 expected, found %u", v);
    }
    if (s->w.file_size == OVNI_HEADER_SIZE)
        pw_ds_diag(c->ds, PW_SEV_WARNING, "ovni.empty-stream", file, PW_NO_OFFSET,
                   "the stream has zero events");
    ovni_dataset *od = c->ds->impl;
    od->big_of_loc[c->location] = (uint8_t)s->big; /* for decoding elsewhere (reread) */
    s->off = OVNI_HEADER_SIZE;
    s->header_done = 1;
    return PW_OK;
}

/* Reserved flag bits: the size code may still be right, so reading goes
 * on, but the event is reported. */
static void note_reserved_flags(pw_cursor *c, ovni_stream *s, uint8_t b0)
{
    if (s->reserved_flags++ < OVNI_DIAGS_PER_KIND)
        pw_ds_diag(c->ds, PW_SEV_ERROR, "ovni.reserved-flags", s->w.path, (int64_t)s->off,
                   "event flags 0x%x use reserved bits (only 0x1, jumbo, is defined)", b0 >> 4);
}

/* Clocks must not go back in a stream, except inside OU[ ... OU]
 * (the caller keeps last_clock). */
static PW_RARE void check_clock(pw_cursor *c, ovni_stream *s, uint64_t clock, uint32_t mcv)
{
    if (mcv == ('O' << 16 | 'U' << 8 | '['))
        s->unordered++;
    else if (mcv == ('O' << 16 | 'U' << 8 | ']') && s->unordered)
        s->unordered--;
    if (s->events && clock < s->last_clock && !s->unordered) {
        if (s->backwards++ < OVNI_DIAGS_PER_KIND)
            pw_ds_diag(c->ds, PW_SEV_ERROR, "ovni.clock-backwards", s->w.path, (int64_t)s->off,
                       "clock %llu is earlier than the previous event's %llu",
                       (unsigned long long)clock, (unsigned long long)s->last_clock);
    }
}

/* Summaries of findings that were only counted, when the stream ends. */
static void note_end(pw_cursor *c, ovni_stream *s)
{
    if (s->backwards > OVNI_DIAGS_PER_KIND)
        pw_ds_diag(c->ds, PW_SEV_ERROR, "ovni.clock-backwards", s->w.path, PW_NO_OFFSET,
                   "%llu events in all have a clock earlier than the previous event's",
                   (unsigned long long)s->backwards);
    if (s->reserved_flags > OVNI_DIAGS_PER_KIND)
        pw_ds_diag(c->ds, PW_SEV_ERROR, "ovni.reserved-flags", s->w.path, PW_NO_OFFSET,
                   "%llu events in all use reserved flag bits", (unsigned long long)s->reserved_flags);
}

static pw_status truncated(pw_cursor *c, ovni_stream *s, size_t need, pw_error *err)
{
    c->err_code = "ovni.truncated-event";
    return pw_fail(err, PW_E_DATA, s->w.path, (int64_t)s->off,
                   "stream ends with an incomplete event: %zu bytes expected, %llu left", need,
                   (unsigned long long)pw_window_left(&s->w, s->off));
}

/* The event at p, of `size` bytes and its clock judged already, becomes
 * the record: a few loads and stores for an event of a known MCV. */
static inline pw_status take_record(pw_cursor *c, ovni_stream *s, const uint8_t *p, size_t size,
                                    uint64_t clock)
{
    s->ev = p;
    s->last_clock = clock;
    int32_t schema = ovni_schema_of(s->od, p + 1);
    c->rec.schema = (uint32_t)schema;
    /* A known MCV's schema (any but the catch-all) is named by it: hand
     * out that name, which lives as long as the dataset (writers then need
     * not copy nor measure it). */
    if (schema != s->od->unknown_schema) {
        c->rec.type = s->od->names[schema];
    } else {
        memcpy(s->mcv, p + 1, 3);
        s->mcv_key = ovni_mcv_key(p + 1);
        c->rec.type = s->mcv;
    }
    c->rec.kind = (pw_record_kind)s->od->kinds[schema];
    c->rec.t = (int64_t)clock;
    c->rec.offset = s->off;
    c->rec.size = size;
    s->off += size;
    s->events++;
    return PW_OK;
}

/* Any event at p becomes the record; OU[, OU] and a clock going back go
 * through check_clock first. */
static pw_status take_event(pw_cursor *c, ovni_stream *s, const uint8_t *p, size_t size)
{
    uint64_t clock;
    if (!ovni_in_order(p, s->big, s->last_clock, &clock))
        check_clock(c, s, clock, ovni_mcv_key(p + 1));
    return take_record(c, s, p, size, clock);
}

/* Any event: the stream header first, jumbo events, reserved flags, an
 * event cut by the window's end or the file's. */
static PW_RARE pw_status next_any(pw_cursor *c, ovni_stream *s, pw_error *err)
{
    if (!s->header_done) {
        pw_status st = read_header(c, s, err);
        if (st != PW_OK)
            return st;
    }
    const uint8_t *p;
    pw_status st = pw_window_need(&s->w, s->off, OVNI_EVENT_HEADER, &p, err);
    if (st == PW_END) {
        if (pw_window_left(&s->w, s->off) == 0) {
            note_end(c, s);
            return PW_END;
        }
        return truncated(c, s, OVNI_EVENT_HEADER, err);
    }
    if (st != PW_OK)
        return st;
    uint8_t b0 = p[0];
    if (b0 >> 4 & ~OVNI_FLAG_JUMBO)
        note_reserved_flags(c, s, b0);
    size_t code = b0 & 0x0f, size;
    s->jumbo = (b0 >> 4) & OVNI_FLAG_JUMBO;
    if (s->jumbo) {
        if (code != 3) {
            c->err_code = "ovni.bad-jumbo";
            return pw_fail(err, PW_E_DATA, s->w.path, (int64_t)s->off,
                           "jumbo event with payload-size code %zu: 3 (a 4-byte length) expected", code);
        }
        st = pw_window_need(&s->w, s->off, OVNI_EVENT_HEADER + 4, &p, err);
        if (st == PW_END)
            return truncated(c, s, OVNI_EVENT_HEADER + 4, err);
        if (st != PW_OK)
            return st;
        uint32_t n = pw_load32(p + OVNI_EVENT_HEADER, s->big);
        if ((uint64_t)n + OVNI_EVENT_HEADER + 4 >= OVNI_MAX_EVENT) {
            c->err_code = "ovni.bad-jumbo";
            return pw_fail(err, PW_E_DATA, s->w.path, (int64_t)s->off + OVNI_EVENT_HEADER,
                           "jumbo length %u: libovni writes events under 2 MiB", n);
        }
        size = OVNI_EVENT_HEADER + 4 + (size_t)n;
    } else {
        size = OVNI_EVENT_HEADER + (code ? code + 1 : 0);
    }
    st = pw_window_need(&s->w, s->off, size, &p, err);
    if (st == PW_END)
        return truncated(c, s, size, err);
    if (st != PW_OK)
        return st;
    return take_event(c, s, p, size);
}

/* The common event (flags 0, its largest possible size buffered, in
 * clock order, not OU[ or OU]) goes straight to take_record: one bounds
 * test for all its bytes, and no call, so nothing to save on the way;
 * every other event goes through next_any. */
static pw_status ovni_stream_next(pw_cursor *c, pw_error *err)
{
    ovni_stream *s = c->impl;
    size_t size;
    uint64_t clock;
    const uint8_t *p = ovni_stream_plain(s, &size);
    if (p && ovni_in_order(p, s->big, s->last_clock, &clock)) {
        s->jumbo = 0;
        return take_record(c, s, p, size, clock);
    }
    return next_any(c, s, err);
}

static void ovni_stream_decode(pw_cursor *c, pw_value *values)
{
    ovni_stream *s = c->impl;
    ovni_decode_fields(s->od->defs[c->rec.schema], s->ev + OVNI_EVENT_HEADER,
                       c->rec.size - OVNI_EVENT_HEADER, s->big, &c->scratch, values);
}

/* A snapshot is the event as stored (the stream's byte order is kept per
 * location). */
static size_t ovni_stream_snapshot(const pw_cursor *c, void *dst, size_t cap)
{
    const ovni_stream *s = c->impl;
    if (c->rec.size <= cap)
        memcpy(dst, s->ev, c->rec.size);
    return c->rec.size;
}

static void ovni_stream_decode_snapshot(const pw_dataset *ds, const pw_record *rec, const void *snap,
                                        size_t n, pw_arena *scratch, pw_value *values)
{
    const ovni_dataset *od = ds->impl;
    ovni_decode_fields(od->defs[rec->schema], (const uint8_t *)snap + OVNI_EVENT_HEADER,
                       n - OVNI_EVENT_HEADER, od->big_of_loc[rec->location], scratch, values);
}

/* The record next() made of an event, from the event's bytes. */
static int ovni_stream_reread(const pw_dataset *ds, const uint8_t *p, size_t n, pw_record *rec,
                              pw_arena *scratch)
{
    const ovni_dataset *od = ds->impl;
    if (n < OVNI_EVENT_HEADER)
        return 0;
    int32_t schema = ovni_schema_of(od, p + 1);
    rec->schema = (uint32_t)schema;
    rec->kind = (pw_record_kind)od->kinds[schema];
    rec->clock = PW_CLOCK_NS;
    rec->t = (int64_t)pw_load64(p + 4, od->big_of_loc[rec->location]);
    if (schema != od->unknown_schema) {
        rec->type = od->names[schema];
    } else {
        char *mcv = pw_arena_alloc(scratch, 4);
        if (!mcv)
            return 0;
        memcpy(mcv, p + 1, 3);
        mcv[3] = '\0';
        rec->type = mcv;
    }
    return 1;
}

static const pw_cursor_ops ovni_stream_ops = {
    .next = ovni_stream_next,
    .decode = ovni_stream_decode,
    .close = ovni_stream_close,
    .snapshot = ovni_stream_snapshot,
    .decode_snapshot = ovni_stream_decode_snapshot,
    .reread = ovni_stream_reread,
};

pw_status ovni_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err)
{
    ovni_stream *s = calloc(1, sizeof *s);
    if (!s)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    const char *file = ds->locs[c->location].file;
    const ovni_dataset *od = ds->impl;
    pw_status st = pw_window_open_seen(&s->w, file, c->window_cap, OVNI_MAX_EVENT,
                                       od->seen_of_loc ? &od->seen_of_loc[c->location] : NULL, err);
    if (st != PW_OK) {
        free(s);
        return st;
    }
    s->w.progress = &ds->progress_done;
    s->od = ds->impl;
    c->impl = s;
    c->ops = &ovni_stream_ops;
    c->rec.clock = PW_CLOCK_NS;
    c->rec.type = s->mcv;
    return PW_OK;
}
