/* pending.c — calls whose wait needs another rank's side of a message
 * that the replay has not reached yet (a receive completed before its
 * send was replayed, a synchronous send before its receive was posted).
 * They wait in a pool per rank, reused, until the last side arrives or
 * the replay ends, and are then charged as if everything had been there. */
#include <stdlib.h>

#include "analysis/mpi_waits/channels.h"
#include "core/grow.h"

uint32_t mw_pending_new(mw_rank *rk, const pw_record *rec)
{
    uint32_t id = 0;
    if (rk->free_pend) {
        id = rk->free_pend;
        rk->free_pend = rk->pend[id - 1].next_free;
    } else if (rk->n_pend < UINT32_MAX - 1 && pw_grow((void **)&rk->pend, rk->n_pend, &rk->cap_pend, sizeof *rk->pend)) {
        id = (uint32_t)++rk->n_pend;
    }
    if (id) /* needs 1: the call itself, until it has asked for every message */
        rk->pend[id - 1] = (mw_pending){rec->t, rec->t_end, rec->schema, rec->location, 1, {0}, {0}, 0};
    else
        rk->failed = 1;
    return id;
}

static void take_latest(mw_latest *into, const mw_latest *from)
{
    if (from->any && mw_later(from->t, from->rank, into)) {
        into->t = from->t;
        into->rank = from->rank;
        into->any = 1;
    }
}

/* One side fewer missing; at none, charged and freed. */
static void one_less(mw_rank *rk, uint32_t id)
{
    mw_pending *p = &rk->pend[id - 1];
    if (--p->needs)
        return;
    mw_charge_latest(rk, p);
    p->needs = UINT32_MAX;
    p->next_free = rk->free_pend;
    rk->free_pend = id;
}

void mw_pending_deliver(mw_rank *rk, uint32_t id, int is_send, uint64_t t, int64_t from)
{
    mw_pending *p = &rk->pend[id - 1];
    mw_latest side = {1, t, from};
    take_latest(is_send ? &p->send : &p->post, &side);
    one_less(rk, id);
}

void mw_pending_release(mw_rank *rk, const mw_p2p_need *need)
{
    mw_pending *p = &rk->pend[need->pend - 1];
    take_latest(&p->send, &need->send);
    take_latest(&p->post, &need->post);
    one_less(rk, need->pend);
}

/* Scalasca's wait of a call that waited for `other` to start: the part of
 * the call before it, never more than the call. */
static uint64_t waited(const mw_pending *p, uint64_t other)
{
    uint64_t enter = (uint64_t)p->enter, exit = (uint64_t)p->exit;
    if (other <= enter || exit < enter)
        return 0;
    return (other < exit ? other : exit) - enter;
}

void mw_charge_latest(mw_rank *rk, const mw_pending *p)
{
    uint64_t late_sender = p->send.any ? waited(p, p->send.t) : 0;
    if (late_sender)
        mw_charge(rk, p->schema, p->enter, p->location, MW_LATE_SENDER, late_sender, p->send.rank);
    else if (p->post.any) /* a call waits once: for its sender first */
        mw_charge(rk, p->schema, p->enter, p->location, MW_LATE_RECEIVER, waited(p, p->post.t), p->post.rank);
}

void mw_replay_finish(mw_run *run)
{
    for (size_t i = 0; i < run->n_ranks; i++) { /* sides that never came: charged with what did */
        mw_rank *rk = &run->ranks[i];
        for (size_t j = 0; j < rk->n_pend; j++)
            if (rk->pend[j].needs != UINT32_MAX) {
                rk->pend[j].needs = 1;
                one_less(rk, (uint32_t)j + 1);
            }
    }
}
