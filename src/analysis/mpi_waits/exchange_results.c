/* exchange_results.c — the end of a replay spread over processes
 * (exchange.h): the last rounds settle the critical path on share 0
 * (critical_path_spread.h), which then gathers, per rank of the others,
 * the tables the report shows (calls, time, waits per function and kind,
 * idle and compute time, MPI_Finalize exit) and keeps the path's totals
 * from its end; the time bins are summed over processes (integers:
 * exact in any order).  Buffers are 64-bit words. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/critical_path_forward.h"
#include "analysis/mpi_waits/exchange.h"
#include "core/grow.h"

typedef struct words {
    uint64_t *w;
    size_t n, cap;
    int failed;
} words;

static void put(words *b, uint64_t x)
{
    if (!b->failed && pw_grow((void **)&b->w, b->n, &b->cap, sizeof *b->w))
        b->w[b->n++] = x;
    else
        b->failed = 1;
}

/* What came, read word by word; `bad` once a read would pass the end. */
typedef struct reader {
    const unsigned char *p;
    size_t n, at;
    int bad;
} reader;

static uint64_t get(reader *r)
{
    uint64_t x = 0;
    if (r->at + sizeof x > r->n) {
        r->bad = 1;
        return 0;
    }
    memcpy(&x, r->p + r->at, sizeof x);
    r->at += sizeof x;
    return x;
}

/* The rank a slot word names, or NULL (bad). */
static mw_rank *slot_rank(mw_run *run, reader *r)
{
    uint64_t slot = get(r);
    if (r->bad || slot >= run->n_ranks) {
        r->bad = 1;
        return NULL;
    }
    return &run->ranks[slot];
}

/* A count of items of `words_each` words that fits what is left. */
static uint64_t get_count(reader *r, size_t words_each)
{
    uint64_t n = get(r);
    if (n > (r->n - r->at) / (words_each * sizeof(uint64_t)))
        r->bad = 1;
    return r->bad ? 0 : n;
}

/* Buffers to processes: one to share 0 (gather), or one per process
 * (from share 0); what came, in *got (its bytes in *n).  0 when any
 * process failed (every process calls it). */
static int send_words(mw_run *run, const words *to, int to_all, void **got, size_t *n)
{
    mw_exchange *ex = run->ex;
    size_t *sizes = calloc(2 * (size_t)ex->procs, sizeof *sizes), total = 0;
    int failed = !sizes;
    for (unsigned q = 0; sizes && q < ex->procs; q++) {
        const words *b = to_all ? &to[q] : q == 0 ? to : NULL;
        failed |= b && b->failed;
        total += sizes[q] = b && !failed && q != ex->me ? b->n * sizeof *b->w : 0;
    }
    unsigned char *send = total ? malloc(total) : NULL;
    failed |= total && !send;
    for (unsigned q = 0, at = 0; send && q < ex->procs; at += (unsigned)sizes[q++])
        if (sizes[q])
            memcpy(send + at, (to_all ? &to[q] : to)->w, sizes[q]);
    uint64_t f = failed != 0;
    mw_exchange_sum(run, &f, 1);
    int ok = !f;
    *got = NULL;
    *n = 0;
    if (ok)
        ok = mw_exchange_bytes(run, send, sizes, got, sizes + ex->procs);
    for (unsigned q = 0; ok && q < ex->procs; q++)
        *n += sizes[ex->procs + q];
    free(send);
    free(sizes);
    return ok;
}

/* A rank's tables. */
static void put_tables(const mw_run *run, const mw_rank *rk, words *b)
{
    put(b, (uint64_t)(rk - run->ranks));
    put(b, (uint64_t)rk->finalize_exit);
    put(b, rk->idle_ns);
    put(b, rk->compute_ns);
    for (int k = 0; k < MW_N_WAITS; k++)
        put(b, rk->wait_total[k]);
    uint64_t fns = 0;
    for (size_t s = 0; s < run->ds->n_schemas; s++)
        fns += rk->seen[s] || rk->calls[s];
    put(b, fns);
    for (size_t s = 0; s < run->ds->n_schemas; s++) {
        if (!rk->seen[s] && !rk->calls[s])
            continue;
        put(b, s);
        put(b, rk->seen[s]);
        put(b, rk->calls[s]);
        put(b, rk->time_ns[s]);
        put(b, rk->wait_ns[s]);
        for (int k = 0; k < MW_N_WAITS; k++)
            put(b, rk->wait_fn[k][s]);
    }
}

static void get_tables(mw_run *run, reader *r)
{
    mw_rank *rk = slot_rank(run, r);
    if (!rk)
        return;
    rk->finalize_exit = (int64_t)get(r);
    rk->idle_ns = get(r);
    rk->compute_ns = get(r);
    for (int k = 0; k < MW_N_WAITS; k++)
        rk->wait_total[k] = get(r);
    for (uint64_t i = 0, n = get_count(r, 10); i < n && !r->bad; i++) {
        uint64_t s = get(r);
        if (s >= run->ds->n_schemas) {
            r->bad = 1;
            break;
        }
        rk->seen[s] = get(r) != 0;
        rk->calls[s] = get(r);
        rk->time_ns[s] = get(r);
        rk->wait_ns[s] = get(r);
        for (int k = 0; k < MW_N_WAITS; k++)
            rk->wait_fn[k][s] = get(r);
    }
}

/* Share 0 gets every other process's ranks' tables. */
static int gather_tables(mw_run *run)
{
    words b = {0};
    for (size_t i = 0; run->ex->me && i < run->n_ranks; i++)
        if (run->ranks[i].mine)
            put_tables(run, &run->ranks[i], &b);
    void *got;
    size_t n;
    int ok = send_words(run, &b, 0, &got, &n);
    reader r = {got, n, 0, 0};
    while (ok && r.at < r.n && !r.bad)
        get_tables(run, &r);
    free(got);
    free(b.w);
    return ok && !r.bad;
}

/* The bins of every process summed (rows of the functions some process
 * has, then their integers). */
static int sum_bins(mw_run *run)
{
    mw_bins_sum_workers(run);
    mw_bins *b = &run->bins[0];
    size_t n_fn = run->ds->n_schemas, bins = b->n;
    uint64_t *has = calloc(n_fn ? n_fn : 1, sizeof *has);
    for (size_t s = 0; has && s < n_fn; s++)
        has[s] = b->fn[s] != NULL;
    uint64_t f = !has;
    mw_exchange_sum(run, &f, 1);
    if (f) {
        free(has);
        return 0;
    }
    mw_exchange_sum(run, has, n_fn);
    size_t rows = 0;
    for (size_t s = 0; s < n_fn; s++)
        rows += has[s] != 0;
    size_t per_row = bins * 3, n = rows * per_row + 2 * bins;
    uint64_t *v = calloc(n ? n : 1, sizeof *v);
    for (size_t s = 0, row = 0; v && s < n_fn; s++) {
        if (!has[s])
            continue;
        if (!b->fn[s] && !(b->fn[s] = calloc(bins, sizeof *b->fn[s]))) {
            free(v);
            v = NULL;
            break;
        }
        for (size_t i = 0; i < bins; i++) {
            v[row * per_row + 3 * i] = (uint64_t)b->fn[s][i].ns;
            v[row * per_row + 3 * i + 1] = b->fn[s][i].hi_edges;
            v[row * per_row + 3 * i + 2] = b->fn[s][i].lo_edges;
        }
        row++;
    }
    f = !v;
    mw_exchange_sum(run, &f, 1);
    if (!f) {
        memcpy(v + rows * per_row, b->msgs, bins * sizeof *v);
        memcpy(v + rows * per_row + bins, b->bytes, bins * sizeof *v);
        mw_exchange_sum(run, v, n); /* sums of integers: any order gives these */
        for (size_t s = 0, row = 0; s < n_fn; s++) {
            if (!has[s])
                continue;
            for (size_t i = 0; i < bins; i++)
                b->fn[s][i] = (mw_bin_sum){(int64_t)v[row * per_row + 3 * i], v[row * per_row + 3 * i + 1],
                                           v[row * per_row + 3 * i + 2]};
            row++;
        }
        memcpy(b->msgs, v + rows * per_row, bins * sizeof *v);
        memcpy(b->bytes, v + rows * per_row + bins, bins * sizeof *v);
    }
    free(v);
    free(has);
    return !f;
}

/* Whether every process got through a step (each calls it after each). */
static int all_ok(mw_run *run, int ok)
{
    uint64_t f = !ok;
    mw_exchange_sum(run, &f, 1);
    return !f;
}

/* Whether this process's ranks replayed and read without failing. */
static int ranks_ok(const mw_run *run)
{
    for (size_t i = 0; i < run->n_ranks; i++)
        if (run->ranks[i].mine && run->ranks[i].failed)
            return 0;
    return 1;
}

int mw_exchange_results(mw_run *run)
{
    if (!all_ok(run, mw_exchange_final(run)))
        return 0;
    int ok = gather_tables(run);
    return all_ok(run, ok && ranks_ok(run) && (run->ex->me || mw_forward_end(run))) && sum_bins(run);
}
