/* waits_p2p.c — point-to-point messages in the replay: each rank numbers
 * its sends and receives with its matcher, hands the entry of each send
 * and the post of each receive to the message's channel (channels.c),
 * and charges Late Sender to the call that completes receives (MPI_Recv,
 * the receive half of MPI_Sendrecv, MPI_Wait*, MPI_Test*) and Late
 * Receiver to synchronous sends (MPI_Ssend, the completion of an
 * MPI_Issend), from the other sides there or, later, as they come.
 *
 * Keys in a rank's matcher: a send is (instance, -1, comm dest, tag), a
 * receive (instance, comm source, -1, tag); -1 stands for the rank itself,
 * so both directions share one matcher without meeting. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/channels.h"
#include "views/timeline_flows.h"

/* The other side of message id for the call (need). */
static void need_side(mw_run *run, mw_rank *rk, uint64_t id, int want_send, mw_p2p_need *need)
{
    mw_channel *ch = mw_channel_of(run, rk, id);
    if (ch)
        mw_msg_needed(run, rk, ch, mw_flow_seq(id), want_send, need);
}

static void posted(mw_run *run, mw_rank *rk, uint64_t id, uint64_t t)
{
    mw_channel *ch = mw_channel_of(run, rk, id);
    if (ch)
        mw_msg_posted(run, rk, ch, mw_flow_seq(id), t);
}

/* rk gave up one side of message id: it will never be completed. */
static void given_up(mw_run *run, mw_rank *rk, uint64_t id, int recv_side)
{
    mw_channel *ch = mw_channel_of(run, rk, id);
    if (ch)
        mw_msg_given_up(rk, ch, mw_flow_seq(id), recv_side);
}

static void send(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v,
                 uint32_t inst, mw_p2p_need *c)
{
    int64_t dest = mw_field_int(v, sc->tl.mpi.f_dest, -1);
    if (dest < 0) /* MPI_PROC_NULL */
        return;
    pw_msg m = {inst, -1, dest, mw_field_int(v, sc->tl.mpi.f_sendtag >= 0 ? sc->tl.mpi.f_sendtag : sc->tl.mpi.f_tag, 0)};
    uint64_t id = pw_msgmatch_send(&rk->mm, &m);
    if (!id) {
        rk->failed = 1;
        return;
    }
    mw_channel *ch = mw_channel_of(run, rk, id);
    if (ch)
        mw_msg_sent(run, rk, ch, mw_flow_seq(id), (uint64_t)rec->t, sc->sync);
    int has_req = sc->tl.mpi.f_request >= 0 && v[sc->tl.mpi.f_request].present;
    if (sc->sync && !has_req) {
        need_side(run, rk, id, 0, c);
    } else if (sc->sync) {
        pw_key k = {{(uint64_t)mw_field_int(v, sc->tl.mpi.f_request, 0), 0, 0, 0}};
        int added;
        uint64_t *slot = pw_keymap_get(&rk->sync_reqs, &k, id, &added);
        if (!slot) {
            rk->failed = 1;
            return;
        }
        if (!added) /* the handle's older MPI_Issend was never completed */
            given_up(run, rk, *slot, 0);
        *slot = id;
    }
}

/* A receive: posted now (with a request) or received now. */
static void receive(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v,
                    uint32_t inst, mw_p2p_need *c)
{
    pw_msg m = {inst, mw_field_int(v, sc->tl.mpi.f_source, -1), -1,
                mw_field_int(v, sc->tl.mpi.f_recvtag >= 0 ? sc->tl.mpi.f_recvtag : sc->tl.mpi.f_tag, 0)};
    if (sc->tl.mpi.f_request >= 0 && v[sc->tl.mpi.f_request].present && sc->tl.mpi.f_dest < 0) {
        int64_t req = mw_field_int(v, sc->tl.mpi.f_request, 0);
        uint64_t id = pw_msgmatch_post_recv(&rk->mm, &m, rk->rank, req);
        pw_key k = {{(uint64_t)req, 0, 0, 0}};
        if (id && rk->mm.replaced) /* the handle's older receive was never completed */
            given_up(run, rk, rk->mm.replaced, 1);
        if (!id) {
            rk->failed = 1;
        } else if (!(id & PW_MSG_WILD)) { /* matched when posted: its post goes to the channel at once */
            posted(run, rk, id, (uint64_t)rec->t);
            if (rk->post_t.n) /* an older wildcard's, on a reused handle */
                pw_keymap_remove(&rk->post_t, &k);
        } else { /* a wildcard's waits for its status; a reused
                  * request handle names the newest receive */
            int added;
            uint64_t *slot = pw_keymap_get(&rk->post_t, &k, (uint64_t)rec->t, &added);
            if (!slot)
                rk->failed = 1;
            else
                *slot = (uint64_t)rec->t;
        }
        return;
    }
    pw_msg st;
    uint64_t bytes;
    /* a status is no integer: decoded from rec, v may be the integer view */
    if ((m.source < 0 || m.tag < 0) && sc->tl.mpi.f_status >= 0 &&
        tl_status_at(&pw_record_fields(rec)[sc->tl.mpi.f_status], 0, &st, &bytes)) {
        m.source = m.source < 0 ? st.source : m.source;
        m.tag = m.tag < 0 ? st.tag : m.tag;
    }
    if (m.source < 0 || m.tag < 0) /* MPI_PROC_NULL, or a wildcard never resolved */
        return;
    uint64_t id = pw_msgmatch_recv(&rk->mm, &m);
    if (!id) {
        rk->failed = 1;
        return;
    }
    posted(run, rk, id, (uint64_t)rec->t);
    need_side(run, rk, id, 1, c);
}

/* One request completed: a receive (a wildcard's post known now, then
 * its send needed) or an MPI_Issend (its receive's post needed). */
static void completed(mw_run *run, mw_rank *rk, int64_t req, const pw_msg *status, mw_p2p_need *c)
{
    uint64_t id = pw_msgmatch_complete(&rk->mm, rk->rank, req, status);
    pw_key k = {{(uint64_t)req, 0, 0, 0}};
    uint64_t t, s;
    if (rk->post_t.n && pw_keymap_take(&rk->post_t, &k, &t) && id) /* only wildcards' wait there */
        posted(run, rk, id, t);
    if (id) {
        need_side(run, rk, id, 1, c);
        return;
    }
    if (rk->sync_reqs.n && pw_keymap_take(&rk->sync_reqs, &k, &s))
        need_side(run, rk, s, 0, c);
}

/* MPI_Request_free or MPI_Cancel: the request's receive or synchronous
 * send is given up, never completed (MPI still matches it, in order: it
 * keeps its sequence number; a wildcard never numbered stays unmatched). */
static void release(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_value *v)
{
    int64_t req = mw_field_int(v, sc->tl.mpi.f_request, 0);
    uint64_t id = pw_msgmatch_complete(&rk->mm, rk->rank, req, NULL);
    pw_key k = {{(uint64_t)req, 0, 0, 0}};
    if (rk->post_t.n)
        pw_keymap_remove(&rk->post_t, &k);
    if (id) {
        given_up(run, rk, id, 1);
        return;
    }
    uint64_t s;
    if (rk->sync_reqs.n && pw_keymap_take(&rk->sync_reqs, &k, &s))
        given_up(run, rk, s, 0);
}

static const pw_value *list_item(const pw_value *v, size_t i)
{
    return v->type == PW_T_LIST ? (i < v->v.list.n ? &v->v.list.items[i] : NULL) : i == 0 ? v : NULL;
}

/* The requests a completion call finished: one, a list (MPI_Waitall), the
 * entry "index" names (MPI_Waitany), the "indices" of "outcount"
 * (MPI_Waitsome); none when "flag" is 0 (MPI_Test*). */
static void complete(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_value *v, mw_p2p_need *c)
{
    if (mw_field_int(v, sc->tl.mpi.f_flag, 1) == 0)
        return;
    const pw_value *req = &v[sc->tl.mpi.f_request];
    size_t n = req->type == PW_T_LIST ? req->v.list.n : 1;
    int f_indices = sc->tl.mpi.f_indices;
    const pw_value *indices = f_indices >= 0 && v[f_indices].present ? &v[f_indices] : NULL;
    int64_t index = mw_field_int(v, sc->tl.mpi.f_index, -2);
    if (indices) { /* outcount is the record's word: never more than the indices it lists */
        int64_t out = mw_field_int(v, sc->tl.mpi.f_outcount, 0);
        size_t listed = indices->type == PW_T_LIST ? indices->v.list.n : 1;
        n = out <= 0 ? 0 : (uint64_t)out < listed ? (size_t)out : listed;
    } else if (sc->tl.mpi.f_index >= 0)
        n = index >= 0 ? 1 : 0;
    int wild = rk->mm.n_wild > rk->mm.n_free; /* only a wildcard receive reads its status */
    /* statuses are no integers: decoded from the record, v may be the integer view */
    const pw_value *st = sc->tl.mpi.f_status >= 0 && wild ? &pw_record_fields(c->rec)[sc->tl.mpi.f_status] : NULL;
    for (size_t i = 0; i < n; i++) {
        int64_t which = indices ? (list_item(indices, i) ? mw_value_int(list_item(indices, i)) : -1)
                        : sc->tl.mpi.f_index >= 0 ? index : (int64_t)i;
        const pw_value *r = which >= 0 ? list_item(req, (size_t)which) : NULL;
        if (!r)
            continue;
        pw_msg status;
        uint64_t bytes;
        int has = st && tl_status_at(st, sc->tl.mpi.f_index >= 0 || req->type != PW_T_LIST ? 0 : i, &status, &bytes);
        completed(run, rk, mw_value_int(r), has ? &status : NULL, c);
    }
}

void mw_waits_p2p(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v)
{
    mw_p2p_need c = {.rec = rec, .timed = rec->has_end && rec->clock == PW_CLOCK_NS};
    if (sc->release) {
        if (sc->tl.mpi.f_request >= 0 && v[sc->tl.mpi.f_request].present)
            release(run, rk, sc, v);
        return;
    }
    uint32_t inst = mw_comm_instance(run, rk, v, sc->tl.mpi.f_comm);
    if (sc->tl.mpi.f_dest >= 0 && v[sc->tl.mpi.f_dest].present)
        send(run, rk, sc, rec, v, inst, &c);
    if (sc->tl.mpi.f_source >= 0 && v[sc->tl.mpi.f_source].present)
        receive(run, rk, sc, rec, v, inst, &c);
    else if (sc->tl.mpi.f_request >= 0 && v[sc->tl.mpi.f_request].present && sc->tl.mpi.f_dest < 0)
        complete(run, rk, sc, v, &c);
    if (c.pend) { /* some other side is still to come */
        mw_pending_release(rk, &c);
    } else if (c.timed && (c.send.any || c.post.any)) {
        mw_pending now = {rec->t, rec->t_end, rec->schema, rec->location, 0, c.send, c.post, 0};
        mw_charge_latest(rk, &now);
    }
}
