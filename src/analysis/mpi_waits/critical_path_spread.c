/* critical_path_spread.c — the forward critical path across processes
 * (critical_path_spread.h): questions, answers and share 0's settling. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/critical_path_forward.h"
#include "analysis/mpi_waits/critical_path_spread.h"
#include "core/grow.h"

/* A question to this process: rank slot's sums at t. */
typedef struct sp_ask {
    int64_t t;
    size_t slot;
} sp_ask;

/* One number of an answer (share 0): S' of rank slot at t, entry k. */
typedef struct sp_sum {
    int64_t t;
    size_t slot, k;
    uint64_t value;
} sp_sum;

struct mw_spread {
    sp_ask *asks; /* questions not answered yet */
    size_t n_asks, cap_asks;
    sp_sum *sums; /* share 0: answers not used yet, sorted at settling */
    size_t n_sums, cap_sums;
    uint8_t *fin_asked; /* per rank slot: its MPI_Finalize exit asked about */
    size_t *k;          /* scratch: one answer's non-zero numbers (index, value) */
    uint64_t *v;
    int64_t f_last;     /* share 0: the last round's frontier */
};

/* A question kept for this process's sweep. */
static int ask_here(mw_spread *sp, size_t slot, int64_t t)
{
    if (!pw_grow((void **)&sp->asks, sp->n_asks, &sp->cap_asks, sizeof *sp->asks))
        return 0;
    sp->asks[sp->n_asks++] = (sp_ask){t, slot};
    return 1;
}

/* A question to the owner of rank slot, here or queued. */
static int ask(mw_run *run, size_t slot, int64_t t)
{
    mw_exchange *ex = run->ex;
    if (ex->owner[slot] == ex->me)
        return ask_here(ex->spread, slot, t);
    mw_xrec r = {MW_X_ASK, 0, (uint32_t)slot, 0, 0, (uint64_t)t, 0};
    mw_exchange_queue(run, ex->owner[slot], &r);
    return 1;
}

int mw_spread_init(mw_run *run)
{
    mw_spread *sp = calloc(1, sizeof *sp);
    if (!(run->ex->spread = sp))
        return 0;
    sp->f_last = INT64_MIN;
    if (!(sp->fin_asked = calloc(run->n_ranks ? run->n_ranks : 1, 1)) || !(sp->k = calloc(mw_forward_width(run), sizeof *sp->k)) ||
        !(sp->v = calloc(mw_forward_width(run), sizeof *sp->v)))
        return 0;
    for (size_t i = 0; i < run->n_ranks; i++) /* a path's possible end: t_max (census) */
        if (run->ranks[i].mine && run->ranks[i].t_max >= run->ranks[i].t_min && !ask_here(sp, i, run->ranks[i].t_max))
            return 0;
    return 1;
}

void mw_spread_free(mw_run *run)
{
    mw_spread *sp = run->ex->spread;
    if (!sp)
        return;
    free(sp->asks);
    free(sp->sums);
    free(sp->fin_asked);
    free(sp->k);
    free(sp->v);
    free(sp);
    run->ex->spread = NULL;
}

/* The questions of rank i's waits charged since the last round, and of
 * its MPI_Finalize exit once passed. */
static int ask_for_rank(mw_run *run, size_t i)
{
    mw_rank *rk = &run->ranks[i];
    size_t *asked = mw_forward_asked(rk);
    int ok = 1;
    for (; ok && *asked < rk->n_waits; ++*asked) {
        const mw_wait_at *w = &rk->waits[*asked];
        int64_t c = mw_cause_slot(run, w->cause);
        ok = ask_here(run->ex->spread, i, w->resume) && (c < 0 || ask(run, (size_t)c, w->resume));
    }
    if (ok && rk->finalize_exit >= 0 && !run->ex->spread->fin_asked[i]) {
        run->ex->spread->fin_asked[i] = 1;
        ok = ask_here(run->ex->spread, i, rk->finalize_exit);
        mw_xrec r = {MW_X_FIN, 0, (uint32_t)i, 0, 0, (uint64_t)rk->finalize_exit, 0};
        if (ok && run->ex->me)
            mw_exchange_queue(run, 0, &r);
    }
    return ok;
}

int64_t mw_spread_start(mw_run *run, int final)
{
    int64_t f = mw_forward_frontier(run, final); /* before the waits it bounds are asked about */
    for (size_t i = 0; i < run->n_ranks; i++)
        if (run->ranks[i].mine && !ask_for_rank(run, i))
            run->ex->failed = 1;
    return f;
}

void mw_spread_arrived(mw_run *run, const mw_xrec *r)
{
    mw_spread *sp = run->ex->spread;
    if (r->a >= run->n_ranks)
        return; /* never sent so */
    if (r->kind == MW_X_ASK && run->ranks[r->a].mine) {
        if (!ask_here(sp, r->a, (int64_t)r->seq))
            run->ex->failed = 1;
    } else if (r->kind == MW_X_FIN && !run->ex->me) {
        run->ranks[r->a].finalize_exit = (int64_t)r->seq; /* what gather_tables brings again */
    } else if (r->kind == MW_X_SUM && !run->ex->me && r->b < mw_forward_width(run)) {
        if (!pw_grow((void **)&sp->sums, sp->n_sums, &sp->cap_sums, sizeof *sp->sums)) {
            run->ex->failed = 1;
            return;
        }
        sp->sums[sp->n_sums++] = (sp_sum){(int64_t)r->seq, r->a, r->b, r->t};
        mw_forward_use(run, r->b);
    }
}

static int by_ask(const void *a, const void *b)
{
    const sp_ask *x = a, *y = b;
    if (x->slot != y->slot)
        return x->slot < y->slot ? -1 : 1;
    return (x->t > y->t) - (x->t < y->t);
}

/* One answer's non-zero numbers, kept (share 0) or queued for share 0. */
static int answer(mw_run *run, size_t slot, int64_t t)
{
    mw_spread *sp = run->ex->spread;
    int ok = 1;
    size_t n = mw_forward_sums(run, slot, t, sp->k, sp->v, &ok);
    for (size_t j = 0; ok && j < n; j++) {
        if (run->ex->me) {
            mw_xrec r = {MW_X_SUM, 0, (uint32_t)slot, (uint32_t)sp->k[j], 0, (uint64_t)t, sp->v[j]};
            mw_exchange_queue(run, 0, &r);
        } else if (pw_grow((void **)&sp->sums, sp->n_sums, &sp->cap_sums, sizeof *sp->sums)) {
            sp->sums[sp->n_sums++] = (sp_sum){t, slot, sp->k[j], sp->v[j]};
        } else {
            ok = 0;
        }
    }
    return ok;
}

/* The questions before f answered in each rank's time order (its sweep
 * only moves on), once each; the later ones kept. */
static int answer_before(mw_run *run, int64_t f)
{
    mw_spread *sp = run->ex->spread;
    if (sp->n_asks)
        qsort(sp->asks, sp->n_asks, sizeof *sp->asks, by_ask);
    int ok = 1;
    size_t kept = 0;
    for (size_t j = 0; j < sp->n_asks; j++) {
        const sp_ask *a = &sp->asks[j];
        if (a->t >= f)
            sp->asks[kept++] = *a;
        else if (ok && !(j && a->slot == sp->asks[j - 1].slot && a->t == sp->asks[j - 1].t))
            ok = answer(run, a->slot, a->t);
    }
    sp->n_asks = kept;
    return ok && mw_forward_release(run, f);
}

static int by_sum(const void *a, const void *b)
{
    const sp_sum *x = a, *y = b;
    if (x->slot != y->slot)
        return x->slot < y->slot ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/* Share 0: the answers used by the settling before f let go. */
static void drop_sums_before(mw_spread *sp, int64_t f)
{
    size_t kept = 0;
    for (size_t j = 0; j < sp->n_sums; j++)
        if (sp->sums[j].t >= f)
            sp->sums[kept++] = sp->sums[j];
    sp->n_sums = kept;
}

int mw_spread_end(mw_run *run, int64_t f)
{
    mw_spread *sp = run->ex->spread;
    if (!answer_before(run, f))
        return 0;
    if (run->ex->me)
        return 1;
    int64_t settle = sp->f_last; /* every answer before it has come */
    sp->f_last = f;
    if (sp->n_sums)
        qsort(sp->sums, sp->n_sums, sizeof *sp->sums, by_sum);
    int ok = mw_forward_settle_before(run, sp, settle);
    drop_sums_before(sp, settle);
    return ok;
}

uint64_t mw_spread_sums(const mw_spread *sp, size_t slot, int64_t t, uint64_t *fn, size_t ranks, size_t n_fn)
{
    memset(fn, 0, n_fn * sizeof *fn);
    uint64_t own = 0;
    size_t lo = 0, hi = sp->n_sums;
    sp_sum key = {t, slot, 0, 0};
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (by_sum(&sp->sums[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < sp->n_sums && sp->sums[lo].slot == slot && sp->sums[lo].t == t; lo++) {
        const sp_sum *s = &sp->sums[lo];
        if (s->k >= ranks)
            fn[s->k - ranks] = s->value;
        else if (s->k == slot) /* an answer's only rank number */
            own = s->value;
    }
    return own;
}
