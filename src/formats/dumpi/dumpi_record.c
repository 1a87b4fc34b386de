/* dumpi_record.c — the table-driven walker: finds where each argument of
 * one call record lies, for any of the 293 labels, from the layouts
 * generated out of dumpi-functions.tsv.  It parses a span of bytes taken
 * from the window in one piece (usually 64 KiB ahead), and asks for a
 * larger span only when a record is larger; every length is checked
 * against the span before it is trusted. */
#include <string.h>

#include "core/bytes.h"
#include "core/error.h"
#include "formats/dumpi/dumpi.h"

/* Bytes asked of the window per record: most records are ~50 bytes. */
#define DUMPI_SPAN 65536

typedef struct span {
    const uint8_t *p;
    uint64_t n;     /* bytes available */
    uint64_t pos;   /* bytes of the record parsed so far */
    uint64_t short_by; /* when parsing ran out: bytes wanted past n */
} span;

/* Moves past n bytes; 0 when the span ends first. */
static inline int skip(span *s, uint64_t n)
{
    if (n > s->n - s->pos) {
        s->short_by = n - (s->n - s->pos);
        return 0;
    }
    s->pos += n;
    return 1;
}

/* A u32 count followed by count elements of `width` bytes. */
static int skip_array(span *s, uint64_t width)
{
    if (!skip(s, 4))
        return 0;
    return skip(s, (uint64_t)pw_be32(s->p + s->pos - 4) * width);
}

/* u32 n, then n string32 (u32 length + bytes). */
static int skip_strings(span *s)
{
    if (!skip(s, 4))
        return 0;
    uint32_t n = pw_be32(s->p + s->pos - 4);
    for (uint32_t i = 0; i < n; i++)
        if (!skip_array(s, 1))
            return 0;
    return 1;
}

static int skip_rows(span *s, int strings)
{
    if (!skip(s, 4))
        return 0;
    uint32_t rows = pw_be32(s->p + s->pos - 4);
    for (uint32_t i = 0; i < rows; i++)
        if (!(strings ? skip_strings(s) : skip_array(s, 4)))
            return 0;
    return 1;
}

static int skip_arg(span *s, int enc)
{
    switch (enc) {
    case DUMPI_ENC_I32: return skip(s, 4);
    case DUMPI_ENC_I64: return skip(s, 8);
    case DUMPI_ENC_U16: return skip(s, 2);
    case DUMPI_ENC_U8: return skip(s, 1);
    case DUMPI_ENC_I32_ARR: return skip_array(s, 4);
    case DUMPI_ENC_U16_ARR: return skip_array(s, 2);
    case DUMPI_ENC_U8_ARR: return skip_array(s, 1);
    case DUMPI_ENC_STR: return skip_array(s, 1);
    case DUMPI_ENC_STR_ARR: return skip_strings(s);
    case DUMPI_ENC_STATUS: return skip_array(s, 14);
    case DUMPI_ENC_I32_2D: return skip_rows(s, 0);
    default: return skip_rows(s, 1);
    }
}

/* Prefix after the label: mask, thread, time blocks, perf block. */
static int parse_prefix(span *s, dumpi_rec *rec)
{
    if (!skip(s, 1))
        return 0;
    rec->mask = s->p[s->pos - 1];
    rec->thread = 0;
    if (rec->mask & DUMPI_MASK_THREAD) {
        if (!skip(s, 2))
            return 0;
        rec->thread = pw_be16(s->p + s->pos - 2);
    }
    rec->times_off = (uint32_t)s->pos;
    if (!skip(s, (rec->mask & DUMPI_MASK_CPU ? 12 : 0) + (rec->mask & DUMPI_MASK_WALL ? 12 : 0)))
        return 0;
    rec->perf_off = (uint32_t)s->pos;
    rec->n_perf = 0;
    if (rec->mask & DUMPI_MASK_PERF) {
        if (!skip(s, 1))
            return 0;
        rec->n_perf = s->p[s->pos - 1];
        return skip(s, (uint64_t)rec->n_perf * 16);
    }
    return 1;
}

/* The i32 argument i placed so far (0 when absent or of another
 * encoding): what a conditional argument compares. */
static int32_t placed_int(const span *s, const dumpi_function *fn, const dumpi_rec *rec, int i)
{
    uint32_t o = dumpi_arg_off(rec, fn, i);
    return o != UINT32_MAX && fn->args[i].enc == DUMPI_ENC_I32 ? (int32_t)pw_be32(s->p + o) : 0;
}

/* Arguments: the leading ones whose place is fixed (every one of a
 * fixed-size call) all at once (rec->args_at), then the rest one by
 * one; conditional ones are present when two earlier ints agree (read
 * only then: most functions have none), statuses only when the mask
 * says the record has them. */
static int parse_args(span *s, const dumpi_function *fn, dumpi_rec *rec)
{
    rec->args_at = (uint32_t)s->pos;
    if (!skip(s, fn->lead_size))
        return 0;
    int with_status = (rec->mask & DUMPI_MASK_STATUS) != 0;
    for (int i = fn->lead_args; i < fn->n_args && i < DUMPI_MAX_ARGS; i++) {
        const dumpi_arg *a = &fn->args[i];
        if ((a->enc == DUMPI_ENC_STATUS && !with_status) ||
            (a->cond_a >= 0 && placed_int(s, fn, rec, a->cond_a) != placed_int(s, fn, rec, a->cond_b))) {
            rec->arg_off[i] = UINT32_MAX;
            continue;
        }
        rec->arg_off[i] = (uint32_t)s->pos;
        if (!skip_arg(s, a->enc))
            return 0;
    }
    return 1;
}

/* 1: parsed; 0: the span ended first (s->short_by says by how much). */
static int parse_record(span *s, dumpi_rec *rec)
{
    return parse_prefix(s, rec) && parse_args(s, &dumpi_functions[rec->label], rec);
}

static pw_status truncated(pw_window *w, uint64_t off, uint64_t end, const span *s, const char **code,
                           pw_error *err)
{
    *code = "dumpi.truncated-record";
    return pw_fail(err, PW_E_DATA, w->path, (int64_t)(off + s->pos),
                   "record runs past the end of the stream at %llu: %llu more bytes expected, %llu left",
                   (unsigned long long)end, (unsigned long long)s->short_by,
                   (unsigned long long)(end - off - s->pos));
}

static pw_status read_label(pw_window *w, uint64_t off, uint64_t end, dumpi_rec *rec, const uint8_t **p,
                            uint64_t *avail, const char **code, pw_error *err)
{
    *avail = end - off < DUMPI_SPAN ? end - off : DUMPI_SPAN;
    if (*avail < 2) {
        span s = {NULL, *avail, 0, 2 - *avail};
        return truncated(w, off, end, &s, code, err);
    }
    pw_status st = pw_window_need(w, off, (size_t)*avail, p, err);
    if (st != PW_OK)
        return st == PW_END ? pw_fail(err, PW_E_IO, w->path, (int64_t)off, "the file shrank while read") : st;
    rec->label = pw_be16(*p);
    if (rec->label == DUMPI_END_OF_STREAM) {
        rec->size = 2;
        return PW_END;
    }
    if (rec->label >= DUMPI_N_LABELS || !dumpi_functions[rec->label].writable) {
        *code = "dumpi.unknown-label";
        return pw_fail(err, PW_E_DATA, w->path, (int64_t)off,
                       "function label 0..289, 291 or 292 (or 293, end of stream) expected, found %u",
                       rec->label);
    }
    return PW_OK;
}

/* Time blocks after the thread id, by the mask's CPU and wall bits. */
static const uint8_t times_width[4] = {0, 12, 12, 24};

/* The common case: a known label whose record lies whole in the bytes
 * the window already holds, parsed with one bounds check per part (the
 * prefix, each variable argument, or all the scalars of a fixed-size
 * call).  0 sends the caller to the general walk (refills, the end label,
 * errors), which parses the record again from its start. */
int dumpi_walk_buffered(pw_window *w, uint64_t off, uint64_t end, dumpi_rec *rec,
                                const uint8_t **bytes)
{
    const uint8_t *p;
    uint64_t n = pw_window_have(w, off, &p);
    if (n > end - off)
        n = end - off;
    if (n < 5) /* label, mask and a thread id */
        return 0;
    uint16_t label = pw_be16(p);
    if (label >= DUMPI_N_LABELS)
        return 0;
    const dumpi_function *fn = &dumpi_functions[label];
    if (!fn->writable)
        return 0;
    uint8_t mask = p[2];
    uint64_t pos = 3;
    rec->label = label;
    rec->mask = mask;
    rec->thread = 0;
    if (mask & DUMPI_MASK_THREAD) {
        rec->thread = pw_be16(p + 3);
        pos = 5;
    }
    rec->times_off = (uint32_t)pos;
    pos += times_width[(mask >> 2) & 3];
    rec->perf_off = (uint32_t)pos;
    rec->n_perf = 0;
    if (mask & DUMPI_MASK_PERF) {
        if (pos >= n)
            return 0;
        rec->n_perf = p[pos];
        pos += 1 + (uint64_t)rec->n_perf * 16;
    }
    if (fn->fixed_size >= 0) {
        if (pos + (uint64_t)fn->fixed_size > n)
            return 0;
        rec->args_at = (uint32_t)pos; /* every argument a leading one */
        rec->size = (uint32_t)(pos + (uint64_t)fn->fixed_size);
    } else {
        if (pos > n)
            return 0;
        span s = {p, n, pos, 0};
        if (!parse_args(&s, fn, rec))
            return 0;
        rec->size = (uint32_t)s.pos;
    }
    *bytes = p;
    return 1;
}

pw_status dumpi_walk(pw_window *w, uint64_t off, uint64_t end, dumpi_rec *rec, const uint8_t **bytes,
                     const char **code, pw_error *err)
{
    if (dumpi_walk_buffered(w, off, end, rec, bytes))
        return PW_OK;
    const uint8_t *p;
    uint64_t avail;
    pw_status st = read_label(w, off, end, rec, &p, &avail, code, err);
    if (st != PW_OK)
        return st;
    for (;;) {
        span s = {p, avail, 2, 0};
        if (parse_record(&s, rec)) {
            rec->size = (uint32_t)s.pos;
            *bytes = p;
            return PW_OK;
        }
        if (avail == end - off)
            return truncated(w, off, end, &s, code, err);
        if (avail >= DUMPI_MAX_RECORD) {
            *code = "dumpi.huge-record";
            return pw_fail(err, PW_E_DATA, w->path, (int64_t)off, "a record under %zu bytes expected",
                           DUMPI_MAX_RECORD);
        }
        /* A large record: ask for enough to cover what it needs. */
        uint64_t want = avail + s.short_by > avail * 4 ? avail + s.short_by : avail * 4;
        avail = want < end - off ? want : end - off;
        if (avail > DUMPI_MAX_RECORD)
            avail = DUMPI_MAX_RECORD;
        if ((st = pw_window_need(w, off, (size_t)avail, &p, err)) != PW_OK)
            return st == PW_END ? pw_fail(err, PW_E_IO, w->path, (int64_t)off, "the file shrank while read") : st;
    }
}
