/* channels.c — the point-to-point exchange point between ranks.  Each
 * rank numbers its messages with its own matcher (msgmatch.h) under keys
 * (communicator instance, comm-relative peer, tag); a key turns into a
 * world channel (communicator, world source, world destination, tag) on
 * its first use.  Sender and receiver meet in the channel's FIFO: the
 * n-th message on it is the n-th send and the n-th receive, as MPI does
 * not let messages of one channel overtake each other.  A message holds
 * what one side has seen and the other still needs (the send entry for
 * the receive's completion, the receive post for a synchronous send), and
 * leaves the FIFO once both sides are done with it.
 *
 * This is the one place where another process's messages would enter: a
 * distributed replay would feed the sides of the channels whose other
 * rank lives elsewhere (mw_msg_sent / mw_msg_posted) from what that
 * process sends, and nothing else would change (docs/mpi-analyses.md). */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/channels.h"
#include "analysis/mpi_waits/exchange.h"
#include "views/timeline_flows.h"
#include "core/grow.h"

uint32_t mw_comm_instance(const mw_run *run, const mw_rank *rk, const pw_value *v, int f_comm)
{
    if (!run->comms.live) /* no communicator replay: every message on one world */
        return PW_MPI_INST_WORLD;
    if ((size_t)rk->rank >= run->comms.n_ranks)
        return PW_MPI_UNKNOWN;
    return pw_mpi_tracker_lookup(&run->comms.live[rk->rank], mw_field_int(v, f_comm, run->comms.world));
}

/* The world key of matcher key m of rank rk; 0 when it does not resolve. */
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

static void links_lock(mw_run *run)
{
    if (run->parallel)
        pthread_mutex_lock(&run->links_lock);
}

static void links_unlock(mw_run *run)
{
    if (run->parallel)
        pthread_mutex_unlock(&run->links_lock);
}

mw_channel *mw_channel_for(mw_run *run, const pw_key *wk)
{
    links_lock(run);
    int added;
    mw_channel *ch = NULL;
    uint64_t *slot = pw_keymap_get(&run->links, wk, run->n_channels, &added);
    if (slot && !added)
        ch = run->channel[*slot];
    else if (slot && pw_grow((void **)&run->channel, run->n_channels, &run->cap_channels, sizeof *run->channel) &&
             (ch = calloc(1, sizeof *ch))) {
        pthread_mutex_init(&ch->lock, NULL);
        ch->source = (int64_t)wk->w[1];
        ch->dest = (int64_t)wk->w[2];
        ch->comm = (uint32_t)wk->w[0];
        ch->tag = (int64_t)wk->w[3];
        const mw_rank *s = mw_rank_of(run, ch->source), *d = mw_rank_of(run, ch->dest);
        ch->shared = run->parallel && s && d && s->worker != d->worker;
        run->channel[run->n_channels++] = ch;
    } else if (slot) {
        pw_keymap_remove(&run->links, wk);
    }
    links_unlock(run);
    return ch;
}

mw_channel *mw_channel_of(mw_run *run, mw_rank *rk, uint64_t flow_id)
{
    uint64_t k = mw_flow_key(flow_id);
    if (k >= rk->n_chan) {
        uint64_t n = rk->mm.cap_keys > k ? rk->mm.cap_keys : k + 1;
        mw_channel **c = realloc(rk->chan, n * sizeof *c);
        if (!c) {
            rk->failed = 1;
            return NULL;
        }
        memset(c + rk->n_chan, 0, (n - rk->n_chan) * sizeof *c);
        rk->chan = c;
        rk->n_chan = n;
    }
    if (!rk->chan[k]) {
        pw_key wk;
        if (!world_key(run, rk, &rk->mm.counts[k].key, &wk))
            return NULL; /* never resolves: asked again, answered the same */
        if (!(rk->chan[k] = mw_channel_for(run, &wk)))
            rk->failed = 1;
    }
    return rk->chan[k];
}

/* Only a channel between two workers' ranks is ever touched by two
 * threads. */
static void channel_lock(mw_channel *ch)
{
    if (ch->shared)
        pthread_mutex_lock(&ch->lock);
}

static void channel_unlock(mw_channel *ch)
{
    if (ch->shared)
        pthread_mutex_unlock(&ch->lock);
}

/* At most this many messages wait behind a front message that only its
 * completion still holds; beyond, that message is set aside, so a receive
 * posted and never completed costs one message, not all those after it. */
#define MW_CHANNEL_HELD 256

/* The front message m of ch kept aside; 0 when memory runs out. */
static int set_aside(mw_channel *ch, const mw_msg *m)
{
    if (!pw_grow((void **)&ch->aside, ch->n_aside, &ch->cap_aside, sizeof *ch->aside))
        return 0;
    ch->aside[ch->n_aside++] = (mw_aside){ch->msgs.base, *m};
    ch->live_aside++;
    return 1;
}

/* Messages both sides are done with leave the front of the FIFO; so do,
 * set aside, those only a completion holds once many wait behind them. */
static void drop_done(mw_rank *rk, mw_channel *ch)
{
    const mw_msg *m;
    while ((m = mw_seq_ring_front(&ch->msgs, sizeof *m))) {
        if ((m->flags & MW_MSG_DONE) != MW_MSG_DONE) {
            int seen = (m->flags & (MW_MSG_SENT | MW_MSG_POSTED)) == (MW_MSG_SENT | MW_MSG_POSTED);
            if (!seen || ch->msgs.n <= MW_CHANNEL_HELD)
                break;
            if (!set_aside(ch, m)) {
                rk->failed = 1;
                break;
            }
        }
        mw_seq_ring_pop(&ch->msgs);
    }
}

/* The message set aside under seq, or NULL. */
static mw_msg *aside_at(mw_channel *ch, uint64_t seq)
{
    size_t lo = 0, hi = ch->n_aside;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ch->aside[mid].seq < seq)
            lo = mid + 1;
        else
            hi = mid;
    }
    mw_msg *m = lo < ch->n_aside && ch->aside[lo].seq == seq ? &ch->aside[lo].msg : NULL;
    return m && (m->flags & MW_MSG_DONE) != MW_MSG_DONE ? m : NULL;
}

/* Message seq of ch, its channel locked: in the FIFO, or set aside (*aside
 * set).  NULL, the channel unlocked again, when it is gone (both sides
 * were done: none asks again) or memory ran out (rk failed). */
static mw_msg *locked_message(mw_rank *rk, mw_channel *ch, uint64_t seq, int *aside)
{
    channel_lock(ch);
    mw_msg *m = NULL;
    *aside = seq < ch->msgs.base;
    if (!*aside && !(m = mw_seq_ring_at(&ch->msgs, seq, sizeof *m)))
        rk->failed = 1;
    else if (*aside && ch->live_aside)
        m = aside_at(ch, seq);
    if (!m)
        channel_unlock(ch);
    return m;
}

/* After a side of a message changed: the FIFO's front moves on; a message
 * set aside is gone once both sides are done, and the gone ones leave the
 * array once they are half of it. */
static void settle(mw_rank *rk, mw_channel *ch, const mw_msg *m, int aside)
{
    if (!aside) {
        drop_done(rk, ch);
        return;
    }
    if ((m->flags & MW_MSG_DONE) != MW_MSG_DONE || --ch->live_aside * 2 > ch->n_aside)
        return;
    size_t kept = 0;
    for (size_t i = 0; i < ch->n_aside; i++)
        if ((ch->aside[i].msg.flags & MW_MSG_DONE) != MW_MSG_DONE)
            ch->aside[kept++] = ch->aside[i];
    ch->n_aside = kept;
}

void mw_msg_sent(mw_run *run, mw_rank *rk, mw_channel *ch, uint64_t seq, uint64_t enter, int sync)
{
    int aside;
    mw_msg *m = locked_message(rk, ch, seq, &aside);
    if (!m)
        return;
    m->send_enter = enter;
    m->flags |= MW_MSG_SENT | (sync ? 0 : MW_MSG_SEND_DONE);
    if (run->ex && mw_exchange_remote(run, ch->dest)) { /* its receiver's process needs the entry */
        mw_exchange_sent(run, ch, seq, enter, sync);
        m->flags |= sync ? 0 : MW_MSG_RECV_DONE; /* a synchronous send waits for the post to come back */
    }
    if (m->recv_wait) {
        mw_deliver(run, rk, ch->dest, m->recv_wait, 1, enter, ch->source);
        m->recv_wait = 0;
    }
    settle(rk, ch, m, aside);
    channel_unlock(ch);
}

void mw_msg_posted(mw_run *run, mw_rank *rk, mw_channel *ch, uint64_t seq, uint64_t post)
{
    int aside;
    mw_msg *m = locked_message(rk, ch, seq, &aside);
    if (!m)
        return;
    m->post = post;
    m->flags |= MW_MSG_POSTED;
    if (m->flags & MW_MSG_POST_WANTED)
        mw_exchange_posted(run, ch, seq, post);
    if (m->sync_wait) {
        mw_deliver(run, rk, ch->source, m->sync_wait, 0, post, ch->dest);
        m->sync_wait = 0;
    }
    settle(rk, ch, m, aside);
    channel_unlock(ch);
}

void mw_msg_needed(mw_run *run, mw_rank *rk, mw_channel *ch, uint64_t seq, int want_send, mw_p2p_need *need)
{
    int aside;
    mw_msg *m = locked_message(rk, ch, seq, &aside);
    if (!m)
        return;
    m->flags |= want_send ? MW_MSG_RECV_DONE : MW_MSG_SEND_DONE;
    int there = m->flags & (want_send ? MW_MSG_SENT : MW_MSG_POSTED);
    mw_latest *latest = want_send ? &need->send : &need->post;
    if (there) {
        uint64_t t = want_send ? m->send_enter : m->post;
        if (mw_later(t, want_send ? ch->source : ch->dest, latest)) {
            latest->t = t;
            latest->rank = want_send ? ch->source : ch->dest;
        }
        latest->any = 1;
    } else if (need->timed && mw_rank_of(run, want_send ? ch->source : ch->dest)) {
        /* the other side comes later (never from a rank outside the dataset): the call waits for it */
        if (!need->pend && !(need->pend = mw_pending_new(rk, need->rec))) {
            channel_unlock(ch);
            return;
        }
        rk->pend[need->pend - 1].needs++; /* one more side to come */
        if (want_send)
            m->recv_wait = need->pend;
        else
            m->sync_wait = need->pend;
    }
    settle(rk, ch, m, aside);
    channel_unlock(ch);
}

void mw_msg_given_up(mw_rank *rk, mw_channel *ch, uint64_t seq, int recv_side)
{
    int aside;
    mw_msg *m = locked_message(rk, ch, seq, &aside);
    if (!m)
        return;
    m->flags |= recv_side ? MW_MSG_RECV_DONE : MW_MSG_SEND_DONE;
    settle(rk, ch, m, aside);
    channel_unlock(ch);
}

/* The sides of a message whose other rank lives on another process, as
 * they arrive (exchange.c): the send's entry (its sending side is then
 * done here; a synchronous sender gets the post back, now or when the
 * receive is posted), or the post a synchronous send waited for. */
void mw_msg_arrived_send(mw_run *run, mw_channel *ch, uint64_t seq, uint64_t enter, int sync)
{
    int aside;
    mw_rank *rk = mw_rank_of(run, ch->dest);
    mw_msg *m = locked_message(rk, ch, seq, &aside);
    if (!m)
        return;
    m->send_enter = enter;
    m->flags |= MW_MSG_SENT | MW_MSG_SEND_DONE;
    if (sync && (m->flags & MW_MSG_POSTED))
        mw_exchange_posted(run, ch, seq, m->post);
    else if (sync)
        m->flags |= MW_MSG_POST_WANTED;
    if (m->recv_wait) {
        mw_deliver(run, rk, ch->dest, m->recv_wait, 1, enter, ch->source);
        m->recv_wait = 0;
    }
    settle(rk, ch, m, aside);
    channel_unlock(ch);
}

void mw_msg_arrived_post(mw_run *run, mw_channel *ch, uint64_t seq, uint64_t post)
{
    int aside;
    mw_rank *rk = mw_rank_of(run, ch->source);
    mw_msg *m = locked_message(rk, ch, seq, &aside);
    if (!m)
        return;
    m->post = post;
    m->flags |= MW_MSG_POSTED | MW_MSG_RECV_DONE;
    if (m->sync_wait) {
        mw_deliver(run, rk, ch->source, m->sync_wait, 0, post, ch->dest);
        m->sync_wait = 0;
    }
    settle(rk, ch, m, aside);
    channel_unlock(ch);
}

void mw_channels_free(mw_run *run)
{
    for (size_t i = 0; i < run->n_channels; i++) {
        pthread_mutex_destroy(&run->channel[i]->lock);
        mw_seq_ring_free(&run->channel[i]->msgs);
        free(run->channel[i]->aside);
        free(run->channel[i]);
    }
    free(run->channel);
    pw_keymap_free(&run->links);
}
