/* dumpi_cursor.c — the cursor over one rank's stream: record prefix, time
 * reconstruction (bias + 16-bit seconds, wraps undone), and decoding every
 * argument into named values. */
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/error.h"
#include "formats/dumpi/dumpi.h"
#include "model/value.h"

pw_status dumpi_stream_init(dumpi_stream *s, dumpi_rank *r, size_t window_cap, _Atomic uint64_t *progress,
                            pw_error *err)
{
    memset(s, 0, sizeof *s);
    s->rank = r;
    pw_status st = pw_window_open_seen(&s->w, r->file, window_cap, DUMPI_MAX_RECORD, &r->seen, err);
    if (st == PW_OK)
        s->w.progress = progress;
    return st;
}

void dumpi_stream_fini(dumpi_stream *s)
{
    pw_window_close(&s->w);
    dumpi_int_plans_free(s->plans);
}

/* Seconds are stored in 16 bits: a drop of more than half the range is a
 * wrap (records are in time order); a rise of more than half is a late
 * value from before the last wrap. */
static uint64_t unwrap_slow(dumpi_stream *s, int which, uint16_t raw)
{
    uint64_t wraps = s->wraps[which];
    uint16_t last = s->last_sec[which];
    if (s->seen_sec[which]) {
        if (raw < last && last - raw > 0x8000) {
            wraps = ++s->wraps[which];
        } else if (raw > last && raw - last > 0x8000 && wraps) {
            return (wraps - 1) * 0x10000 + raw;
        }
    }
    s->seen_sec[which] = 1;
    s->last_sec[which] = raw;
    return wraps * 0x10000 + raw;
}

/* One clock's entry and exit (6 bytes each: u16 seconds, u32 ns).  Most
 * calls start and end in the second of the call before: then both are
 * that second, as unwrap_slow would find. */
static inline void read_clock(dumpi_stream *s, int which, const uint8_t *p, uint32_t bias)
{
    uint16_t entry = pw_be16(p), leave = pw_be16(p + 6);
    s->nsec[which][0] = pw_be32(p + 2);
    s->nsec[which][1] = pw_be32(p + 8);
    if (entry == s->last_sec[which] && leave == entry && s->seen_sec[which]) {
        s->sec[which][0] = s->sec[which][1] = s->last_full[which];
        return;
    }
    s->sec[which][0] = bias + unwrap_slow(s, which, entry);
    s->sec[which][1] = bias + unwrap_slow(s, which, leave);
    s->last_full[which] = bias + s->wraps[which] * 0x10000 + s->last_sec[which];
}

/* The CPU block comes first when both clocks are there. */
static inline void read_times(dumpi_stream *s)
{
    const uint8_t *p = s->p + s->rec.times_off;
    uint8_t mask = s->rec.mask;
    if (mask & DUMPI_MASK_CPU) {
        read_clock(s, 0, p, s->rank->cpu_bias);
        p += 12;
    }
    if (mask & DUMPI_MASK_WALL)
        read_clock(s, 1, p, s->rank->wall_bias);
}

/* The stream starts with the CPU and wall biases (whole seconds, read at
 * open into the rank); records follow them. */
static pw_status skip_biases(dumpi_stream *s, const char **code, pw_error *err)
{
    const uint8_t *p;
    dumpi_rank *r = s->rank;
    pw_status st = r->stream_end >= r->off_stream + 8 ? pw_window_need(&s->w, r->off_stream, 8, &p, err)
                                                       : PW_END;
    if (st == PW_END) {
        *code = "dumpi.truncated-stream";
        return pw_fail(err, PW_E_DATA, r->file, (int64_t)r->off_stream,
                       "stream start (two u32 time biases) expected before offset %llu",
                       (unsigned long long)r->stream_end);
    }
    if (st != PW_OK)
        return st;
    s->off = r->off_stream + 8;
    s->started = 1;
    return PW_OK;
}

/* dumpi_stream_next past the common case: the stream's start, a record
 * the window must be refilled for, the end, damage. */
static pw_status stream_next_slow(dumpi_stream *s, const char **code, pw_error *err)
{
    dumpi_rank *r = s->rank;
    if (!r->usable) {
        *code = "dumpi.unreadable-rank";
        return pw_fail(err, PW_E_DATA, r->file, PW_NO_OFFSET, "the rank file has no readable stream");
    }
    if (!s->started) {
        pw_status st = skip_biases(s, code, err);
        if (st != PW_OK)
            return st;
    }
    if (s->off == r->stream_end) {
        *code = "dumpi.missing-end";
        return pw_fail(err, PW_E_DATA, r->file, (int64_t)s->off,
                       r->end_known ? "end-of-stream label 293 expected before the header at %llu"
                                    : "end-of-stream label 293 expected; the file ends at %llu",
                       (unsigned long long)r->stream_end);
    }
    pw_status st = dumpi_walk(&s->w, s->off, r->stream_end, &s->rec, &s->p, code, err);
    if (st == PW_END) {
        if (r->end_known && s->off + 2 != r->stream_end) {
            *code = "dumpi.early-end";
            return pw_fail(err, PW_E_DATA, r->file, (int64_t)s->off,
                           "end-of-stream label 293 found %llu bytes before the header at %llu",
                           (unsigned long long)(r->stream_end - s->off - 2),
                           (unsigned long long)r->stream_end);
        }
        return PW_END;
    }
    if (st != PW_OK)
        return st;
    read_times(s);
    s->off += s->rec.size;
    return PW_OK;
}

static inline pw_status stream_next(dumpi_stream *s, const char **code, pw_error *err)
{
    if (s->started && dumpi_walk_buffered(&s->w, s->off, s->rank->stream_end, &s->rec, &s->p)) {
        read_times(s);
        s->off += s->rec.size;
        return PW_OK;
    }
    return stream_next_slow(s, code, err);
}

pw_status dumpi_stream_next(dumpi_stream *s, const char **code, pw_error *err)
{
    return stream_next(s, code, err);
}

/* ---- the pw_cursor face ------------------------------------------------ */

static int32_t thread_location(const dumpi_rank *r, uint16_t thread)
{
    if (thread == 0)
        return r->loc;
    size_t lo = 0, hi = r->n_threads;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (r->threads[mid] < thread)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->n_threads && r->threads[lo] == thread ? r->thread_locs[lo] : r->loc;
}

/* Entry (edge 0) or exit (edge 1) time of clock `which` (0 cpu, 1 wall). */
static int64_t time_ns(const dumpi_stream *s, int which, int edge)
{
    return (int64_t)(s->sec[which][edge] * 1000000000u + s->nsec[which][edge]);
}

static inline void stream_record(const dumpi_stream *s, pw_record *out)
{
    const dumpi_rec *rec = &s->rec;
    out->schema = rec->label;
    out->type = dumpi_functions[rec->label].name;
    out->kind = PW_REC_SPAN;
    out->location = (uint32_t)thread_location(s->rank, rec->thread);
    out->offset = s->off - rec->size;
    out->size = rec->size;
    /* The call lasts from entry to exit, by the wall clock when there is
     * one, else by the CPU clock. */
    int which = rec->mask & DUMPI_MASK_WALL ? 1 : 0;
    if (rec->mask & (DUMPI_MASK_WALL | DUMPI_MASK_CPU)) {
        out->clock = PW_CLOCK_NS;
        out->t = time_ns(s, which, 0);
        out->t_end = time_ns(s, which, 1);
        out->has_end = 1;
    } else {
        out->clock = PW_CLOCK_NONE;
        out->t = 0;
        out->has_end = 0;
    }
}

void dumpi_stream_record(const dumpi_stream *s, pw_record *out) { stream_record(s, out); }

static pw_status dumpi_cursor_next(pw_cursor *c, pw_error *err)
{
    dumpi_stream *s = c->impl;
    pw_status st = stream_next(s, &c->err_code, err);
    if (st == PW_OK)
        stream_record(s, &c->rec);
    return st;
}

/* ---- decoding ---------------------------------------------------------- */

/* What decoding a call reads: the parsed record, its bytes and its times
 * (from the cursor's stream, or from a snapshot of them). */
typedef struct dumpi_call {
    const dumpi_rec *rec;
    const uint8_t *p;
    const uint64_t (*sec)[2];
    const uint32_t (*nsec)[2];
    const dumpi_rank *rank;
} dumpi_call;

static pw_value *alloc_values(pw_arena *a, size_t n)
{
    return pw_arena_alloc(a, (n ? n : 1) * sizeof(pw_value));
}

/* Seconds as dumpi2ascii prints them ("S.NNNNNNNNN"): exactly, as a
 * decimal of nanoseconds; a whole-second count too large for that (no
 * real trace) becomes the nearest double of the text. */
static void set_seconds(pw_value *x, uint64_t sec, uint32_t ns)
{
    if (sec <= (uint64_t)(INT64_MAX - 999999999) / 1000000000u) {
        pw_set_decimal(x, (int64_t)(sec * 1000000000u + ns), 9);
    } else {
        char buf[40];
        snprintf(buf, sizeof buf, "%llu.%09u", (unsigned long long)sec, ns);
        pw_set_f64(x, strtod(buf, NULL));
    }
}

static void set_times(pw_value *x, const dumpi_call *s, int which, pw_arena *a)
{
    pw_value *it = alloc_values(a, 2);
    if (!it)
        return;
    set_seconds(&it[0], s->sec[which][0], s->nsec[which][0]);
    set_seconds(&it[1], s->sec[which][1], s->nsec[which][1]);
    pw_set_items(x, it, 2, NULL);
}

static void set_perf(pw_value *x, const dumpi_call *s, pw_arena *a)
{
    const uint8_t *p = s->p + s->rec->perf_off + 1;
    size_t n = s->rec->n_perf;
    pw_value *items = alloc_values(a, n);
    pw_value *pairs = alloc_values(a, 2 * n);
    if (!items || !pairs)
        return;
    for (size_t i = 0; i < n; i++) {
        pw_set_i64(&pairs[2 * i], (int64_t)pw_be64(p + 16 * i));
        pw_set_i64(&pairs[2 * i + 1], (int64_t)pw_be64(p + 16 * i + 8));
        pw_set_items(&items[i], &pairs[2 * i], 2, NULL);
    }
    /* Named by the rank's labels when it has one per counter. */
    pw_set_items(x, items, n, n <= s->rank->n_perf ? s->rank->perf_fields : dumpi_unlabelled_counters());
}

/* u32 n + n elements of `width` bytes (4 signed, 2 or 1 unsigned). */
static void set_array(pw_value *x, const uint8_t **pp, int width, pw_arena *a)
{
    const uint8_t *p = *pp;
    uint32_t n = pw_be32(p);
    p += 4;
    pw_value *items = alloc_values(a, n);
    if (!items)
        return;
    for (uint32_t i = 0; i < n; i++, p += width)
        pw_set_i64(&items[i], width == 4 ? (int32_t)pw_be32(p) : width == 2 ? pw_be16(p) : p[0]);
    *pp = p;
    pw_set_items(x, items, n, NULL);
}

static void set_string(pw_value *x, const uint8_t **pp)
{
    uint32_t n = pw_be32(*pp);
    pw_set_str(x, (const char *)*pp + 4, n);
    *pp += 4 + (size_t)n;
}

static void set_strings(pw_value *x, const uint8_t **pp, pw_arena *a)
{
    uint32_t n = pw_be32(*pp);
    *pp += 4;
    pw_value *items = alloc_values(a, n);
    if (!items)
        return;
    for (uint32_t i = 0; i < n; i++)
        set_string(&items[i], pp);
    pw_set_items(x, items, n, NULL);
}

/* Statuses: 14-byte records (bytes, source, cancelled, error, tag). */
static void set_statuses(pw_value *x, const uint8_t *p, pw_arena *a)
{
    uint32_t n = pw_be32(p);
    p += 4;
    pw_value *items = alloc_values(a, 6 * (size_t)n); /* then 5 fields each */
    if (!items)
        return;
    pw_value *f = items + n;
    for (uint32_t i = 0; i < n; i++, p += 14, f += 5) {
        pw_set_i64(&f[0], (int32_t)pw_be32(p));
        pw_set_i64(&f[1], (int32_t)pw_be32(p + 4));
        pw_set_i64(&f[2], (int8_t)p[8]);
        pw_set_i64(&f[3], (int8_t)p[9]);
        pw_set_i64(&f[4], (int32_t)pw_be32(p + 10));
        pw_set_items(&items[i], f, 5, dumpi_status_fields);
    }
    pw_set_items(x, items, n, NULL);
}

static void set_nested(pw_value *x, const uint8_t *p, int enc, pw_arena *a)
{
    uint32_t rows = pw_be32(p);
    p += 4;
    pw_value *items = alloc_values(a, rows);
    if (!items)
        return;
    for (uint32_t i = 0; i < rows; i++) {
        if (enc == DUMPI_ENC_I32_2D)
            set_array(&items[i], &p, 4, a);
        else
            set_strings(&items[i], &p, a);
    }
    pw_set_items(x, items, rows, NULL);
}

/* An argument that is no scalar: arrays, strings, statuses. */
static void set_list_arg(pw_value *x, const uint8_t *p, int enc, pw_arena *a)
{
    switch (enc) {
    case DUMPI_ENC_I32_ARR: set_array(x, &p, 4, a); break;
    case DUMPI_ENC_U16_ARR: set_array(x, &p, 2, a); break;
    case DUMPI_ENC_U8_ARR: set_array(x, &p, 1, a); break;
    case DUMPI_ENC_STR: set_string(x, &p); break;
    case DUMPI_ENC_STR_ARR: set_strings(x, &p, a); break;
    case DUMPI_ENC_STATUS: set_statuses(x, p, a); break;
    default: set_nested(x, p, enc, a); break;
    }
}

/* A field the record does not carry (the cursor sets every field:
 * pw_cursor_ops.sets_absent). */
static inline void set_absent(pw_value *x, const pw_field *f)
{
    x->type = f->type;
    x->present = 0;
}

/* One argument (field f), from its bytes at q. */
static inline void set_arg(pw_value *x, const pw_field *f, const uint8_t *q, int enc, pw_arena *a)
{
    int64_t v;
    if (dumpi_int_at(q, enc, &v))
        pw_set_i64(x, v);
    else {
        set_absent(x, f); /* what finds no scratch memory stays absent */
        set_list_arg(x, q, enc, a);
    }
}

/* The arguments present, each read where the walk found it: the leading
 * ones at their fixed places, always there, then the others. */
static void decode_args(const dumpi_call *s, pw_arena *a, pw_value *values)
{
    const dumpi_rec *rec = s->rec;
    const dumpi_function *fn = &dumpi_functions[rec->label];
    pw_value *x = values + DUMPI_PREFIX_FIELDS;
    const uint8_t *lead = s->p + rec->args_at;
    int i = 0;
    const pw_field *f = fn->fields + DUMPI_PREFIX_FIELDS;
    for (; i < fn->lead_args; i++)
        set_arg(&x[i], &f[i], lead + fn->arg_at[i], fn->args[i].enc, a);
    for (; i < fn->n_args; i++) {
        if (rec->arg_off[i] != UINT32_MAX)
            set_arg(&x[i], &f[i], s->p + rec->arg_off[i], fn->args[i].enc, a);
        else
            set_absent(&x[i], &f[i]);
    }
}

/* The call's thread, times and counters. */
static void decode_prefix(const dumpi_call *s, pw_arena *a, pw_value *values)
{
    const dumpi_rec *rec = s->rec;
    if (rec->mask & DUMPI_MASK_THREAD)
        pw_set_i64(&values[0], rec->thread);
    if (rec->mask & DUMPI_MASK_WALL)
        set_times(&values[1], s, 1, a);
    if (rec->mask & DUMPI_MASK_CPU)
        set_times(&values[2], s, 0, a);
    if (rec->mask & DUMPI_MASK_PERF)
        set_perf(&values[3], s, a);
}

/* The call's fields; args_only leaves the prefix absent (half the
 * decoding work of a short call).  The prefix starts absent: what its
 * record lacks, or what finds no scratch memory, stays so. */
static void decode_call(const dumpi_call *s, pw_arena *a, pw_value *values, int args_only)
{
    const pw_field *f = dumpi_functions[s->rec->label].fields;
    for (int i = 0; i < DUMPI_PREFIX_FIELDS; i++)
        set_absent(&values[i], &f[i]);
    if (!args_only)
        decode_prefix(s, a, values);
    decode_args(s, a, values);
}

static void dumpi_cursor_decode(pw_cursor *c, pw_value *values)
{
    const dumpi_stream *s = c->impl;
    dumpi_call call = {&s->rec, s->p, s->sec, s->nsec, s->rank};
    decode_call(&call, &c->scratch, values, c->args_only);
}

/* pw_cursor_ops.ints (dumpi_ints.c). */
static void dumpi_cursor_ints(pw_cursor *c, const int16_t *fields, size_t n, pw_value *view)
{
    dumpi_stream_ints(c->impl, fields, n, view);
}

/* A snapshot: this, then the record's bytes. */
typedef struct dumpi_snapshot {
    dumpi_rec rec;
    uint64_t sec[2][2];
    uint32_t nsec[2][2];
    const dumpi_rank *rank;
} dumpi_snapshot;

static size_t dumpi_cursor_snapshot(const pw_cursor *c, void *dst, size_t cap)
{
    const dumpi_stream *s = c->impl;
    size_t n = sizeof(dumpi_snapshot) + s->rec.size;
    if (n <= cap) {
        dumpi_snapshot *snap = dst;
        snap->rec = s->rec;
        memcpy(snap->sec, s->sec, sizeof snap->sec);
        memcpy(snap->nsec, s->nsec, sizeof snap->nsec);
        snap->rank = s->rank;
        memcpy(snap + 1, s->p, s->rec.size);
    }
    return n;
}

static void dumpi_cursor_decode_snapshot(const pw_dataset *ds, const pw_record *rec, const void *data,
                                         size_t n, pw_arena *scratch, pw_value *values)
{
    (void)ds, (void)rec, (void)n;
    const dumpi_snapshot *snap = data;
    dumpi_call call = {&snap->rec, (const uint8_t *)(snap + 1), snap->sec, snap->nsec, snap->rank};
    decode_call(&call, scratch, values, 0);
}

static void dumpi_cursor_close(pw_cursor *c)
{
    dumpi_stream *s = c->impl;
    if (!s)
        return;
    dumpi_stream_fini(s);
    free(s);
}

static const pw_cursor_ops dumpi_cursor_ops = {
    .next = dumpi_cursor_next,
    .decode = dumpi_cursor_decode,
    .close = dumpi_cursor_close,
    .snapshot = dumpi_cursor_snapshot,
    .decode_snapshot = dumpi_cursor_decode_snapshot,
    .ints = dumpi_cursor_ints,
    .sets_absent = 1,
};

pw_status dumpi_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err)
{
    dumpi_dataset *dd = ds->impl;
    int32_t slot = dd->rank_of_loc[c->location];
    dumpi_stream *s = malloc(sizeof *s);
    if (!s)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    pw_status st = dumpi_stream_init(s, &dd->ranks[slot], c->window_cap, &ds->progress_done, err);
    if (st != PW_OK) {
        free(s);
        return st;
    }
    c->impl = s;
    c->ops = &dumpi_cursor_ops;
    c->rec.kind = PW_REC_SPAN;
    return PW_OK;
}
