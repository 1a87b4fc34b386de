/* hpctoolkit_views.c — the figures behind the hpcviewer-like views: one
 * profile's inclusive/exclusive columns (a sequential pass over its sparse
 * block), per-procedure totals, per-profile procedure values (profiles in
 * parallel), and time per procedure from trace samples. */
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/error.h"
#include "core/parallel.h"
#include "formats/hpctoolkit/hpctoolkit.h"

/* Calls fn(ctx, metric, value) for every value of profile p, in file
 * order, with two windows (index, values) on profile.db. */
typedef void (*value_fn)(void *arg, uint32_t ctx, uint16_t metric, double value);

static pw_status for_each_value(const hpc_dataset *h, uint32_t pi, value_fn fn, void *arg,
                                pw_error *err)
{
    const hpc_profile *p = &h->profs[pi];
    hpc_file idx = {0}, val = {0};
    pw_status s = hpc_file_open(&idx, p->path, h->big, 64 * 1024, err);
    if (s == PW_OK)
        s = hpc_file_open(&val, p->path, h->big, 256 * 1024, err);
    if (s == PW_OK)
        hpc_file_count_progress(&val, h);
    uint32_t ctx = 0;
    uint64_t start = 0;
    if (s == PW_OK && p->n_ctxs)
        s = hpc_profile_index(h, p, &idx, 0, &ctx, &start, err);
    for (uint64_t i = 0; s == PW_OK && i < p->n_ctxs; i++) {
        uint32_t next_ctx;
        uint64_t end;
        if ((s = hpc_profile_index(h, p, &idx, i + 1, &next_ctx, &end, err)) != PW_OK)
            break;
        for (uint64_t j = start; s == PW_OK && j < end; j++) {
            uint16_t m;
            double v;
            if ((s = hpc_profile_value(h, p, &val, j, &m, &v, err)) == PW_OK)
                fn(arg, ctx, m, v);
        }
        ctx = next_ctx;
        start = end;
    }
    hpc_file_close(&idx);
    hpc_file_close(&val);
    return s;
}

typedef struct columns {
    const hpc_dataset *h;
    int32_t incl_id, excl_id;
    double *incl, *excl;
} columns;

static void column_value(void *arg, uint32_t ctx, uint16_t metric, double value)
{
    columns *c = arg;
    if (ctx >= c->h->n_ids)
        return;
    if (metric == c->incl_id)
        c->incl[ctx] = value;
    else if (metric == c->excl_id)
        c->excl[ctx] = value;
}

pw_status hpc_profile_columns(const hpc_dataset *h, uint32_t p, const hpc_view_metric *vm,
                              double *incl, double *excl, pw_error *err)
{
    memset(incl, 0, h->n_ids * sizeof *incl);
    memset(excl, 0, h->n_ids * sizeof *excl);
    int summary = h->profs[p].summary;
    columns c = {h, summary ? vm->sum_incl : vm->prof_incl, summary ? vm->sum_excl : vm->prof_excl,
                 incl, excl};
    return for_each_value(h, p, column_value, &c, err);
}

static int is_procedure_context(const hpc_ctx *c)
{
    return c->present && c->proc != HPC_NONE &&
           (c->kind == HPC_CTX_FUNCTION || c->kind == HPC_CTX_ENTRY);
}

/* 1 when an ancestor of id is a context of the same procedure (a
 * recursive call, whose inclusive cost its outer call already holds). */
static int called_recursively(const hpc_dataset *h, uint32_t id)
{
    uint32_t proc = h->ctx[id].proc;
    for (uint32_t a = h->ctx[id].parent; a != 0 && a != HPC_NONE; a = h->ctx[a].parent)
        if (h->ctx[a].proc == proc && is_procedure_context(&h->ctx[a]))
            return 1;
    return 0;
}

void hpc_procedure_totals(const hpc_dataset *h, const double *incl, const double *excl,
                          double *proc_incl, double *proc_excl)
{
    memset(proc_incl, 0, h->n_procs * sizeof *proc_incl);
    memset(proc_excl, 0, h->n_procs * sizeof *proc_excl);
    for (uint32_t id = 1; id < h->n_ids; id++) {
        const hpc_ctx *c = &h->ctx[id];
        if (!is_procedure_context(c))
            continue;
        proc_excl[c->proc] += excl[id];
        if (!called_recursively(h, id))
            proc_incl[c->proc] += incl[id];
    }
}

typedef struct by_profile {
    pw_dataset *ds;
    const hpc_dataset *h;
    int32_t metric;
    const int32_t *slot;  /* procedure -> chosen index, or -1 */
    uint32_t n_chosen;
    const uint8_t *only;  /* profiles to read (NULL: all) */
    double *out;
} by_profile;

typedef struct profile_sum {
    const by_profile *job;
    double *row;
} profile_sum;

static void add_procedure_value(void *arg, uint32_t ctx, uint16_t metric, double value)
{
    profile_sum *ps = arg;
    const hpc_dataset *h = ps->job->h;
    if (metric != ps->job->metric || ctx >= h->n_ids || !is_procedure_context(&h->ctx[ctx]))
        return;
    int32_t k = ps->job->slot[h->ctx[ctx].proc];
    if (k >= 0)
        ps->row[k] += value;
}

static void profile_job(void *arg, size_t item, int worker)
{
    (void)worker;
    by_profile *job = arg;
    if (job->h->profs[item].summary || (job->only && !job->only[item]))
        return;
    profile_sum ps = {job, job->out + item * job->n_chosen};
    pw_error e;
    if (for_each_value(job->h, (uint32_t)item, add_procedure_value, &ps, &e) != PW_OK)
        pw_ds_diag_error(job->ds, PW_SEV_ERROR, "hpctoolkit.bad-values", &e);
}

pw_status hpc_procedure_by_profile(pw_dataset *ds, const hpc_view_metric *vm,
                                   const uint32_t *chosen, uint32_t n_chosen, const uint8_t *only,
                                   double *out, pw_error *err)
{
    const hpc_dataset *h = ds->impl;
    int32_t *slot = malloc((h->n_procs ? h->n_procs : 1) * sizeof *slot);
    if (!slot)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; i < h->n_procs; i++)
        slot[i] = -1;
    for (uint32_t k = 0; k < n_chosen; k++)
        slot[chosen[k]] = (int32_t)k;
    memset(out, 0, (size_t)h->n_profs * n_chosen * sizeof *out);
    by_profile job = {ds, h, vm->prof_excl, slot, n_chosen, only, out};
    pw_parallel_for(h->n_profs, ds->threads, profile_job, &job);
    free(slot);
    return PW_OK;
}

typedef struct trace_job {
    pw_dataset *ds;
    const hpc_dataset *h;
    hpc_trace_figures *fig;
    double *per_worker;   /* workers x (n_procs + 1) */
    const uint8_t *only;  /* profiles whose traces to read (NULL: all) */
} trace_job;

static void trace_one(void *arg, size_t item, int worker)
{
    trace_job *job = arg;
    const hpc_dataset *h = job->h;
    const hpc_trace *t = &h->traces[item];
    if (job->only && !job->only[t->prof])
        return;
    double *ns = job->per_worker + (size_t)worker * (h->n_procs + 1);
    hpc_file f = {0};
    pw_error e;
    if (hpc_file_open(&f, h->trace_path, h->big, 256 * 1024, &e) != PW_OK) {
        pw_ds_diag_error(job->ds, PW_SEV_ERROR, "hpctoolkit.bad-trace", &e);
        return;
    }
    hpc_file_count_progress(&f, h);
    uint64_t n = hpc_trace_samples(t), prev_t = 0;
    uint32_t prev_proc = h->n_procs;
    hpc_trace_figures *fig = &job->fig[item];
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *b;
        if (hpc_need(&f, t->start + 12 * i, 12, &b, "trace sample", &e) != PW_OK) {
            pw_ds_diag_error(job->ds, PW_SEV_ERROR, "hpctoolkit.truncated-trace", &e);
            break;
        }
        uint64_t ts = pw_load64(b, f.big);
        uint32_t ctx = pw_load32(b + 8, f.big);
        if (i == 0)
            fig->t_first = ts;
        else if (ts >= prev_t)
            ns[prev_proc] += (double)(ts - prev_t);
        fig->t_last = ts;
        fig->samples++;
        uint32_t proc = hpc_ctx_proc(h, ctx);
        prev_proc = proc == HPC_NONE ? h->n_procs : proc;
        prev_t = ts;
    }
    hpc_file_close(&f);
}

pw_status hpc_trace_time(pw_dataset *ds, const uint8_t *only, hpc_trace_figures *per_trace, double *proc_ns,
                         pw_error *err)
{
    const hpc_dataset *h = ds->impl;
    int workers = pw_parallel_workers(h->n_traces, ds->threads);
    size_t width = (size_t)h->n_procs + 1;
    double *acc = calloc((size_t)(workers > 0 ? workers : 1) * width, sizeof *acc);
    if (!acc)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    memset(per_trace, 0, h->n_traces * sizeof *per_trace);
    trace_job job = {ds, h, per_trace, acc, only};
    pw_parallel_for(h->n_traces, ds->threads, trace_one, &job);
    memset(proc_ns, 0, width * sizeof *proc_ns);
    for (int w = 0; w < workers; w++)
        for (size_t i = 0; i < width; i++)
            proc_ns[i] += acc[(size_t)w * width + i];
    free(acc);
    return PW_OK;
}
