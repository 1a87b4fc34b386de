/* dumpi_record.c — the table-driven walker: finds where each argument of
 * one call record lies, for any of the 293 labels, from the layouts
 * generated out of dumpi-functions.tsv.  Every length is checked against
 * the end of the stream before it is trusted. */
#include <string.h>

#include "core/bytes.h"
#include "core/error.h"
#include "formats/dumpi/dumpi.h"

typedef struct walk {
    pw_window *w;
    uint64_t base, end;   /* record start; stream end */
    uint32_t pos;         /* bytes of the record walked so far */
    const char **code;
    pw_error *err;
} walk;

static pw_status walk_fail(walk *k, const char *code, size_t need)
{
    *k->code = code;
    uint64_t at = k->base + k->pos;
    return pw_fail(k->err, PW_E_DATA, k->w->path, (int64_t)at,
                   "record runs past the end of the stream at %llu: %zu more bytes expected, %llu left",
                   (unsigned long long)k->end, need,
                   (unsigned long long)(k->end > at ? k->end - at : 0));
}

/* Makes n more bytes of the record available at *p and moves past them. */
static pw_status take(walk *k, size_t n, const uint8_t **p)
{
    uint64_t at = k->base + k->pos;
    if (n > k->end - at || n > DUMPI_MAX_RECORD - k->pos)
        return walk_fail(k, "dumpi.truncated-record", n);
    const uint8_t *q;
    pw_status st = pw_window_need(k->w, at, n, &q, k->err);
    if (st == PW_END)
        return walk_fail(k, "dumpi.truncated-record", n);
    if (st != PW_OK)
        return st;
    if (p)
        *p = q;
    k->pos += (uint32_t)n;
    return PW_OK;
}

/* A u32 count followed by count elements of `width` bytes. */
static pw_status take_array(walk *k, size_t width)
{
    const uint8_t *p = NULL;
    pw_status st = take(k, 4, &p);
    if (st != PW_OK)
        return st;
    uint64_t n = pw_be32(p);
    if (n * width > k->end - (k->base + k->pos))
        return walk_fail(k, "dumpi.truncated-record", (size_t)(n * width));
    return take(k, (size_t)(n * width), NULL);
}

/* u32 n, then n string32 (u32 length + bytes). */
static pw_status take_strings(walk *k)
{
    const uint8_t *p = NULL;
    pw_status st = take(k, 4, &p);
    uint32_t n = st == PW_OK ? pw_be32(p) : 0;
    for (uint32_t i = 0; st == PW_OK && i < n; i++)
        st = take_array(k, 1);
    return st;
}

static pw_status take_arg(walk *k, int enc, int with_status)
{
    const uint8_t *p = NULL;
    pw_status st = PW_OK;
    switch (enc) {
    case DUMPI_ENC_I32: return take(k, 4, NULL);
    case DUMPI_ENC_I64: return take(k, 8, NULL);
    case DUMPI_ENC_U16: return take(k, 2, NULL);
    case DUMPI_ENC_U8: return take(k, 1, NULL);
    case DUMPI_ENC_I32_ARR: return take_array(k, 4);
    case DUMPI_ENC_U16_ARR: return take_array(k, 2);
    case DUMPI_ENC_U8_ARR: return take_array(k, 1);
    case DUMPI_ENC_STR: return take_array(k, 1);
    case DUMPI_ENC_STR_ARR: return take_strings(k);
    case DUMPI_ENC_STATUS: return with_status ? take_array(k, 14) : PW_OK;
    case DUMPI_ENC_I32_2D:
    case DUMPI_ENC_STR_2D: {
        st = take(k, 4, &p);
        uint32_t rows = st == PW_OK ? pw_be32(p) : 0;
        for (uint32_t i = 0; st == PW_OK && i < rows; i++)
            st = enc == DUMPI_ENC_I32_2D ? take_array(k, 4) : take_strings(k);
        return st;
    }
    default: return PW_OK;
    }
}

/* Prefix: label, mask, thread, time blocks, perf block. */
static pw_status walk_prefix(walk *k, dumpi_rec *rec)
{
    const uint8_t *p = NULL;
    pw_status st = take(k, 1, &p);
    if (st != PW_OK)
        return st;
    rec->mask = p[0];
    rec->thread = 0;
    if (rec->mask & DUMPI_MASK_THREAD) {
        if ((st = take(k, 2, &p)) != PW_OK)
            return st;
        rec->thread = pw_be16(p);
    }
    rec->times_off = k->pos;
    size_t times = (rec->mask & DUMPI_MASK_CPU ? 12 : 0) + (rec->mask & DUMPI_MASK_WALL ? 12 : 0);
    if ((st = take(k, times, NULL)) != PW_OK)
        return st;
    rec->perf_off = k->pos;
    rec->n_perf = 0;
    if (rec->mask & DUMPI_MASK_PERF) {
        if ((st = take(k, 1, &p)) != PW_OK)
            return st;
        rec->n_perf = p[0];
        st = take(k, (size_t)rec->n_perf * 16, NULL);
    }
    return st;
}

/* Arguments; conditional ones are present when two earlier ints agree. */
static pw_status walk_args(walk *k, const dumpi_function *fn, dumpi_rec *rec)
{
    int32_t ints[DUMPI_MAX_ARGS];
    int with_status = (rec->mask & DUMPI_MASK_STATUS) != 0;
    for (int i = 0; i < fn->n_args && i < DUMPI_MAX_ARGS; i++) {
        const dumpi_arg *a = &fn->args[i];
        ints[i] = 0;
        if ((a->cond_a >= 0 && ints[a->cond_a] != ints[a->cond_b]) ||
            (a->enc == DUMPI_ENC_STATUS && !with_status)) {
            rec->arg_off[i] = UINT32_MAX;
            continue;
        }
        rec->arg_off[i] = k->pos;
        const uint8_t *p = NULL;
        pw_status st;
        if (a->enc == DUMPI_ENC_I32) {
            st = take(k, 4, &p);
            if (st == PW_OK)
                ints[i] = (int32_t)pw_be32(p);
        } else {
            st = take_arg(k, a->enc, with_status);
        }
        if (st != PW_OK)
            return st;
    }
    return PW_OK;
}

pw_status dumpi_walk(pw_window *w, uint64_t off, uint64_t end, dumpi_rec *rec, const char **code,
                     pw_error *err)
{
    walk k = {w, off, end, 0, code, err};
    const uint8_t *p = NULL;
    pw_status st = take(&k, 2, &p);
    if (st != PW_OK)
        return st;
    rec->label = pw_be16(p);
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
    if ((st = walk_prefix(&k, rec)) != PW_OK)
        return st;
    const dumpi_function *fn = &dumpi_functions[rec->label];
    if (fn->fixed_size >= 0) { /* the common case: scalars only */
        uint32_t at = k.pos;
        if ((st = take(&k, (size_t)fn->fixed_size, NULL)) != PW_OK)
            return st;
        for (int i = 0; i < fn->n_args; i++) {
            rec->arg_off[i] = at;
            int e = fn->args[i].enc;
            at += e == DUMPI_ENC_I32 ? 4 : e == DUMPI_ENC_I64 ? 8 : e == DUMPI_ENC_U16 ? 2 : 1;
        }
    } else if ((st = walk_args(&k, fn, rec)) != PW_OK) {
        return st;
    }
    rec->size = k.pos;
    return PW_OK;
}

int64_t dumpi_arg_int(const dumpi_rec *rec, const uint8_t *p, int arg)
{
    uint32_t o = rec->arg_off[arg];
    if (o == UINT32_MAX)
        return 0;
    switch (dumpi_functions[rec->label].args[arg].enc) {
    case DUMPI_ENC_I32: return (int32_t)pw_be32(p + o);
    case DUMPI_ENC_I64: return (int64_t)pw_be64(p + o);
    case DUMPI_ENC_U16: return pw_be16(p + o);
    case DUMPI_ENC_U8: return p[o];
    default: return 0;
    }
}
