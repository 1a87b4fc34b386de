/* hpctoolkit_cursor.c — records of one location.  The "cct" location
 * yields the contexts of the tree; a profile yields its metric values
 * (context index order, straight from the sparse block), then its trace:
 * samples, or with the `frames` option enter/leave records of CCT frames
 * (a sample whose frame path differs from the previous one leaves the
 * frames that are gone and enters the new ones). */
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/error.h"
#include "formats/hpctoolkit/hpctoolkit.h"
#include "model/value.h"

/* Per cursor, findings of one kind beyond this are not listed. */
#define HPC_DIAGS_PER_KIND 10

typedef enum { PH_CONTEXTS, PH_VALUES, PH_TRACE, PH_DONE } phase;

typedef struct hpc_cursor {
    hpc_dataset *h;
    phase ph;
    uint32_t prof;
    hpc_file idx, val, trc;
    /* contexts */
    uint32_t next_id;
    /* values */
    uint64_t ix, vi, vend;          /* index entry, value, end of this context's values */
    uint32_t ctx, prev_ctx;
    uint16_t metric;
    double value;
    unsigned bad_ctx, bad_metric;
    /* trace */
    uint64_t si, n_samples, last_t;
    unsigned bad_sample, backwards;
    uint32_t *cur, *path;           /* open frames; the path of the latest sample */
    uint32_t cur_n, path_n, common;
    int ended;
} hpc_cursor;

static void hpc_cursor_close(pw_cursor *c)
{
    hpc_cursor *k = c->impl;
    if (!k)
        return;
    hpc_file_close(&k->idx);
    hpc_file_close(&k->val);
    hpc_file_close(&k->trc);
    free(k->cur);
    free(k->path);
    free(k);
}

static pw_status next_context(pw_cursor *c, hpc_cursor *k)
{
    hpc_dataset *h = k->h;
    while (k->next_id < h->n_ids && !h->ctx[k->next_id].present)
        k->next_id++;
    if (k->next_id >= h->n_ids)
        return PW_END;
    k->ctx = k->next_id++;
    c->rec.schema = HPC_SCHEMA_CONTEXT;
    c->rec.type = "context";
    c->rec.kind = PW_REC_META;
    c->rec.clock = PW_CLOCK_NONE;
    c->rec.offset = 0;
    c->rec.size = 0;
    return PW_OK;
}

/* A value's context and metric must be known; damage here is reported and
 * reading goes on. */
static void check_value(pw_cursor *c, hpc_cursor *k, uint64_t at)
{
    hpc_dataset *h = k->h;
    const hpc_profile *p = &h->profs[k->prof];
    int in_tree = k->ctx < h->n_ids && h->ctx[k->ctx].present;
    if (!in_tree && k->ctx >= h->cct_ids && k->bad_ctx++ < HPC_DIAGS_PER_KIND)
        pw_ds_diag(c->ds, PW_SEV_ERROR, "hpctoolkit.unknown-context", k->idx.path, (int64_t)at,
                   "profile %u: context id %u is neither in the tree nor in cct.db (%u ids)",
                   k->prof, k->ctx, h->cct_ids);
    if (!hpc_metric_find(h, k->metric, p->summary) && k->bad_metric++ < HPC_DIAGS_PER_KIND)
        pw_ds_diag(c->ds, PW_SEV_ERROR, "hpctoolkit.unknown-metric", k->val.path,
                   (int64_t)(p->p_values + hpc_value_size(h) * k->vi),
                   "profile %u: metric id %u is not a %s metric of the database", k->prof,
                   k->metric, p->summary ? "summary" : "propagated");
}

/* Moves to the next context of the index that has values. */
static pw_status advance_index(pw_cursor *c, hpc_cursor *k, pw_error *err)
{
    const hpc_profile *p = &k->h->profs[k->prof];
    while (k->vi >= k->vend) {
        if (k->ix >= p->n_ctxs)
            return PW_END;
        uint32_t ctx, next_ctx;
        uint64_t start, end;
        pw_status s = hpc_profile_index(k->h, p, &k->idx, k->ix, &ctx, &start, err);
        if (s == PW_OK)
            s = hpc_profile_index(k->h, p, &k->idx, k->ix + 1, &next_ctx, &end, err);
        if (s != PW_OK) {
            c->err_code = "hpctoolkit.bad-index";
            return s;
        }
        uint64_t at = p->p_index + 12 * k->ix;
        if ((k->ix > 0 && ctx <= k->prev_ctx) || end < start || start != k->vend) {
            c->err_code = "hpctoolkit.unsorted-index";
            return pw_fail(err, PW_E_DATA, k->idx.path, (int64_t)at,
                           "profile %u: context index entry %llu (context %u, values %llu..%llu) "
                           "expected after context %u and value %llu, in order",
                           k->prof, (unsigned long long)k->ix, ctx, (unsigned long long)start,
                           (unsigned long long)end, k->prev_ctx, (unsigned long long)k->vend);
        }
        k->ix++;
        k->prev_ctx = ctx;
        k->ctx = ctx;
        k->vi = start;
        k->vend = end;
    }
    return PW_OK;
}

static pw_status next_value(pw_cursor *c, hpc_cursor *k, pw_error *err)
{
    const hpc_profile *p = &k->h->profs[k->prof];
    for (;;) {
        pw_status s = advance_index(c, k, err);
        if (s != PW_OK)
            return s;
        s = hpc_profile_value(k->h, p, &k->val, k->vi, &k->metric, &k->value, err);
        if (s != PW_OK) {
            c->err_code = "hpctoolkit.truncated-values";
            return s;
        }
        if (k->h->gen != HPC_OLD_XML || k->value != 0)
            break;
        k->vi++; /* dense arrays: zeros are left out, as sparse files do */
    }
    check_value(c, k, p->p_index + 12 * (k->ix - 1));
    c->rec.schema = HPC_SCHEMA_VALUE;
    c->rec.type = "value";
    c->rec.kind = PW_REC_VALUE;
    c->rec.clock = PW_CLOCK_NONE;
    c->rec.offset = p->p_values + hpc_value_size(k->h) * k->vi;
    c->rec.size = hpc_value_size(k->h);
    k->vi++;
    return PW_OK;
}

/* Reads sample si: its time and context, checked against the tree. */
static pw_status read_sample(pw_cursor *c, hpc_cursor *k, uint64_t *t, uint32_t *ctx,
                             pw_error *err)
{
    const hpc_trace *tr = &k->h->traces[k->h->profs[k->prof].trace];
    uint64_t at = tr->start + 12 * k->si;
    const uint8_t *b;
    pw_status s = hpc_need(&k->trc, at, 12, &b, "trace sample", err);
    if (s != PW_OK) {
        c->err_code = "hpctoolkit.truncated-trace";
        return s;
    }
    *t = pw_load64(b, k->trc.big);
    *ctx = pw_load32(b + 8, k->trc.big);
    hpc_dataset *h = k->h;
    if ((*ctx >= h->n_ids || !h->ctx[*ctx].present) && k->bad_sample++ < HPC_DIAGS_PER_KIND)
        pw_ds_diag(c->ds, PW_SEV_ERROR, "hpctoolkit.unknown-context", k->trc.path, (int64_t)at + 8,
                   "trace of profile %u: sample context %u is not in the tree", k->prof, *ctx);
    if (k->si > 0 && *t < k->last_t && k->backwards++ < HPC_DIAGS_PER_KIND)
        pw_ds_diag(c->ds, PW_SEV_ERROR, "hpctoolkit.unsorted-trace", k->trc.path, (int64_t)at,
                   "trace of profile %u: timestamp %llu before the previous %llu", k->prof,
                   (unsigned long long)*t, (unsigned long long)k->last_t);
    c->rec.offset = at;
    c->rec.size = 12;
    k->si++;
    return PW_OK;
}

static pw_status next_sample(pw_cursor *c, hpc_cursor *k, pw_error *err)
{
    if (k->si >= k->n_samples)
        return PW_END;
    uint64_t t;
    pw_status s = read_sample(c, k, &t, &k->ctx, err);
    if (s != PW_OK)
        return s;
    k->last_t = t;
    c->rec.schema = HPC_SCHEMA_SAMPLE;
    c->rec.type = "sample";
    c->rec.kind = PW_REC_INSTANT;
    c->rec.clock = PW_CLOCK_NS;
    c->rec.t = (int64_t)t;
    return PW_OK;
}

/* The frame path (root first) of a context into k->path. */
static void frame_path(hpc_cursor *k, uint32_t ctx)
{
    const hpc_dataset *h = k->h;
    k->path_n = 0;
    if (ctx >= h->n_ids || !h->ctx[ctx].present)
        return;
    uint32_t n = h->ctx[ctx].frame_depth;
    for (uint32_t id = ctx; id != 0 && id != HPC_NONE && n; id = h->ctx[id].parent)
        if (hpc_is_frame(&h->ctx[id]))
            k->path[--n] = id;
    k->path_n = h->ctx[ctx].frame_depth;
}

static void frame_record(pw_cursor *c, hpc_cursor *k, int enter, uint32_t ctx)
{
    k->ctx = ctx;
    c->rec.schema = enter ? HPC_SCHEMA_ENTER : HPC_SCHEMA_LEAVE;
    c->rec.type = enter ? "enter" : "leave";
    c->rec.kind = enter ? PW_REC_BEGIN : PW_REC_END;
    c->rec.clock = PW_CLOCK_NS;
    c->rec.t = (int64_t)k->last_t;
}

static pw_status next_frame(pw_cursor *c, hpc_cursor *k, pw_error *err)
{
    for (;;) {
        if (k->cur_n > k->common) {
            frame_record(c, k, 0, k->cur[--k->cur_n]);
            return PW_OK;
        }
        if (k->cur_n < k->path_n) {
            k->cur[k->cur_n] = k->path[k->cur_n];
            frame_record(c, k, 1, k->cur[k->cur_n++]);
            k->common = k->cur_n; /* what is open now is kept */
            return PW_OK;
        }
        if (k->ended)
            return PW_END;
        if (k->si >= k->n_samples) { /* close what is still open at the last sample */
            k->ended = 1;
            k->path_n = k->common = 0;
            continue;
        }
        uint64_t t;
        uint32_t ctx;
        pw_status s = read_sample(c, k, &t, &ctx, err);
        if (s != PW_OK)
            return s;
        k->last_t = t;
        frame_path(k, ctx);
        k->common = 0;
        while (k->common < k->cur_n && k->common < k->path_n &&
               k->cur[k->common] == k->path[k->common])
            k->common++;
    }
}

static pw_status start_trace(pw_cursor *c, hpc_cursor *k, pw_error *err)
{
    const hpc_profile *p = &k->h->profs[k->prof];
    k->ph = PH_DONE;
    if (p->trace == HPC_NONE)
        return PW_OK;
    k->n_samples = hpc_trace_samples(&k->h->traces[p->trace]);
    pw_status s = hpc_file_open(&k->trc, k->h->trace_path, k->h->big, c->window_cap, err);
    if (s == PW_OK)
        s = pw_input_same_as(&k->trc.w.in, &k->h->seen_trace, k->h->trace_path, err);
    if (s != PW_OK)
        return s;
    hpc_file_count_progress(&k->trc, k->h);
    if (k->h->frames) {
        size_t n = (size_t)k->h->max_frame_depth + 1;
        k->cur = malloc(n * sizeof *k->cur);
        k->path = malloc(n * sizeof *k->path);
        if (!k->cur || !k->path)
            return pw_fail(err, PW_E_NOMEM, c->ds->path, PW_NO_OFFSET, "out of memory");
    }
    k->ph = PH_TRACE;
    return PW_OK;
}

static pw_status hpc_cursor_next(pw_cursor *c, pw_error *err)
{
    hpc_cursor *k = c->impl;
    pw_status s = PW_END;
    switch (k->ph) {
    case PH_CONTEXTS:
        s = next_context(c, k);
        if (s == PW_END)
            k->ph = PH_DONE;
        return s;
    case PH_VALUES:
        s = next_value(c, k, err);
        if (s != PW_END)
            return s;
        if ((s = start_trace(c, k, err)) != PW_OK)
            return s;
        return k->ph == PH_TRACE ? hpc_cursor_next(c, err) : PW_END;
    case PH_TRACE:
        s = k->h->frames ? next_frame(c, k, err) : next_sample(c, k, err);
        if (s == PW_END)
            k->ph = PH_DONE;
        return s;
    case PH_DONE: break;
    }
    return PW_END;
}

/* A NUL-terminated name, absent when there is none. */
static void str_value(pw_value *v, const char *s)
{
    if (s)
        pw_set_str(v, s, strlen(s));
}

static void decode_context(pw_cursor *c, hpc_cursor *k, pw_value *v)
{
    const hpc_dataset *h = k->h;
    const hpc_ctx *x = &h->ctx[k->ctx];
    static const char *const relations[] = {"lexical", "call", "inlined call"};
    pw_set_u64(&v[0], k->ctx);
    pw_set_i64(&v[1], x->parent == HPC_NONE ? -1 : (int64_t)x->parent);
    str_value(&v[2], hpc_ctx_kind_name((hpc_ctx_kind)x->kind));
    char buf[256];
    const char *label = hpc_ctx_label(h, k->ctx, buf, sizeof buf);
    if (label == buf) { /* composed: copy into per-record scratch */
        char *s = pw_arena_strdup(&c->scratch, buf);
        label = s ? s : "?";
    }
    str_value(&v[3], label);
    str_value(&v[4], x->file);
    if (x->has_line)
        pw_set_u64(&v[5], x->line);
    str_value(&v[6], x->module);
    if (x->has_offset)
        pw_set_u64(&v[7], x->offset);
    if (x->kind != HPC_CTX_ROOT && x->kind != HPC_CTX_ENTRY)
        str_value(&v[8], x->relation < 3 ? relations[x->relation] : "unknown");
}

static void hpc_cursor_decode(pw_cursor *c, pw_value *v)
{
    hpc_cursor *k = c->impl;
    switch (c->rec.schema) {
    case HPC_SCHEMA_CONTEXT: decode_context(c, k, v); break;
    case HPC_SCHEMA_VALUE:
        pw_set_u64(&v[0], k->prof);
        pw_set_u64(&v[1], k->ctx);
        pw_set_u64(&v[2], k->metric);
        pw_set_f64(&v[3], k->value);
        break;
    case HPC_SCHEMA_SAMPLE: pw_set_u64(&v[0], k->ctx); break;
    default: {
        pw_set_u64(&v[0], k->ctx);
        const hpc_ctx *x = &k->h->ctx[k->ctx];
        str_value(&v[1], hpc_ctx_kind_name((hpc_ctx_kind)x->kind));
        char buf[256];
        const char *label = hpc_ctx_label(k->h, k->ctx, buf, sizeof buf);
        str_value(&v[2], label == buf ? pw_arena_strdup(&c->scratch, buf) : label);
    }
    }
}

static const pw_cursor_ops hpc_cursor_ops = {
    .next = hpc_cursor_next,
    .decode = hpc_cursor_decode,
    .close = hpc_cursor_close,
};

pw_status hpc_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err)
{
    hpc_dataset *h = ds->impl;
    hpc_cursor *k = calloc(1, sizeof *k);
    if (!k)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    c->impl = k;
    c->ops = &hpc_cursor_ops;
    k->h = h;
    if ((int32_t)c->location == h->cct_location) {
        k->ph = PH_CONTEXTS;
        return PW_OK;
    }
    k->prof = (uint32_t)ds->locs[c->location].id;
    k->ph = PH_VALUES;
    const char *path = h->profs[k->prof].path;
    pw_status s = hpc_file_open(&k->idx, path, h->big, c->window_cap / 2, err);
    if (s == PW_OK)
        s = pw_input_same_as(&k->idx.w.in, &h->profs[k->prof].seen, path, err);
    if (s == PW_OK)
        s = hpc_file_open(&k->val, path, h->big, c->window_cap / 2, err);
    if (s == PW_OK)
        hpc_file_count_progress(&k->val, h);
    if (s != PW_OK) { /* the model frees only the cursor itself */
        hpc_cursor_close(c);
        c->impl = NULL;
    }
    return s;
}
