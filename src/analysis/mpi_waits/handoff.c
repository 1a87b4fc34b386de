/* handoff.c — what a rank's replay does to a rank another worker replays
 * (a side delivered to one of its pending calls, a collective's wait
 * charged to it) is kept in the acting worker's list during the window
 * and done between windows by worker 0, every rank stopped.  A rank's
 * pending calls and charges are thus only ever touched by one thread at a
 * time, and need no lock: with -j the lock taken for every pending call
 * and charge cost more than everything else -j 2 added.  Done later, the
 * result is the same: a pending call takes the latest side whatever the
 * order, charges are sorted by the critical path, and everything is done
 * before the frontier is sought (critical_path_forward.h). */
#include <stdlib.h>

#include "analysis/mpi_waits/exchange.h"
#include "core/grow.h"

enum { HAND_SEND, HAND_POST, HAND_CHARGE };

/* One thing to do to rank `world`. */
typedef struct mw_handoff {
    int64_t world;
    int64_t enter;     /* charge: the call's entry */
    uint64_t t;        /* delivery: the side's time; charge: the wait in ns */
    int64_t from;      /* delivery: the side's rank; charge: the cause */
    uint32_t id;       /* delivery: the pending call (index + 1); charge: the schema */
    uint32_t location; /* charge: the call's */
    uint8_t what;      /* HAND_* */
    uint8_t kind;      /* charge: mw_wait */
} mw_handoff;

/* A worker's list, a cache line of its own. */
struct mw_handoffs {
    _Alignas(64) mw_handoff *h;
    size_t n, cap;
};

int mw_handoffs_init(mw_run *run)
{
    size_t n = (size_t)(run->workers > 0 ? run->workers : 1);
    run->handoffs = aligned_alloc(64, n * sizeof *run->handoffs);
    if (!run->handoffs)
        return 0;
    for (size_t i = 0; i < n; i++)
        run->handoffs[i] = (mw_handoffs){NULL, 0, 0};
    return 1;
}

void mw_handoffs_free(mw_run *run)
{
    for (int i = 0; run->handoffs && i < (run->workers > 0 ? run->workers : 1); i++)
        free(run->handoffs[i].h);
    free(run->handoffs);
}

/* Whether actor's thread must leave what it does to rk for later. */
static int foreign(const mw_rank *actor, const mw_rank *rk) { return actor && actor->worker != rk->worker; }

/* h kept in the actor's worker's list.  When memory runs out the failure
 * goes where it is looked at: the actor's rank when this process replays
 * it, else the exchange (a remote member's collective entry, folded
 * between windows, waits_coll.c): a remote rank's flag is never read. */
static void keep(mw_run *run, mw_rank *actor, const mw_handoff *h)
{
    mw_handoffs *l = &run->handoffs[actor->worker];
    if (pw_grow((void **)&l->h, l->n, &l->cap, sizeof *l->h))
        l->h[l->n++] = *h;
    else if (actor->mine || !run->ex)
        actor->failed = 1;
    else
        run->ex->failed = 1;
}

void mw_deliver(mw_run *run, mw_rank *actor, int64_t world, uint32_t id, int is_send, uint64_t t, int64_t from)
{
    mw_rank *rk = mw_rank_of(run, world);
    if (!rk)
        return;
    if (foreign(actor, rk))
        keep(run, actor, &(mw_handoff){world, 0, t, from, id, 0, is_send ? HAND_SEND : HAND_POST, 0});
    else
        mw_pending_deliver(rk, id, is_send, t, from);
}

void mw_charge_by(mw_run *run, mw_rank *actor, mw_rank *rk, uint32_t schema, int64_t enter, uint32_t location,
                  mw_wait kind, uint64_t ns, int64_t cause)
{
    if (foreign(actor, rk))
        keep(run, actor, &(mw_handoff){rk->rank, enter, ns, cause, schema, location, HAND_CHARGE, (uint8_t)kind});
    else
        mw_charge(rk, schema, enter, location, kind, ns, cause);
}

void mw_handoffs_apply(mw_run *run)
{
    for (int w = 0; w < run->workers; w++) {
        mw_handoffs *l = &run->handoffs[w];
        for (size_t i = 0; i < l->n; i++) {
            const mw_handoff *h = &l->h[i];
            mw_rank *rk = mw_rank_of(run, h->world);
            if (h->what == HAND_CHARGE)
                mw_charge(rk, h->id, h->enter, h->location, (mw_wait)h->kind, h->t, h->from);
            else
                mw_pending_deliver(rk, h->id, h->what == HAND_SEND, h->t, h->from);
        }
        l->n = 0;
    }
}
