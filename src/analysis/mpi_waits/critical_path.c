/* critical_path.c — the critical path of the run, as Scalasca follows it:
 * from the last MPI_Finalize exit backwards along its rank until the
 * latest wait state there, then on the rank that caused that wait (the
 * late sender, the late receiver, the last to enter a collective, the
 * late root) from the moment the wait ended, and so on until a rank's
 * first call.  Time is continuous along the path, so its length is the
 * run's; what it tells is where the time went: per rank, per function,
 * and "(compute)" between calls.  The critical-path imbalance is the sum
 * over functions of the path's time beyond the mean rank's work in it
 * (work: time in the function less its wait states) — what the run would
 * save if the ranks on the path did only the mean work.  Here the path is
 * walked back over every wait (convert --waits draws it); stats computes
 * the same sums forward (critical_path_forward.c, spread over processes:
 * critical_path_spread.c), and the report takes either. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/critical_path_forward.h"
#include "core/compiler.h"
#include "core/grow.h"
#include "model/filter.h"

static int add_span(mw_rank *rk, int64_t a, int64_t b)
{
    if (b < a)
        return 1;
    if (!pw_grow((void **)&rk->path, rk->n_path, &rk->cap_path, sizeof *rk->path))
        return 0;
    rk->path[rk->n_path++] = (mw_span){a, b};
    return 1;
}

int64_t mw_path_end(const mw_run *run, size_t *slot)
{
    int64_t best = -1;
    int finalized = 0;
    for (size_t i = 0; i < run->n_ranks; i++)
        finalized |= run->ranks[i].finalize_exit >= 0;
    for (size_t i = 0; i < run->n_ranks; i++) {
        const mw_rank *rk = &run->ranks[i];
        int64_t t = finalized ? rk->finalize_exit : rk->t_max >= rk->t_min ? rk->t_max : -1;
        if (t > best) {
            best = t;
            *slot = i;
        }
    }
    return best;
}

/* The last of the first n waits that ends at or before t, or -1 (waits
 * sorted by their end). */
static int64_t wait_before(const mw_rank *rk, uint64_t n, int64_t t)
{
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (rk->waits[mid].resume <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (int64_t)lo - 1;
}

static void reverse_path(mw_rank *rk)
{
    for (uint64_t i = 0, j = rk->n_path; i + 1 < j; i++, j--) {
        mw_span t = rk->path[i];
        rk->path[i] = rk->path[j - 1];
        rk->path[j - 1] = t;
    }
}

int mw_by_resume(const void *a, const void *b)
{
    const mw_wait_at *x = a, *y = b;
    if (x->resume != y->resume)
        return x->resume < y->resume ? -1 : 1;
    if (x->enter != y->enter)
        return x->enter < y->enter ? -1 : 1;
    return (x->cause > y->cause) - (x->cause < y->cause);
}

int mw_critical_path_walk(mw_run *run)
{
    size_t r = 0;
    int64_t t = mw_path_end(run, &r);
    if (t < 0)
        return 1;
    uint64_t *bound = malloc((run->n_ranks ? run->n_ranks : 1) * sizeof *bound);
    if (!bound)
        return 0;
    for (size_t i = 0; i < run->n_ranks; i++) {
        bound[i] = run->ranks[i].n_waits;
        if (run->ranks[i].n_waits)
            qsort(run->ranks[i].waits, run->ranks[i].n_waits, sizeof *run->ranks[i].waits, mw_by_resume);
    }
    int ok = 1;
    for (;;) { /* each step uses up a wait of some rank: it ends */
        mw_rank *rk = &run->ranks[r];
        int64_t i = wait_before(rk, bound[r], t);
        int64_t next = i >= 0 ? mw_cause_slot(run, rk->waits[i].cause) : -1;
        if (next < 0) {
            ok = add_span(rk, rk->t_min, t);
            break;
        }
        if (!(ok = add_span(rk, rk->waits[i].resume, t)))
            break;
        bound[r] = (uint64_t)i;
        t = rk->waits[i].resume;
        r = (size_t)next;
    }
    free(bound);
    for (size_t i = 0; i < run->n_ranks; i++)
        reverse_path(&run->ranks[i]);
    return ok;
}

/* Where the thread's latest call end is kept (a rank's cursor may
 * interleave the records of its threads), ends->n when not yet. */
static size_t thread_index(const mw_thread_ends *ends, uint32_t loc)
{
    size_t i = 0;
    while (i < ends->n && ends->e[i].loc != loc)
        i++;
    return i;
}

int64_t mw_thread_latest_end(const mw_thread_ends *ends, uint32_t loc)
{
    size_t i = thread_index(ends, loc);
    return i < ends->n ? ends->e[i].end : -1;
}

int64_t mw_gap_before(int64_t end, int64_t t) { return end >= 0 && t > end ? t - end : 0; }

/* The latest call end so far on the record's location, made when new;
 * NULL when memory runs out. */
static int64_t *thread_end(mw_thread_ends *ends, uint32_t loc)
{
    size_t i = thread_index(ends, loc);
    if (i < ends->n)
        return &ends->e[i].end;
    if (!pw_grow((void **)&ends->e, ends->n, &ends->cap, sizeof *ends->e))
        return NULL;
    ends->e[ends->n].loc = loc;
    ends->e[ends->n].end = -1;
    return &ends->e[ends->n++].end;
}

/* The time since the previous call of rec's thread ended (0 for its
 * first call, or when they overlap) and where it starts; the thread's end
 * moves to rec's.  -1 when memory runs out. */
static int64_t gap_before(mw_thread_ends *ends, const pw_record *rec, int64_t *from)
{
    if (!rec->has_end || rec->clock != PW_CLOCK_NS || rec->t_end < rec->t)
        return 0;
    int64_t *prev_end = thread_end(ends, rec->location);
    if (!prev_end)
        return -1;
    int64_t gap = mw_gap_before(*prev_end, rec->t);
    *from = *prev_end;
    *prev_end = rec->t_end > *prev_end ? rec->t_end : *prev_end;
    return gap;
}

/* Under a report window: the gap's part in it, and the gap's start, the
 * call's start and end moved into it (mw_clamp).  Out of line: without a
 * window every call takes the plain path. */
static PW_NOINLINE void clamp_call(const mw_rank *rk, uint64_t *gap_ns, int64_t *a, int64_t *t, int64_t *end)
{
    *gap_ns = *gap_ns ? mw_in_window(rk, *a, *t) : 0;
    *a = mw_clamp(rk, *a);
    *t = mw_clamp(rk, *t);
    *end = mw_clamp(rk, *end);
}

void mw_compute_call(mw_rank *rk, const pw_record *rec, mw_thread_ends *ends)
{
    int64_t from = rec->t, gap = gap_before(ends, rec, &from);
    if (gap < 0) {
        rk->failed = 1;
        return;
    }
    uint64_t gap_ns = (uint64_t)gap;
    int64_t a = gap > 0 ? from : rec->t, t = rec->t, end = rec->t_end;
    if (rk->windowed)
        clamp_call(rk, &gap_ns, &a, &t, &end);
    rk->compute_ns += gap_ns;
    if (rk->fwd && rec->has_end && rec->clock == PW_CLOCK_NS && rec->t_end >= rec->t)
        mw_forward_note(rk, a, t, end, rec->schema); /* the call and its gap */
}

static double secs(uint64_t ns) { return (double)ns / 1e9; }

/* The path's time beyond the mean rank's work, for one function. */
static double excess(double on_path_ns, double work_sum_ns, size_t ranks)
{
    double mean = ranks ? work_sum_ns / (double)ranks : 0;
    return on_path_ns > mean ? on_path_ns - mean : 0;
}

static uint64_t rank_on_path(const mw_rank *rk)
{
    uint64_t ns = 0;
    for (uint64_t j = 0; j < rk->n_path; j++)
        ns += mw_in_window(rk, rk->path[j].a, rk->path[j].b);
    return ns;
}

/* The path's time per rank slot, then per function (index n_ranks +
 * n_schemas: compute): as computed forward, or from the walk's spans and
 * the last pass. */
static void path_totals(const mw_run *run, uint64_t *tot)
{
    const uint64_t *forward = mw_forward_totals(run);
    size_t n_fn = run->ds->n_schemas + 1;
    if (forward) {
        memcpy(tot, forward, (run->n_ranks + n_fn) * sizeof *tot);
        return;
    }
    uint64_t *on_fn = tot + run->n_ranks;
    for (size_t i = 0; i < run->n_ranks; i++) {
        const mw_rank *rk = &run->ranks[i];
        tot[i] = rank_on_path(rk);
        on_fn[run->ds->n_schemas] += rk->cp_compute_ns;
        for (size_t s = 0; s < run->ds->n_schemas; s++)
            on_fn[s] += rk->cp_ns[s];
    }
}

/* The path's imbalance from its time per function (index n_schemas:
 * compute). */
static double path_imbalance(const mw_run *run, const uint64_t *on_fn)
{
    uint64_t compute_work = 0;
    for (size_t i = 0; i < run->n_ranks; i++)
        compute_work += run->ranks[i].compute_ns;
    double imbalance = excess((double)on_fn[run->ds->n_schemas], (double)compute_work, run->n_ranks);
    for (size_t s = 0; s < run->ds->n_schemas; s++) {
        uint64_t work = 0;
        for (size_t i = 0; i < run->n_ranks; i++)
            work += run->ranks[i].time_ns[s] - run->ranks[i].wait_ns[s];
        imbalance += excess((double)on_fn[s], (double)work, run->n_ranks);
    }
    return imbalance;
}

static const char *fn_name(const mw_run *run, size_t s)
{
    return s < run->ds->n_schemas ? run->ds->schemas[s]->name : "(compute)";
}

void mw_report_critical_path(const mw_run *run, pw_rnode *root, pw_rnode *summary)
{
    uint64_t *tot = calloc(run->n_ranks + run->ds->n_schemas + 1, sizeof *tot), length = 0;
    if (!tot)
        return;
    path_totals(run, tot);
    const uint64_t *on_fn = tot + run->n_ranks;
    double imbalance = path_imbalance(run, on_fn);
    for (size_t i = 0; i < run->n_ranks; i++)
        length += tot[i];
    pw_rnode *o = pw_rnode_object(root, "critical_path");
    pw_rnode_num(o, "length_s", secs(length));
    pw_rnode_num(o, "imbalance_s", imbalance / 1e9);
    pw_rnode *by_rank = pw_rnode_array(root, "critical_path_ranks");
    for (size_t i = 0; i < run->n_ranks; i++) {
        const mw_rank *rk = &run->ranks[i];
        if (!rk->reported)
            continue;
        pw_rnode *row = pw_rnode_object(by_rank, NULL);
        pw_rnode_int(row, "rank", rk->rank);
        pw_rnode_num(row, "time_s", secs(tot[i]));
        pw_rnode_num(row, "share_pct", length ? 100.0 * (double)tot[i] / (double)length : 0);
    }
    size_t top = run->ds->n_schemas; /* what the path spends most in: computation first on ties */
    for (size_t s = 0; s < run->ds->n_schemas; s++)
        top = on_fn[s] > on_fn[top] ? s : top;
    pw_rnode_str(summary, "critical_path_top", fn_name(run, top));
    pw_rnode_num(summary, "critical_path_top_pct", length ? 100.0 * (double)on_fn[top] / (double)length : 0);
    pw_rnode *by_fn = pw_rnode_array(root, "critical_path_functions");
    for (size_t k = 0; k <= run->ds->n_schemas; k++) {
        size_t s = k ? k - 1 : run->ds->n_schemas; /* compute first */
        if (s < run->ds->n_schemas && (!on_fn[s] || !pw_selection_keeps_type(run->ds, run->ds->schemas[s]->name)))
            continue;
        pw_rnode *row = pw_rnode_object(by_fn, NULL);
        pw_rnode_str(row, "function", fn_name(run, s));
        pw_rnode_num(row, "time_s", secs(on_fn[s]));
        pw_rnode_num(row, "share_pct", length ? 100.0 * (double)on_fn[s] / (double)length : 0);
    }
    free(tot);
}
