/* critical_path_forward.c — the critical path without keeping the waits
 * (critical_path_forward.h).  Vectors hold the path's time per rank slot,
 * then per function (schemas, compute last); sums are modulo 2^64, so a
 * G (a path's sums less a running sum) may wrap and still add up exactly.
 * Same answer as the walk of critical_path.c, integer for integer. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/critical_path_forward.h"
#include "analysis/mpi_waits/critical_path_spread.h"
#include "core/grow.h"

/* A timed call of a rank: the gap before it [from, t] (from == t: none),
 * then the call [t, end] in function fn. */
typedef struct fw_span {
    int64_t from, t, end;
    uint32_t fn;
} fw_span;

/* A rank's part: its spans since the sweep, the sums before it, its G. */
struct mw_fwd_rank {
    fw_span *log; /* calls not swept yet: [head, n), by start */
    size_t head, n, cap;
    fw_span *act; /* begun before the sweep's time, ending after it */
    size_t n_act, cap_act;
    uint64_t *full;  /* per function: spans ended by the sweep's time (own ranks only) */
    uint64_t *below; /* per function: the spans' time before t_min (own ranks only) */
    int64_t gap_a, gap_b; /* the held record's gap, noted when it is handled */
    uint32_t compute;     /* the compute gaps' function */
    int64_t t_min;
    uint64_t *g;      /* G of the latest settled wait; NULL: none, or a cause outside
                       * the dataset (the path starts here) */
    uint64_t *g_next; /* the group's new G, when a walk of the group reads g */
    int via;          /* this group: how its new G is made (fw_via) */
    size_t via_slot;  /* ... from the path on this rank at the group's time */
    uint64_t read_in; /* the group in which a walk reads g */
    size_t idx, settled;  /* this pass: the next wait to settle, the waits it settles */
    size_t asked;         /* spread: the waits whose sums are asked for (the first ones) */
    uint64_t bound, stamp; /* the short walk's bound on the rank's waits at one time */
    int64_t fin_t;         /* the MPI_Finalize exit evaluated, -1: none yet */
    int max_done;          /* t_max evaluated */
};

/* How a rank's new G is made from its last wait at a time t: none (its
 * cause is outside the dataset), or from the path at t on the rank where
 * the short walk ends, which starts there (the walk met such a cause) or
 * goes on by that rank's G. */
enum fw_via { VIA_NONE, VIA_START, VIA_FROM };

/* The best possible end of the path so far (the latest; at one time the
 * lowest rank slot, as mw_path_end picks) and the path's sums from it. */
typedef struct fw_end {
    int64_t t;
    size_t slot;
    uint64_t *sums;
} fw_end;

/* A wait to settle: when it ends and whose it is. */
typedef struct fw_key {
    int64_t resume;
    size_t slot;
} fw_key;

struct mw_forward {
    size_t d, n_fn;     /* vectors: n_ranks + n_fn numbers */
    uint32_t *used;     /* the functions some sum has, in the order met: */
    size_t n_used;      /* vectors are 0 at every other function */
    uint8_t *is_used;
    uint64_t *f1, *f2;  /* scratch: sums per function */
    uint64_t **spare;   /* G vectors no rank holds, to reuse */
    size_t n_spare, cap_spare;
    fw_end fin, max;    /* among the MPI_Finalize exits, among the t_max */
    fw_key *keys;
    size_t cap_keys;
    uint64_t stamp, group;
    int64_t next_target; /* the earliest rank target not evaluated */
    int64_t f_settled;   /* the frontier of the latest settling (serial) */
    uint64_t *totals;    /* the path from its end, once finished */
    const mw_spread *spread; /* share 0 of a spread replay: the sums come from the owners */
    int64_t sel_t0, sel_t1;  /* the report window: own times are moved into it */
};

typedef struct mw_fwd_rank fw_rank;
typedef struct mw_forward mw_forward;

static uint64_t *vec(size_t n) { return calloc(n ? n : 1, sizeof(uint64_t)); }

/* A rank's own time at t, moved into the report window (the spans are
 * noted so: mw_clamp), so that every sum is the window's part of the path. */
static int64_t own_at(const mw_forward *fw, int64_t t)
{
    return t < fw->sel_t0 ? fw->sel_t0 : t > fw->sel_t1 ? fw->sel_t1 : t;
}

int mw_forward_init(mw_run *run)
{
    mw_forward *fw = calloc(1, sizeof *fw);
    if (!(run->fwd = fw))
        return 0;
    fw->n_fn = run->ds->n_schemas + 1;
    fw->f_settled = INT64_MIN;
    fw->sel_t0 = run->sel_t0;
    fw->sel_t1 = run->sel_t1;
    fw->d = run->n_ranks + fw->n_fn;
    fw->fin.t = fw->max.t = -1;
    int ok = (fw->f1 = vec(fw->n_fn)) && (fw->f2 = vec(fw->n_fn)) && (fw->used = calloc(fw->n_fn, sizeof *fw->used)) &&
             (fw->is_used = calloc(fw->n_fn, 1)) && (fw->fin.sums = vec(fw->d)) && (fw->max.sums = vec(fw->d));
    for (size_t i = 0; ok && i < run->n_ranks; i++) {
        fw_rank *fr = calloc(1, sizeof *fr);
        if (!(run->ranks[i].fwd = fr))
            return 0;
        fr->compute = (uint32_t)run->ds->n_schemas;
        fr->t_min = run->ranks[i].t_min;
        fr->fin_t = -1;
        /* a G is made when the rank's first wait is settled; sums only where its spans are */
        ok = !run->ranks[i].mine || ((fr->full = vec(fw->n_fn)) && (fr->below = vec(fw->n_fn)));
    }
    return ok;
}

/* A vector for a new G: a spare one (every number a G holds is written
 * when it is made: the others are 0 in every vector), else a new one;
 * NULL when memory runs out. */
static uint64_t *take(mw_forward *fw) { return fw->n_spare ? fw->spare[--fw->n_spare] : vec(fw->d); }

/* A G no rank holds any more, kept to reuse (freed when there is no room). */
static void give(mw_forward *fw, uint64_t *g)
{
    if (g && fw->n_spare == fw->cap_spare && !pw_grow((void **)&fw->spare, fw->n_spare, &fw->cap_spare, sizeof *fw->spare))
        free(g);
    else if (g)
        fw->spare[fw->n_spare++] = g;
}

/* The part of [a, b] before t. */
static uint64_t clip(int64_t a, int64_t b, int64_t t)
{
    int64_t e = b < t ? b : t;
    return e > a ? (uint64_t)(e - a) : 0;
}

void mw_forward_note(mw_rank *rk, int64_t from, int64_t t, int64_t end, uint32_t fn)
{
    fw_rank *fr = rk->fwd;
    if (from == t && end == t)
        return; /* adds nothing to any sum */
    if (from < fr->t_min) { /* the path's first span starts at t_min */
        fr->below[fr->compute] += clip(from, t, fr->t_min);
        fr->below[fn] += clip(t, end, fr->t_min);
    }
    if (fr->n == fr->cap && !pw_grow((void **)&fr->log, fr->n, &fr->cap, sizeof *fr->log)) {
        rk->failed = 1;
        return;
    }
    fr->log[fr->n++] = (fw_span){from, t, end, fn};
}

/* The function's sums may be non-zero from now on. */
static void use(mw_forward *fw, uint32_t fn)
{
    if (!fw->is_used[fn]) {
        fw->is_used[fn] = 1;
        fw->used[fw->n_used++] = fn;
    }
}

/* The rank's calls (with their gaps) begun by t made active, those ended
 * by t summed. */
static int sweep_to(mw_forward *fw, fw_rank *fr, int64_t t)
{
    for (; fr->head < fr->n && fr->log[fr->head].from < t; fr->head++) {
        const fw_span *e = &fr->log[fr->head];
        use(fw, fr->compute);
        use(fw, e->fn);
        if (e->end <= t) { /* the common case: over before t */
            fr->full[fr->compute] += (uint64_t)(e->t - e->from);
            fr->full[e->fn] += (uint64_t)(e->end - e->t);
            continue;
        }
        if (fr->n_act == fr->cap_act && !pw_grow((void **)&fr->act, fr->n_act, &fr->cap_act, sizeof *fr->act))
            return 0;
        fr->act[fr->n_act++] = *e;
    }
    for (size_t j = 0; j < fr->n_act;) {
        const fw_span *e = &fr->act[j];
        if (e->end > t) {
            j++;
            continue;
        }
        fr->full[fr->compute] += (uint64_t)(e->t - e->from);
        fr->full[e->fn] += (uint64_t)(e->end - e->t);
        fr->act[j] = fr->act[--fr->n_act];
    }
    return 1;
}

/* S_r(t): the rank's running sums at t (the sweep moves to t), per
 * function; its own time is t. */
static void running_sums(mw_forward *fw, fw_rank *fr, int64_t t, uint64_t *fn, int *ok)
{
    *ok &= sweep_to(fw, fr, t);
    for (size_t u = 0; u < fw->n_used; u++)
        fn[fw->used[u]] = fr->full[fw->used[u]];
    for (size_t j = 0; j < fr->n_act; j++) {
        fn[fr->compute] += clip(fr->act[j].from, fr->act[j].t, t);
        fn[fr->act[j].fn] += clip(fr->act[j].t, fr->act[j].end, t);
    }
    if (fr->gap_b > fr->gap_a && fr->gap_a < t) {
        use(fw, fr->compute);
        fn[fr->compute] += clip(fr->gap_a, fr->gap_b, t);
    }
}

/* The running sums less those at t_min (S' of docs/mpi-analyses.md):
 * returns the own time less t_min, fn lessened in place. */
static uint64_t less_start(const mw_forward *fw, const fw_rank *fr, uint64_t own, uint64_t *fn)
{
    for (size_t u = 0; u < fw->n_used; u++) /* a function below t_min is swept by t */
        fn[fw->used[u]] -= fr->below[fw->used[u]];
    return own - (uint64_t)own_at(fw, fr->t_min);
}

/* The sums the settling adds at (slot, t): S, or on share 0 of a spread
 * replay the owner's S' (the shift cancels in S + G).  Returns the rank's
 * own time; fn: per function. */
static uint64_t sums_at(mw_forward *fw, fw_rank *fr, size_t slot, int64_t t, uint64_t *fn, int *ok)
{
    if (fw->spread)
        return mw_spread_sums(fw->spread, slot, t, fn, fw->d - fw->n_fn, fw->n_fn);
    running_sums(fw, fr, t, fn, ok);
    return (uint64_t)own_at(fw, t);
}

/* The path from (slot, t) back as *g + (own time, fn): with the rank's G
 * (*g: its latest wait before t), or, when it has none or `start`, the
 * path staying on the rank to its first call ([t_min, t], nothing when t
 * is before it; *g NULL). */
static uint64_t path_sums(mw_forward *fw, fw_rank *fr, size_t slot, int64_t t, int start, uint64_t *fn,
                          const uint64_t **g, int *ok)
{
    *g = start ? NULL : fr->g;
    if (!*g && t < fr->t_min) {
        for (size_t u = 0; u < fw->n_used; u++)
            fn[fw->used[u]] = 0;
        return 0;
    }
    uint64_t own = sums_at(fw, fr, slot, t, fn, ok);
    return *g || fw->spread ? own : less_start(fw, fr, own, fn);
}

/* One part of a vector: a G (NULL: none), then a rank's own time at its
 * slot and its sums per function. */
typedef struct fw_part {
    const uint64_t *g;
    size_t slot;
    uint64_t own;
    const uint64_t *fn;
} fw_part;

/* out = a - b (b.g unused), over the numbers that may be non-zero: the
 * ranks' part copied from a's G (the sums touch one rank each), the
 * functions added. */
static void combine(const mw_forward *fw, uint64_t *out, const fw_part *a, const fw_part *b)
{
    size_t ranks = fw->d - fw->n_fn;
    if (a->g)
        memcpy(out, a->g, ranks * sizeof *out);
    else
        memset(out, 0, ranks * sizeof *out);
    out[a->slot] += a->own;
    if (b)
        out[b->slot] -= b->own;
    for (size_t u = 0; u < fw->n_used; u++) {
        size_t k = fw->used[u];
        out[ranks + k] = (a->g ? a->g[ranks + k] : 0) + a->fn[k] - (b ? b->fn[k] : 0);
    }
}

/* out = the path from (slot, t) back (start: staying on the rank). */
static void path_into(mw_forward *fw, fw_rank *fr, size_t slot, int64_t t, int start, uint64_t *out, int *ok)
{
    fw_part p = {NULL, slot, 0, fw->f1};
    p.own = path_sums(fw, fr, slot, t, start, fw->f1, &p.g, ok);
    combine(fw, out, &p, NULL);
}

/* The rank slot a wait's cause names, or -1 (outside the dataset: the path
 * starts on the waiting rank). */
int64_t mw_cause_slot(const mw_run *run, int64_t cause)
{
    if (cause < 0 || (size_t)cause >= run->n_world)
        return -1;
    return run->rank_slot[cause];
}

/* The rank's waits ending at t among those this pass settles, from idx. */
static uint64_t waits_at(const mw_rank *rk, int64_t t)
{
    const fw_rank *fr = rk->fwd;
    uint64_t n = 0;
    while (fr->idx + n < fr->settled && rk->waits[fr->idx + n].resume == t)
        n++;
    return n;
}

/* Where the path from rank `slot` at t goes on, the waits at t used by
 * this walk excluded (the walk's bounds: a wait is used once, so a cycle
 * of waits at one time ends at a wait before it): the rank it stays on,
 * and whether the path starts there (*via). */
static size_t walk_end(mw_run *run, size_t slot, int64_t t, int *via)
{
    mw_forward *fw = run->fwd;
    for (;;) {
        mw_rank *rk = &run->ranks[slot];
        fw_rank *fr = rk->fwd;
        uint64_t n = fr->stamp == fw->stamp ? fr->bound : waits_at(rk, t);
        *via = VIA_FROM;
        if (!n)
            return slot;
        fr->stamp = fw->stamp;
        fr->bound = n - 1;
        int64_t next = mw_cause_slot(run, rk->waits[fr->idx + n - 1].cause);
        *via = VIA_START;
        if (next < 0)
            return slot;
        slot = (size_t)next;
    }
}

/* The short walk of the rank's last of n waits ending at t, the rank it
 * ends on marked when its G is read (that G is then kept until the
 * group's every new G is made). */
static void plan_rank(mw_run *run, size_t slot, uint64_t n, int64_t t)
{
    mw_forward *fw = run->fwd;
    mw_rank *rk = &run->ranks[slot];
    fw_rank *fr = rk->fwd;
    int64_t cause = mw_cause_slot(run, rk->waits[fr->idx + n - 1].cause);
    fr->via = VIA_NONE;
    if (cause < 0)
        return;
    fw->stamp++;
    fr->stamp = fw->stamp;
    fr->bound = n - 1;
    fr->via_slot = walk_end(run, (size_t)cause, t, &fr->via);
    if (fr->via == VIA_FROM)
        run->ranks[fr->via_slot].fwd->read_in = fw->group;
}

/* The rank's new G from its walk (plan_rank): in place, or aside
 * (g_next) when a walk of the group reads the old one. */
static void settle_rank(mw_run *run, size_t slot, int64_t t, int *ok)
{
    mw_forward *fw = run->fwd;
    fw_rank *fr = run->ranks[slot].fwd;
    int aside = fr->read_in == fw->group;
    fr->g_next = NULL;
    if (fr->via == VIA_NONE) { /* the path starts on the rank */
        if (!aside) {
            give(fw, fr->g);
            fr->g = NULL;
        }
        return;
    }
    uint64_t **g = aside ? &fr->g_next : &fr->g;
    if (!*g && !(*g = take(fw))) {
        *ok = 0;
        return;
    }
    fw_part from = {NULL, fr->via_slot, 0, fw->f1}, here = {NULL, slot, 0, fw->f2};
    from.own = path_sums(fw, run->ranks[fr->via_slot].fwd, fr->via_slot, t, fr->via == VIA_START, fw->f1, &from.g, ok);
    here.own = sums_at(fw, fr, slot, t, fw->f2, ok);
    combine(fw, *g, &from, &here);
}

/* The path from (slot, t) back kept when it beats the best end so far. */
static void end_at(mw_forward *fw, fw_end *best, fw_rank *fr, size_t slot, int64_t t, int *ok)
{
    if (t > best->t || (t == best->t && t >= 0 && slot <= best->slot)) {
        path_into(fw, fr, slot, t, 0, best->sums, ok);
        best->t = t;
        best->slot = slot;
    }
}

/* The path from each rank's possible ends (its MPI_Finalize exit, its
 * t_max) before t, once every wait ending by them is settled. */
static void targets_before(mw_run *run, int64_t t, int *ok)
{
    mw_forward *fw = run->fwd;
    if (fw->next_target >= t)
        return;
    fw->next_target = INT64_MAX;
    for (size_t i = 0; i < run->n_ranks; i++) {
        mw_rank *rk = &run->ranks[i];
        fw_rank *fr = rk->fwd;
        if (rk->finalize_exit >= 0 && fr->fin_t != rk->finalize_exit) {
            if (rk->finalize_exit < t) {
                end_at(fw, &fw->fin, fr, i, rk->finalize_exit, ok);
                fr->fin_t = rk->finalize_exit;
            } else if (rk->finalize_exit < fw->next_target) {
                fw->next_target = rk->finalize_exit;
            }
        }
        if (!fr->max_done && rk->t_max >= rk->t_min) {
            if (rk->t_max < t) {
                end_at(fw, &fw->max, fr, i, rk->t_max, ok);
                fr->max_done = 1;
            } else if (rk->t_max < fw->next_target) {
                fw->next_target = rk->t_max;
            }
        }
    }
}

static int by_key(const void *a, const void *b)
{
    const fw_key *x = a, *y = b;
    if (x->resume != y->resume)
        return x->resume < y->resume ? -1 : 1;
    return (x->slot > y->slot) - (x->slot < y->slot);
}

/* No rank's waits counted as settled (a pass that failed lets none go). */
static void forget_settled(mw_run *run)
{
    for (size_t i = 0; i < run->n_ranks; i++)
        run->ranks[i].fwd->settled = 0;
}

/* Each rank's waits ending before f sorted first, and a key for each. */
static size_t gather_keys(mw_run *run, int64_t f, int *ok)
{
    mw_forward *fw = run->fwd;
    size_t n = 0;
    for (size_t i = 0; i < run->n_ranks; i++) {
        mw_rank *rk = &run->ranks[i];
        fw_rank *fr = rk->fwd;
        /* spread: share 0's own waits charged since the round's questions end later */
        size_t ready = fw->spread && rk->mine ? fr->asked : rk->n_waits;
        if (ready)
            qsort(rk->waits, ready, sizeof *rk->waits, mw_by_resume); /* as the walk sorts them */
        fr->idx = 0;
        for (fr->settled = 0; fr->settled < ready && rk->waits[fr->settled].resume < f; fr->settled++) {
            if (!pw_grow((void **)&fw->keys, n, &fw->cap_keys, sizeof *fw->keys)) {
                forget_settled(run);
                *ok = 0;
                return 0;
            }
            fw->keys[n++] = (fw_key){rk->waits[fr->settled].resume, i};
        }
    }
    if (n)
        qsort(fw->keys, n, sizeof *fw->keys, by_key);
    return n;
}

/* The waits ending at keys[from].resume: every rank's new G computed from
 * the G's before that time, then kept.  Returns the next group's start. */
static size_t settle_group(mw_run *run, size_t from, size_t n, int *ok)
{
    mw_forward *fw = run->fwd;
    int64_t t = fw->keys[from].resume;
    size_t end = from;
    while (end < n && fw->keys[end].resume == t)
        end++;
    targets_before(run, t, ok);
    fw->group++;
    for (size_t k = from; k < end;) { /* a rank's waits at t are consecutive keys */
        size_t slot = fw->keys[k].slot, c = 0;
        for (; k < end && fw->keys[k].slot == slot; k++)
            c++;
        plan_rank(run, slot, c, t);
    }
    for (size_t k = from; k < end; k++)
        if (k == from || fw->keys[k].slot != fw->keys[k - 1].slot)
            settle_rank(run, fw->keys[k].slot, t, ok);
    for (size_t k = from; k < end; k++) {
        fw_rank *fr = run->ranks[fw->keys[k].slot].fwd;
        fr->idx++;
        if (fr->read_in == fw->group && (k == from || fw->keys[k].slot != fw->keys[k - 1].slot)) {
            give(fw, fr->g); /* the G's set aside */
            fr->g = fr->g_next;
            fr->g_next = NULL;
        }
    }
    return end;
}

/* The rank's swept spans let go. */
static void drop_swept(fw_rank *fr)
{
    if (fr->head && fr->n > fr->head)
        memmove(fr->log, fr->log + fr->head, (fr->n - fr->head) * sizeof *fr->log);
    fr->n -= fr->head;
    fr->head = 0;
}

/* The settled waits and swept spans let go. */
static void drop_settled(mw_run *run)
{
    for (size_t i = 0; i < run->n_ranks; i++) {
        mw_rank *rk = &run->ranks[i];
        fw_rank *fr = rk->fwd;
        if (fr->settled && rk->n_waits > fr->settled)
            memmove(rk->waits, rk->waits + fr->settled, (rk->n_waits - fr->settled) * sizeof *rk->waits);
        rk->n_waits -= fr->settled;
        fr->asked -= fr->asked < fr->settled ? fr->asked : fr->settled;
        fr->settled = 0;
        drop_swept(fr);
    }
}

/* f, or the latest call end of one of the open cursor's threads other
 * than `loc` if earlier: that thread's next call, still to come, notes
 * the gap since that end (a rank's cursor interleaves its threads). */
static int64_t other_threads_end(const mw_thread_ends *ends, uint32_t loc, int64_t f)
{
    for (size_t i = ends->open_from; i < ends->n; i++)
        if (ends->e[i].loc != loc && ends->e[i].end >= 0 && ends->e[i].end < f)
            f = ends->e[i].end;
    return f;
}

/* Before what time the rank's replay can still note spans or charge its
 * own calls: its next record (records of a location come in time order),
 * or its t_min while locations remain, or the end of another thread's
 * latest call (its gap is noted with its next call); the held record's
 * gap noted ahead (the gap a timed record will add when it is handled). */
static int64_t rank_frontier(mw_rank *rk)
{
    fw_rank *fr = rk->fwd;
    fr->gap_a = fr->gap_b = 0;
    if (rk->done)
        return INT64_MAX;
    if (!rk->held || !rk->cur || rk->loc + 1 < rk->n_locs || rk->cur->rec.clock != PW_CLOCK_NS)
        return rk->t_min;
    const pw_record *rec = &rk->cur->rec;
    int64_t end = mw_thread_latest_end(&rk->ends, rec->location);
    int gap = mw_gap_before(end, rec->t) > 0;
    if (rec->has_end && rec->t_end >= rec->t) {
        if (gap) {
            fr->gap_a = mw_clamp(rk, end);
            fr->gap_b = mw_clamp(rk, rec->t);
        }
        return other_threads_end(&rk->ends, rec->location, rec->t);
    }
    /* its gap waits for a timed record */
    return other_threads_end(&rk->ends, rec->location, gap ? end : rec->t);
}

/* Before what time every wait is charged: no rank's replay, pending call
 * or collective instance in flight can charge one ending earlier. */
static int64_t frontier(mw_run *run)
{
    int64_t f = mw_coll_oldest_entry(run);
    for (size_t i = 0; i < run->n_ranks; i++) {
        mw_rank *rk = &run->ranks[i];
        if (!rk->mine)
            continue; /* spread: its owner's frontier */
        int64_t r = rank_frontier(rk);
        f = r < f ? r : f;
        for (size_t j = 0; j < rk->n_pend; j++)
            if (rk->pend[j].needs != UINT32_MAX && rk->pend[j].enter < f)
                f = rk->pend[j].enter;
    }
    return f;
}

/* Spans noted out of order (a rank's locations one after the other)
 * sorted by start; the sweep only ever passed spans before them. */
static int by_start(const void *a, const void *b)
{
    const fw_span *x = a, *y = b;
    return (x->from > y->from) - (x->from < y->from);
}

static void sort_spans(fw_rank *fr)
{
    for (size_t j = fr->head + 1; j < fr->n; j++)
        if (fr->log[j].from < fr->log[j - 1].from) {
            qsort(fr->log + fr->head, fr->n - fr->head, sizeof *fr->log, by_start);
            return;
        }
}

/* Every wait ending before f settled, and the targets before f. */
static int settle_before(mw_run *run, int64_t f)
{
    int ok = 1;
    run->fwd->next_target = INT64_MIN; /* a rank's MPI_Finalize may have come */
    for (size_t i = 0; i < run->n_ranks; i++)
        sort_spans(run->ranks[i].fwd);
    size_t n = gather_keys(run, f, &ok);
    for (size_t k = 0; ok && k < n;)
        k = settle_group(run, k, n, &ok);
    if (ok)
        targets_before(run, f, &ok);
    for (size_t i = 0; ok && !run->fwd->spread && i < run->n_ranks; i++) /* no later question is before f */
        ok = sweep_to(run->fwd, run->ranks[i].fwd, f);
    drop_settled(run);
    return ok;
}

/* Nothing to settle while the frontier stays: every wait charged since
 * the last settling ends at or after its frontier, and every target
 * before it is done (a stalled frontier, e.g. a collective some member
 * never enters, no longer re-sorts every wait each window). */
int mw_forward_settle(mw_run *run)
{
    if (run->ex)
        return 1;
    int64_t f = frontier(run);
    if (f <= run->fwd->f_settled)
        return 1;
    run->fwd->f_settled = f;
    return settle_before(run, f);
}

/* Every record handled: no held record's gap is noted ahead. */
static void no_held_gaps(mw_run *run)
{
    for (size_t i = 0; i < run->n_ranks; i++)
        run->ranks[i].fwd->gap_a = run->ranks[i].fwd->gap_b = 0;
}

int mw_forward_finish(mw_run *run)
{
    no_held_gaps(run);
    return settle_before(run, INT64_MAX) && mw_forward_end(run);
}

/* Where the path ends, as critical_path.c's walk starts. */
int mw_forward_end(mw_run *run)
{
    mw_forward *fw = run->fwd;
    if (!(fw->totals = vec(fw->d)))
        return 0;
    size_t slot = 0;
    int64_t t = mw_path_end(run, &slot);
    const fw_end *e = fw->fin.t == t && fw->fin.slot == slot ? &fw->fin : &fw->max;
    if (t >= 0 && e->t == t && e->slot == slot)
        memcpy(fw->totals, e->sums, fw->d * sizeof *fw->totals);
    return 1;
}

int64_t mw_forward_frontier(mw_run *run, int final)
{
    for (size_t i = 0; i < run->n_ranks; i++) /* the answers' sweeps pass spans in start order */
        if (run->ranks[i].mine)
            sort_spans(run->ranks[i].fwd);
    if (!final)
        return frontier(run);
    no_held_gaps(run);
    return INT64_MAX;
}

int mw_forward_settle_before(mw_run *run, const mw_spread *answers, int64_t f)
{
    run->fwd->spread = answers;
    return settle_before(run, f);
}

size_t mw_forward_sums(mw_run *run, size_t slot, int64_t t, size_t *k, uint64_t *v, int *ok)
{
    mw_forward *fw = run->fwd;
    fw_rank *fr = run->ranks[slot].fwd;
    running_sums(fw, fr, t, fw->f1, ok);
    size_t n = 0, ranks = fw->d - fw->n_fn;
    uint64_t own = less_start(fw, fr, (uint64_t)own_at(fw, t), fw->f1);
    if (own) {
        k[n] = slot;
        v[n++] = own;
    }
    for (size_t u = 0; u < fw->n_used; u++)
        if (fw->f1[fw->used[u]]) {
            k[n] = ranks + fw->used[u];
            v[n++] = fw->f1[fw->used[u]];
        }
    return n;
}

int mw_forward_release(mw_run *run, int64_t f)
{
    int ok = 1;
    for (size_t i = 0; i < run->n_ranks; i++) {
        fw_rank *fr = run->ranks[i].fwd;
        if (!run->ranks[i].mine)
            continue;
        ok &= sweep_to(run->fwd, fr, f);
        drop_swept(fr);
    }
    return ok;
}

size_t *mw_forward_asked(mw_rank *rk) { return &rk->fwd->asked; }

void mw_forward_waits_sent(mw_rank *rk)
{
    rk->n_waits = 0;
    if (rk->fwd)
        rk->fwd->asked = 0;
}

size_t mw_forward_width(const mw_run *run) { return run->fwd->d; }

void mw_forward_use(mw_run *run, size_t k)
{
    size_t ranks = run->fwd->d - run->fwd->n_fn;
    if (k >= ranks && k < run->fwd->d)
        use(run->fwd, (uint32_t)(k - ranks));
}

const uint64_t *mw_forward_totals(const mw_run *run) { return run->fwd ? run->fwd->totals : NULL; }

void mw_forward_free(mw_run *run)
{
    for (size_t i = 0; run->ranks && i < run->n_ranks; i++) {
        fw_rank *fr = run->ranks[i].fwd;
        if (!fr)
            continue;
        free(fr->log);
        free(fr->act);
        free(fr->full);
        free(fr->below);
        free(fr->g);
        free(fr->g_next);
        free(fr);
        run->ranks[i].fwd = NULL;
    }
    if (run->fwd) {
        free(run->fwd->f1);
        free(run->fwd->f2);
        free(run->fwd->keys);
        free(run->fwd->used);
        free(run->fwd->is_used);
        free(run->fwd->totals);
        for (size_t i = 0; i < run->fwd->n_spare; i++)
            free(run->fwd->spare[i]);
        free(run->fwd->spare);
        free(run->fwd->fin.sums);
        free(run->fwd->max.sums);
        free(run->fwd);
        run->fwd = NULL;
    }
}
