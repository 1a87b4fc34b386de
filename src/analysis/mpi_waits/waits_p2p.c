/* waits_p2p.c — point-to-point messages through both passes: pass 1 keeps
 * each message's send entry (sender side) and receive post (receiver side)
 * under the rank's matcher key; pass 2 replays the same matching and
 * charges Late Sender to the call that completes receives (MPI_Recv, the
 * receive half of MPI_Sendrecv, MPI_Wait*, MPI_Test*) and Late Receiver to
 * synchronous sends (MPI_Ssend, the completion of an MPI_Issend).
 *
 * Keys in a rank's matcher: a send is (instance, -1, comm dest, tag), a
 * receive (instance, comm source, -1, tag); -1 stands for the rank itself,
 * so both directions share one matcher without meeting. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/mpi_waits.h"
#include "analysis/timeline_flows.h"

/* The latest other side of a call's messages, and its world rank. */
typedef struct p2p_latest {
    int any;
    uint64_t t;
    int64_t rank;
} p2p_latest;

/* What one call's messages give pass 2: the latest entry of the sends it
 * received, the latest post of the receives of its synchronous sends. */
typedef struct p2p_call {
    int pass;
    p2p_latest send, post;
} p2p_call;

/* The matcher's key number and sequence number of a flow id (msgmatch.c:
 * key number + 1 in the high 24 bits, sequence in the low 40). */
static uint64_t flow_key(uint64_t id) { return (id >> 40) - 1; }
static uint64_t flow_seq(uint64_t id) { return id & 0xffffffffffull; }

int mw_times_set(mw_times *v, uint64_t i, uint64_t t)
{
    if (i >= v->cap) {
        uint64_t cap = v->cap ? v->cap : 16;
        while (cap <= i)
            cap *= 2;
        uint64_t *p = realloc(v->t, cap * sizeof *p);
        if (!p)
            return 0;
        memset(p + v->cap, 0xff, (cap - v->cap) * sizeof *p); /* UINT64_MAX: not seen */
        v->t = p;
        v->cap = cap;
    }
    v->t[i] = t;
    if (i >= v->n)
        v->n = i + 1;
    return 1;
}

/* Pass 1: the time of a message under its flow id. */
static void keep_time(mw_rank *rk, uint64_t id, uint64_t t)
{
    uint64_t k = flow_key(id);
    if (k >= rk->n_chan) {
        uint64_t n = rk->mm.cap_keys > k ? rk->mm.cap_keys : k + 1;
        mw_times *c = realloc(rk->chan, n * sizeof *c);
        if (!c) {
            rk->failed = 1;
            return;
        }
        memset(c + rk->n_chan, 0, (n - rk->n_chan) * sizeof *c);
        rk->chan = c;
        rk->n_chan = n;
    }
    if (!mw_times_set(&rk->chan[k], flow_seq(id), t))
        rk->failed = 1;
}

/* Pass 2: the world channel of a flow id, or NULL when not known. */
static const struct mw_link *link_of(const mw_run *run, const mw_rank *rk, uint64_t id)
{
    uint64_t k = flow_key(id);
    return k < rk->n_chan_link && rk->chan_link[k] != UINT32_MAX ? &run->link[rk->chan_link[k]] : NULL;
}

/* The other side's time of a message (send entry for a receive, receive
 * post for a send), or UINT64_MAX when not known. */
static uint64_t peer_time(const struct mw_link *l, uint64_t id, int want_send)
{
    const mw_times *v = !l ? NULL : want_send ? l->send : l->post;
    uint64_t s = flow_seq(id);
    return v && s < v->n ? v->t[s] : UINT64_MAX;
}

/* Pass 2: message id's other side (its send entry for a receive, its
 * receive post for a synchronous send) into the call's latest. */
static void other_side(const mw_run *run, const mw_rank *rk, p2p_latest *latest, uint64_t id, int want_send)
{
    const struct mw_link *l = link_of(run, rk, id);
    uint64_t t = peer_time(l, id, want_send);
    if (t == UINT64_MAX)
        return;
    if (!latest->any || t > latest->t) {
        latest->t = t;
        latest->rank = want_send ? l->source : l->dest;
    }
    latest->any = 1;
}

static void send(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v,
                 uint32_t inst, p2p_call *c)
{
    int64_t dest = tl_field_int(v, sc->tl.f_dest, -1);
    if (dest < 0) /* MPI_PROC_NULL */
        return;
    pw_msg m = {inst, -1, dest, tl_field_int(v, sc->tl.f_sendtag >= 0 ? sc->tl.f_sendtag : sc->tl.f_tag, 0)};
    uint64_t id = pw_msgmatch_send(&rk->mm, &m);
    if (!id) {
        rk->failed = 1;
        return;
    }
    if (c->pass == 1) {
        keep_time(rk, id, (uint64_t)rec->t);
        return;
    }
    int has_req = sc->tl.f_request >= 0 && v[sc->tl.f_request].present;
    if (sc->sync && !has_req) {
        other_side(run, rk, &c->post, id, 0);
    } else if (sc->sync) {
        pw_key k = {{(uint64_t)tl_field_int(v, sc->tl.f_request, 0), 0, 0, 0}};
        int added;
        uint64_t *slot = pw_keymap_get(&rk->sync_reqs, &k, id, &added);
        if (!slot)
            rk->failed = 1;
        else
            *slot = id;
    }
}

/* A receive: posted now (with a request) or received now. */
static void receive(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v,
                    uint32_t inst, p2p_call *c)
{
    pw_msg m = {inst, tl_field_int(v, sc->tl.f_source, -1), -1,
                tl_field_int(v, sc->tl.f_recvtag >= 0 ? sc->tl.f_recvtag : sc->tl.f_tag, 0)};
    if (sc->tl.f_request >= 0 && v[sc->tl.f_request].present && sc->tl.f_dest < 0) {
        int64_t req = tl_field_int(v, sc->tl.f_request, 0);
        if (!pw_msgmatch_post_recv(&rk->mm, &m, rk->rank, req))
            rk->failed = 1;
        uint64_t id = c->pass == 1 ? pw_msgmatch_posted(&rk->mm, rk->rank, req) : 0;
        pw_key k = {{(uint64_t)req, 0, 0, 0}};
        if (id) { /* matched when posted: its post time goes straight to the table */
            keep_time(rk, id, (uint64_t)rec->t);
            pw_keymap_remove(&rk->post_t, &k); /* an older wildcard's, on a reused handle */
        } else if (c->pass == 1) { /* a wildcard's waits for its status; a reused
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
    if ((m.source < 0 || m.tag < 0) && sc->tl.f_status >= 0 && tl_status_at(&v[sc->tl.f_status], 0, &st, &bytes)) {
        m.source = m.source < 0 ? st.source : m.source;
        m.tag = m.tag < 0 ? st.tag : m.tag;
    }
    if (m.source < 0 || m.tag < 0) /* MPI_PROC_NULL, or a wildcard never resolved */
        return;
    uint64_t id = pw_msgmatch_recv(&rk->mm, &m);
    if (!id)
        rk->failed = 1;
    else if (c->pass == 1)
        keep_time(rk, id, (uint64_t)rec->t);
    else
        other_side(run, rk, &c->send, id, 1);
}

/* One request completed: a receive (its post time kept in pass 1, its
 * send looked up in pass 2) or, in pass 2, an MPI_Issend. */
static void completed(mw_run *run, mw_rank *rk, int64_t req, const pw_msg *status, p2p_call *c)
{
    uint64_t id = pw_msgmatch_complete(&rk->mm, rk->rank, req, status);
    pw_key k = {{(uint64_t)req, 0, 0, 0}};
    if (c->pass == 1) { /* only wildcards' post times wait in post_t */
        uint64_t *t = pw_keymap_find(&rk->post_t, &k);
        if (t && id)
            keep_time(rk, id, *t);
        if (t)
            pw_keymap_remove(&rk->post_t, &k);
    } else if (id) {
        other_side(run, rk, &c->send, id, 1);
    } else {
        uint64_t *s = pw_keymap_find(&rk->sync_reqs, &k);
        if (s) {
            other_side(run, rk, &c->post, *s, 0);
            pw_keymap_remove(&rk->sync_reqs, &k);
        }
    }
}

static const pw_value *list_item(const pw_value *v, size_t i)
{
    return v->type == PW_T_LIST ? (i < v->v.list.n ? &v->v.list.items[i] : NULL) : i == 0 ? v : NULL;
}

/* The requests a completion call finished: one, a list (MPI_Waitall), the
 * entry "index" names (MPI_Waitany), the "indices" of "outcount"
 * (MPI_Waitsome); none when "flag" is 0 (MPI_Test*). */
static void complete(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_value *v, p2p_call *c)
{
    if (tl_field_int(v, sc->tl.f_flag, 1) == 0)
        return;
    const pw_value *req = &v[sc->tl.f_request];
    const pw_value *st = sc->tl.f_status >= 0 ? &v[sc->tl.f_status] : NULL;
    size_t n = req->type == PW_T_LIST ? req->v.list.n : 1;
    const pw_value *indices = sc->f_indices >= 0 && v[sc->f_indices].present ? &v[sc->f_indices] : NULL;
    int64_t index = tl_field_int(v, sc->tl.f_index, -2);
    if (indices)
        n = (size_t)(tl_field_int(v, sc->f_outcount, 0) > 0 ? tl_field_int(v, sc->f_outcount, 0) : 0);
    else if (sc->tl.f_index >= 0)
        n = index >= 0 ? 1 : 0;
    for (size_t i = 0; i < n; i++) {
        int64_t which = indices ? (list_item(indices, i) ? tl_value_int(list_item(indices, i)) : -1)
                        : sc->tl.f_index >= 0 ? index : (int64_t)i;
        const pw_value *r = which >= 0 ? list_item(req, (size_t)which) : NULL;
        if (!r)
            continue;
        pw_msg status;
        uint64_t bytes;
        int has = st && tl_status_at(st, sc->tl.f_index >= 0 || req->type != PW_T_LIST ? 0 : i, &status, &bytes);
        completed(run, rk, tl_value_int(r), has ? &status : NULL, c);
    }
}

/* The messages of one call, in either pass. */
static void p2p_call_walk(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v,
                          p2p_call *c)
{
    uint32_t inst = mw_comm_instance(run, rk, v, sc->tl.f_comm);
    if (sc->tl.f_dest >= 0 && v[sc->tl.f_dest].present)
        send(run, rk, sc, rec, v, inst, c);
    if (sc->tl.f_source >= 0 && v[sc->tl.f_source].present)
        receive(run, rk, sc, rec, v, inst, c);
    else if (sc->tl.f_request >= 0 && v[sc->tl.f_request].present && sc->tl.f_dest < 0)
        complete(run, rk, sc, v, c);
}

void mw_collect_p2p(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v)
{
    p2p_call c = {.pass = 1};
    p2p_call_walk(run, rk, sc, rec, v, &c);
}

/* Scalasca's wait of a call that waited for `other` to start: the part of
 * the call before it, never more than the call. */
static uint64_t waited(const pw_record *rec, uint64_t other)
{
    uint64_t enter = (uint64_t)rec->t, exit = (uint64_t)rec->t_end;
    if (other <= enter || exit < enter)
        return 0;
    return (other < exit ? other : exit) - enter;
}

void mw_waits_p2p(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v)
{
    p2p_call c = {.pass = 2};
    p2p_call_walk(run, rk, sc, rec, v, &c);
    if (!rec->has_end || rec->clock != PW_CLOCK_NS)
        return;
    uint64_t late_sender = c.send.any ? waited(rec, c.send.t) : 0;
    if (late_sender)
        mw_charge(rk, rec, MW_LATE_SENDER, late_sender, c.send.rank);
    else if (c.post.any) /* a call waits once: for its sender first */
        mw_charge(rk, rec, MW_LATE_RECEIVER, waited(rec, c.post.t), c.post.rank);
}
