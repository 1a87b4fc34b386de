/* p2p_link.c — joins the two sides of every message after pass 1: each
 * rank's matcher keys (communicator instance, comm-relative peer, tag) are
 * turned into world keys (communicator, world source, world destination,
 * tag), under which the sender's send entries and the receiver's post
 * times meet.  Sequence numbers agree on both sides because MPI does not
 * let messages of one key overtake each other. */
#include <stdlib.h>

#include "analysis/mpi_waits/mpi_waits.h"
#include "analysis/timeline_flows.h"
#include "core/grow.h"

uint32_t mw_comm_instance(const mw_run *run, const mw_rank *rk, const pw_value *v, int f_comm)
{
    if (!run->comms.live) /* no communicator replay: every message on one world */
        return PW_MPI_INST_WORLD;
    if ((size_t)rk->rank >= run->comms.n_ranks)
        return PW_MPI_UNKNOWN;
    return pw_mpi_tracker_lookup(&run->comms.live[rk->rank], tl_field_int(v, f_comm, run->comms.world));
}

/* The world key of matcher key k of rank rk; 0 when it does not resolve. */
static int world_key(const mw_run *run, const mw_rank *rk, const pw_msg *m, pw_key *out)
{
    size_t r = (size_t)rk->rank;
    int sending = m->source == -1;
    int64_t peer = sending ? m->dest : m->source, comm = 0;
    if (run->comms.live) {
        uint32_t c = pw_mpi_comm_of(&run->comms.comms, r, (uint32_t)m->comm);
        peer = pw_mpi_world_rank(&run->comms.comms, r, (uint32_t)m->comm, peer);
        if (c == PW_MPI_UNKNOWN || peer < 0)
            return 0;
        comm = c;
    }
    *out = (pw_key){{(uint64_t)comm, (uint64_t)(sending ? rk->rank : peer), (uint64_t)(sending ? peer : rk->rank),
                     (uint64_t)m->tag}};
    return 1;
}

static int link_rank(mw_run *run, mw_rank *rk)
{
    rk->chan_link = malloc((rk->mm.n_keys ? rk->mm.n_keys : 1) * sizeof *rk->chan_link);
    if (!rk->chan_link)
        return 0;
    rk->n_chan_link = rk->mm.n_keys;
    for (uint64_t k = 0; k < rk->mm.n_keys; k++) {
        const pw_msg *m = &rk->mm.counts[k].key;
        pw_key wk;
        rk->chan_link[k] = UINT32_MAX;
        if (k >= rk->n_chan || !world_key(run, rk, m, &wk))
            continue;
        int added;
        uint64_t *slot = pw_keymap_get(&run->links, &wk, run->n_links, &added);
        if (!slot)
            return 0;
        if (added) {
            if (!pw_grow((void **)&run->link, run->n_links, &run->cap_links, sizeof *run->link))
                return 0;
            run->link[run->n_links++] = (struct mw_link){NULL, NULL, (int64_t)wk.w[1], (int64_t)wk.w[2]};
        }
        struct mw_link *l = &run->link[*slot];
        if (m->source == -1)
            l->send = &rk->chan[k];
        else
            l->post = &rk->chan[k];
        rk->chan_link[k] = (uint32_t)*slot;
    }
    return 1;
}

int mw_link_p2p(mw_run *run)
{
    for (size_t i = 0; i < run->n_ranks; i++)
        if (!link_rank(run, &run->ranks[i]))
            return 0;
    return 1;
}
