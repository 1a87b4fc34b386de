/* exchange.c — the sides of messages and collectives that cross
 * processes, window by window (exchange.h).  A rank belongs to the
 * process whose share holds its first location; every process knows
 * every rank's owner (a sum over processes) and, per communicator, the
 * other processes holding members, so a side is sent to exactly the
 * processes whose ranks need it.  Memory: the sides queued in one window,
 * and what came in it. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/exchange.h"
#include "analysis/mpi_waits/critical_path_forward.h"
#include "analysis/mpi_waits/critical_path_spread.h"
#include "core/grow.h"

void mw_exchange_sum(mw_run *run, uint64_t *v, size_t n) { run->ex->co->sum(run->ex->co->ctx, v, n); }

int mw_exchange_bytes(mw_run *run, const void *send, const size_t *send_bytes, void **recv, size_t *recv_bytes)
{
    mw_exchange *ex = run->ex;
    for (unsigned q = 0; q < ex->procs; q++)
        ex->sent_bytes += q == ex->me ? 0 : send_bytes[q];
    return ex->co->alltoallv(ex->co->ctx, send, send_bytes, recv, recv_bytes);
}

/* Whether any process failed (every process calls it at the same point). */
static int any_failed(mw_run *run, int failed)
{
    uint64_t f = failed != 0;
    mw_exchange_sum(run, &f, 1);
    return f != 0;
}

/* Per communicator, the processes other than this one that replay one
 * of its members; 0 when memory runs out. */
static int comm_processes(mw_run *run)
{
    mw_exchange *ex = run->ex;
    size_t n = run->comms.comms.n_comms;
    ex->comm_procs = calloc(n ? n : 1, sizeof *ex->comm_procs);
    ex->n_comm_procs = calloc(n ? n : 1, sizeof *ex->n_comm_procs);
    uint8_t *seen = calloc(ex->procs, 1);
    int ok = ex->comm_procs && ex->n_comm_procs && seen;
    for (size_t c = 0; ok && c < n; c++) {
        const pw_mpi_comm *cm = &run->comms.comms.comms[c];
        memset(seen, 0, ex->procs);
        seen[ex->me] = 1;
        for (uint32_t m = 0; ok && m < cm->size; m++) {
            const mw_rank *rk = mw_rank_of(run, cm->members[m]);
            uint32_t q = rk ? ex->owner[rk - run->ranks] : ex->me;
            if (seen[q])
                continue;
            seen[q] = 1;
            uint32_t *p = realloc(ex->comm_procs[c], (ex->n_comm_procs[c] + 1) * sizeof *p);
            ok = p != NULL;
            if (ok) {
                ex->comm_procs[c] = p;
                p[ex->n_comm_procs[c]++] = q;
            }
        }
    }
    free(seen);
    return ok;
}

/* Each rank's owner: its number (+ 1) set by the process whose share
 * holds the rank's first location, summed over processes.  0 when a rank
 * has no owner or more than one. */
static int owners(mw_run *run, uint64_t *v, const uint8_t *owned)
{
    mw_exchange *ex = run->ex;
    for (size_t i = 0; i < run->n_ranks; i++)
        v[i] = !owned || owned[run->ranks[i].locs[0]] ? ex->me + 1u : 0;
    mw_exchange_sum(run, v, run->n_ranks);
    int ok = 1;
    for (size_t i = 0; ok && i < run->n_ranks; i++) {
        ok = v[i] >= 1 && v[i] <= ex->procs;
        ex->owner[i] = ok ? (uint32_t)(v[i] - 1) : 0;
        run->ranks[i].mine = ok && ex->owner[i] == ex->me;
    }
    return ok;
}

int mw_exchange_init(mw_run *run, int failed)
{
    const pw_collectives *co = run->ds->run->collectives;
    if (!co || !co->alltoallv || !co->sum || !co->broadcast)
        return !failed;
    /* everything allocated before the first sum: a process that cannot
     * still takes part in it, and then every process stops */
    int whole;
    mw_exchange *ex = calloc(1, sizeof *ex);
    uint8_t *owned = pw_ds_share_owned(run->ds, &whole);
    uint64_t *v = calloc(run->n_ranks + 1, sizeof *v);
    uint32_t *owner = malloc((run->n_ranks ? run->n_ranks : 1) * sizeof *owner);
    uint64_t first[2] = {failed || !ex || !v || !owner || (!owned && !whole), 1};
    co->sum(co->ctx, first, 2);
    int ok = !first[0];
    if (ok) {
        *ex = (mw_exchange){.co = co, .me = run->ds->run->share_index, .procs = (unsigned)first[1], .owner = owner};
        pthread_mutex_init(&ex->lock, NULL);
        run->ex = ex;
        owner = NULL;
        ex = NULL;
        ok = owners(run, v, owned);
    }
    if (ok && run->ex->procs > 1) {
        mw_exchange *x = run->ex;
        x->out = calloc(x->procs, sizeof *x->out);
        x->sizes = calloc(2 * (size_t)x->procs, sizeof *x->sizes);
        x->heads = calloc(2 * (size_t)x->procs, sizeof *x->heads);
        ok = !any_failed(run, !x->out || !x->sizes || !x->heads || !comm_processes(run));
    }
    if (!ok || (run->ex && run->ex->procs <= 1)) { /* alone: the serial replay, every rank its own */
        for (size_t i = 0; i < run->n_ranks; i++)
            run->ranks[i].mine = 1;
        mw_exchange_free(run);
    }
    free(ex);
    free(owned);
    free(v);
    free(owner);
    return ok;
}

void mw_exchange_free(mw_run *run)
{
    mw_exchange *ex = run->ex;
    if (!ex)
        return;
    for (size_t c = 0; ex->comm_procs && c < run->comms.comms.n_comms; c++)
        free(ex->comm_procs[c]);
    free(ex->comm_procs);
    free(ex->n_comm_procs);
    for (unsigned q = 0; ex->out && q < ex->procs; q++)
        free(ex->out[q].r);
    free(ex->out);
    free(ex->sizes);
    free(ex->heads);
    free(ex->send);
    mw_spread_free(run);
    free(ex->owner);
    pthread_mutex_destroy(&ex->lock);
    run->ex = NULL;
    free(ex);
}

uint64_t mw_exchange_windows(mw_run *run, uint64_t windows)
{
    run->ex->co->broadcast(run->ex->co->ctx, &windows, sizeof windows);
    return windows;
}

int mw_exchange_remote(const mw_run *run, int64_t w)
{
    const mw_rank *rk = mw_rank_of(run, w);
    return rk && !rk->mine;
}

void mw_exchange_queue(mw_run *run, uint32_t q, const mw_xrec *r)
{
    mw_exchange *ex = run->ex;
    if (run->parallel)
        pthread_mutex_lock(&ex->lock);
    mw_xbuf *b = &ex->out[q];
    if (pw_grow((void **)&b->r, b->n, &b->cap, sizeof *b->r))
        b->r[b->n++] = *r;
    else
        ex->failed = 1;
    if (run->parallel)
        pthread_mutex_unlock(&ex->lock);
}

static uint32_t owner_of(const mw_run *run, int64_t w) { return run->ex->owner[mw_rank_of(run, w) - run->ranks]; }

void mw_exchange_sent(mw_run *run, const mw_channel *ch, uint64_t seq, uint64_t enter, int sync)
{
    mw_xrec r = {sync ? MW_X_SENT_SYNC : MW_X_SENT, ch->comm, (uint32_t)ch->source, (uint32_t)ch->dest, ch->tag,
                 seq, enter};
    mw_exchange_queue(run, owner_of(run, ch->dest), &r);
}

void mw_exchange_posted(mw_run *run, const mw_channel *ch, uint64_t seq, uint64_t post)
{
    mw_xrec r = {MW_X_POSTED, ch->comm, (uint32_t)ch->source, (uint32_t)ch->dest, ch->tag, seq, post};
    mw_exchange_queue(run, owner_of(run, ch->source), &r);
}

void mw_exchange_entered(mw_run *run, uint32_t comm, uint64_t seq, uint32_t member, uint64_t enter, int is_root)
{
    mw_xrec r = {MW_X_ENTERED, comm, member, is_root != 0, 0, seq, enter};
    for (uint32_t i = 0; i < run->ex->n_comm_procs[comm]; i++)
        mw_exchange_queue(run, run->ex->comm_procs[comm][i], &r);
}

/* This process's ranks' waits charged since the last round, queued for
 * share 0 (its settling needs every wait) and let go here: a process
 * other than share 0 holds a window's waits at most. */
static void queue_waits(mw_run *run)
{
    for (size_t i = 0; run->ex->me && i < run->n_ranks; i++) {
        mw_rank *rk = &run->ranks[i];
        if (!rk->mine)
            continue;
        for (size_t j = 0; j < rk->n_waits; j++) {
            const mw_wait_at *w = &rk->waits[j];
            mw_xrec r = {MW_X_WAIT, 0, (uint32_t)i, 0, w->cause, (uint64_t)w->resume, (uint64_t)w->enter};
            mw_exchange_queue(run, 0, &r);
        }
        mw_forward_waits_sent(rk);
    }
}

/* A wait from another process, kept by share 0 with its rank's own (the
 * settling sorts them; it reads enter, resume and cause alone). */
static void wait_arrived(mw_run *run, const mw_xrec *r)
{
    mw_rank *rk = r->a < run->n_ranks && !run->ex->me ? &run->ranks[r->a] : NULL;
    if (!rk || rk->mine)
        return; /* not for this process: never sent so */
    if (!pw_grow((void **)&rk->waits, rk->n_waits, &rk->cap_waits, sizeof *rk->waits)) {
        run->ex->failed = 1;
        return;
    }
    rk->waits[rk->n_waits++] = (mw_wait_at){(int64_t)r->t, (int64_t)r->seq, r->tag, 0, 0};
}

/* One side from another process, fed to its exchange point. */
static void arrived(mw_run *run, const mw_xrec *r)
{
    if (r->kind == MW_X_WAIT) {
        wait_arrived(run, r);
        return;
    }
    if (r->kind == MW_X_ASK || r->kind == MW_X_SUM || r->kind == MW_X_FIN) {
        if (run->ex->spread)
            mw_spread_arrived(run, r);
        return;
    }
    if (r->kind == MW_X_ENTERED) {
        mw_coll_arrived(run, r->comm, r->seq, r->a, r->t, r->b != 0);
        return;
    }
    const mw_rank *mine = mw_rank_of(run, r->kind == MW_X_POSTED ? r->a : r->b);
    if (!mine || !mine->mine || (r->kind != MW_X_SENT && r->kind != MW_X_SENT_SYNC && r->kind != MW_X_POSTED))
        return; /* not for this process: never sent so */
    pw_key wk = {{r->comm, r->a, r->b, (uint64_t)r->tag}};
    mw_channel *ch = mw_channel_for(run, &wk);
    if (!ch)
        run->ex->failed = 1;
    else if (r->kind == MW_X_POSTED)
        mw_msg_arrived_post(run, ch, r->seq, r->t);
    else
        mw_msg_arrived_send(run, ch, r->seq, r->t, r->kind == MW_X_SENT_SYNC);
}

enum { FAILED = 1, QUEUED = 2 }; /* a round's header word, to every process */

/* A round's header: the word above, then the process's frontier. */
typedef struct round_head {
    uint64_t flags;
    int64_t frontier;
} round_head;

/* This round's bytes for each process: a header (whether this process
 * failed, whether it had something queued, its frontier) and, unless
 * failed, its sides; in ex->send (grown as needed) or, when memory runs
 * out, the header alone in ex->heads (made at init).  Returns the
 * buffer. */
static unsigned char *round_buffer(mw_run *run, round_head head)
{
    mw_exchange *ex = run->ex;
    size_t total = 0;
    for (unsigned q = 0; q < ex->procs; q++)
        total += ex->sizes[q] =
            q == ex->me ? 0 : sizeof head + (head.flags & FAILED ? 0 : ex->out[q].n * sizeof(mw_xrec));
    if (total > ex->send_cap) {
        unsigned char *p = realloc(ex->send, total);
        if (!p) { /* the header alone: the others learn this process failed */
            round_head failed = {FAILED, INT64_MIN};
            for (unsigned q = 0; q < ex->procs; q++) {
                ex->sizes[q] = q == ex->me ? 0 : sizeof head;
                memcpy(ex->heads + 2 * q, &failed, sizeof failed);
            }
            return (unsigned char *)ex->heads;
        }
        ex->send = p;
        ex->send_cap = total;
    }
    for (unsigned q = 0, at = 0; q < ex->procs; at += (unsigned)ex->sizes[q++]) {
        if (!ex->sizes[q])
            continue;
        memcpy(ex->send + at, &head, sizeof head);
        if (ex->sizes[q] > sizeof head)
            memcpy(ex->send + at + sizeof head, ex->out[q].r, ex->sizes[q] - sizeof head);
    }
    ex->most_window_bytes = total > ex->most_window_bytes ? total : ex->most_window_bytes;
    return ex->send;
}

/* Sends what is queued and feeds what came; *queued_anywhere: whether
 * any process had something.  The critical path's questions are asked
 * before and answered after (critical_path_spread.h), with the least
 * frontier of the headers.  One alltoallv per round and no other
 * collective.  0 when any process failed. */
static int exchange_round(mw_run *run, int *queued_anywhere)
{
    mw_exchange *ex = run->ex;
    mw_handoffs_apply(run); /* the window's waits charged across workers, before the frontier is sought */
    round_head head = {0, ex->spread && !ex->failed ? mw_spread_start(run, ex->final) : INT64_MIN};
    queue_waits(run);
    head.flags = ex->failed || !ex->spread ? FAILED : 0;
    for (size_t i = 0; i < run->n_ranks; i++)
        head.flags |= run->ranks[i].mine && run->ranks[i].failed ? FAILED : 0;
    for (unsigned q = 0; q < ex->procs; q++)
        head.flags |= ex->out[q].n ? QUEUED : 0;
    unsigned char *send = round_buffer(run, head);
    for (unsigned q = 0; q < ex->procs; q++)
        ex->out[q].n = 0;
    void *recv = NULL;
    size_t *got = ex->sizes + ex->procs;
    int ok = mw_exchange_bytes(run, send, ex->sizes, &recv, got);
    round_head all = {send == ex->send ? head.flags : FAILED, head.frontier};
    const unsigned char *at = recv;
    for (unsigned q = 0; ok && q < ex->procs; at += got[q++]) { /* headers first: a failure anywhere stops all */
        round_head h = {0, INT64_MAX};
        if (got[q] >= sizeof h)
            memcpy(&h, at, sizeof h);
        all.flags |= h.flags;
        all.frontier = h.frontier < all.frontier ? h.frontier : all.frontier;
    }
    at = recv;
    for (unsigned q = 0; ok && !(all.flags & FAILED) && q < ex->procs; at += got[q++])
        for (size_t i = sizeof(round_head); i + sizeof(mw_xrec) <= got[q]; i += sizeof(mw_xrec)) {
            mw_xrec r;
            memcpy(&r, at + i, sizeof r);
            arrived(run, &r);
        }
    free(recv);
    *queued_anywhere = (all.flags & QUEUED) != 0;
    ok = ok && !(all.flags & FAILED);
    if (ok && !mw_spread_end(run, all.frontier))
        ex->failed = 1; /* told in the next round's header */
    return ok;
}

int mw_exchange_window(mw_run *run)
{
    int queued;
    run->ex->windows++;
    return exchange_round(run, &queued);
}

int mw_exchange_drain(mw_run *run)
{
    int queued = 1;
    while (queued)
        if (!exchange_round(run, &queued))
            return 0;
    return 1;
}

int mw_exchange_final(mw_run *run)
{
    int queued;
    run->ex->final = 1; /* the first round asks about the last waits, the second brings the answers */
    return exchange_round(run, &queued) && exchange_round(run, &queued) && !run->ex->failed;
}
