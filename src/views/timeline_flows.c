/* timeline_flows.c — sends, receives and request completions of a record
 * turned into flow ids by the message matcher (see timeline_flows.h). */
#include "views/timeline_flows.h"

#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/mix64.h"

void tl_flows_init(tl_flows *f)
{
    memset(f, 0, sizeof *f);
    pw_msgmatch_init(&f->mm);
}

void tl_flows_free(tl_flows *f)
{
    pw_msgmatch_free(&f->mm);
    pw_keymap_free(&f->unsent);
    for (uint32_t i = 0; i < f->n_parked; i++)
        free(f->parked[i].ids);
    free(f->parked);
    free(f->ids);
    free(f->bytes);
    free(f->reqs);
    free(f->done);
    free(f->msgs);
    memset(f, 0, sizeof *f);
}

static int64_t value_int(const pw_value *v)
{
    if (!v->present)
        return 0;
    switch (v->type) {
    case PW_T_BOOL: return v->v.b;
    case PW_T_I64: return v->v.i;
    case PW_T_U64: return (int64_t)v->v.u;
    case PW_T_F64:
    case PW_T_DECIMAL: return pw_tl_int64(pw_value_number(v));
    default: return 0;
    }
}

/* Field i of the record as an integer; `absent` when the schema or the
 * record lacks it. */
static int64_t field_int(const pw_value *v, int i, int64_t absent)
{
    return i >= 0 && v[i].present ? value_int(&v[i]) : absent;
}

int64_t tl_value_int(const pw_value *v) { return value_int(v); }

/* Where a status object's source, tag and bytes are (-1: absent), found
 * by name once per field table: statuses of a format share one table. */
typedef struct status_layout {
    const pw_field *fields;
    size_t n;
    int source, tag, bytes;
} status_layout;

static const status_layout *layout_of(const pw_value *st)
{
    static _Thread_local status_layout last;
    if (last.fields == st->v.list.fields && last.n == st->v.list.n && last.fields)
        return &last;
    last = (status_layout){st->v.list.fields, st->v.list.n, -1, -1, -1};
    for (size_t k = 0; k < st->v.list.n; k++) {
        const char *name = st->v.list.fields[k].name;
        if (!strcmp(name, "source"))
            last.source = (int)k;
        else if (!strcmp(name, "tag"))
            last.tag = (int)k;
        else if (!strcmp(name, "bytes"))
            last.bytes = (int)k;
    }
    return &last;
}

int tl_status_at(const pw_value *st, size_t i, pw_msg *out, uint64_t *bytes)
{
    if (st->present && st->type == PW_T_LIST)
        st = i < st->v.list.n ? &st->v.list.items[i] : NULL;
    else if (i > 0)
        st = NULL;
    if (!st || !st->present || st->type != PW_T_OBJECT)
        return 0;
    const status_layout *l = layout_of(st);
    const pw_value *items = st->v.list.items;
    out->source = l->source >= 0 ? value_int(&items[l->source]) : -1;
    out->tag = l->tag >= 0 ? value_int(&items[l->tag]) : -1;
    *bytes = l->bytes >= 0 && value_int(&items[l->bytes]) >= 0 ? (uint64_t)value_int(&items[l->bytes]) : PW_TL_NO_BYTES;
    return 1;
}

static int add_flow_in(tl_flows *f, pw_tl_event *ev, uint64_t id, uint64_t bytes, int64_t request)
{
    if (!id)
        return 1;
    if (ev->n_flows_in == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 16;
        uint64_t *ids = realloc(f->ids, cap * sizeof *ids);
        if (ids)
            f->ids = ids;
        uint64_t *b = ids ? realloc(f->bytes, cap * sizeof *b) : NULL;
        if (b)
            f->bytes = b;
        int64_t *r = b ? realloc(f->reqs, cap * sizeof *r) : NULL;
        if (r)
            f->reqs = r;
        const pw_msg **msgs = r ? realloc(f->msgs, cap * sizeof *msgs) : NULL;
        if (!msgs)
            return 0;
        f->msgs = msgs;
        f->cap = cap;
    }
    f->msgs[ev->n_flows_in] = pw_msgmatch_key(&f->mm, id);
    f->bytes[ev->n_flows_in] = bytes;
    f->reqs[ev->n_flows_in] = request;
    f->ids[ev->n_flows_in++] = id;
    ev->flows_in = f->ids;
    ev->msgs_in = f->msgs;
    ev->bytes_in = f->bytes;
    ev->requests_in = f->reqs;
    return 1;
}

/* A nonblocking send's request completed at ev. */
static int add_send_done(tl_flows *f, pw_tl_event *ev, int64_t request)
{
    if (ev->n_sends_done == f->cap_done) {
        size_t cap = f->cap_done ? f->cap_done * 2 : 16;
        int64_t *d = realloc(f->done, cap * sizeof *d);
        if (!d)
            return 0;
        f->done = d;
        f->cap_done = cap;
    }
    f->done[ev->n_sends_done++] = request;
    ev->sends_done = f->done;
    return 1;
}

/* Request completions: one request, a list (MPI_Waitall), or the list
 * entry "index" names (MPI_Waitany); none when "flag" is 0. */
static int complete(tl_flows *f, const tl_schema *sc, const pw_value *v, int64_t rank, pw_tl_event *ev)
{
    if (field_int(v, sc->mpi.f_flag, 1) == 0)
        return 1;
    const pw_value *req = &v[sc->mpi.f_request];
    const pw_value *st = sc->mpi.f_status >= 0 ? &v[sc->mpi.f_status] : NULL;
    size_t n = req->type == PW_T_LIST ? req->v.list.n : 1, first = 0;
    if (req->type == PW_T_LIST && sc->mpi.f_index >= 0) {
        int64_t idx = field_int(v, sc->mpi.f_index, -1);
        if (idx < 0 || (uint64_t)idx >= n)
            return 1;
        first = (size_t)idx;
        n = first + 1;
    }
    for (size_t i = first; i < n; i++) {
        pw_msg status;
        uint64_t bytes = PW_TL_NO_BYTES;
        int has = st && tl_status_at(st, sc->mpi.f_index >= 0 ? 0 : i, &status, &bytes);
        int64_t r = value_int(req->type == PW_T_LIST ? &req->v.list.items[i] : req);
        if (pw_msgmatch_complete_send(&f->mm, rank, r)) {
            if (!add_send_done(f, ev, r))
                return 0;
        } else if (!add_flow_in(f, ev, pw_msgmatch_complete(&f->mm, rank, r, has ? &status : NULL), bytes, r)) {
            return 0;
        }
    }
    return 1;
}

/* A receive: matched now, or posted when it has a request.  Wildcards of
 * a blocking receive come from its status. */
static int receive(tl_flows *f, const tl_schema *sc, const pw_value *v, int64_t rank, pw_msg m, pw_tl_event *ev)
{
    m.source = field_int(v, sc->mpi.f_source, -1);
    m.dest = rank;
    m.tag = field_int(v, sc->mpi.f_recvtag >= 0 ? sc->mpi.f_recvtag : sc->mpi.f_tag, 0);
    int has_req = sc->mpi.f_request >= 0 && v[sc->mpi.f_request].present && sc->mpi.f_dest < 0;
    if (has_req) {
        ev->request_posted = field_int(v, sc->mpi.f_request, 0);
        return pw_msgmatch_post_recv(&f->mm, &m, rank, ev->request_posted) != 0;
    }
    pw_msg status;
    uint64_t bytes = PW_TL_NO_BYTES;
    if (sc->mpi.f_status >= 0 && tl_status_at(&v[sc->mpi.f_status], 0, &status, &bytes)) {
        if (m.source < 0)
            m.source = status.source;
        if (m.tag < 0)
            m.tag = status.tag;
    }
    if (m.source < 0 || m.tag < 0) /* MPI_PROC_NULL, or a wildcard never resolved */
        return 1;
    return add_flow_in(f, ev, pw_msgmatch_recv(&f->mm, &m), bytes, PW_TL_NO_REQUEST);
}

int tl_flows_of(tl_flows *f, const tl_schema *sc, const pw_record *rec, int64_t rank, pw_tl_event *ev)
{
    const pw_value *v = pw_record_fields(rec);
    pw_msg m = {field_int(v, sc->mpi.f_comm, 0), rank, 0, 0};
    int64_t dest = field_int(v, sc->mpi.f_dest, -1);
    if (dest >= 0) {
        m.dest = dest;
        m.tag = field_int(v, sc->mpi.f_sendtag >= 0 ? sc->mpi.f_sendtag : sc->mpi.f_tag, 0);
        ev->flow_out = pw_msgmatch_send(&f->mm, &m);
        if (!ev->flow_out)
            return 0;
        ev->msg_out = pw_msgmatch_key(&f->mm, ev->flow_out);
        pw_key k = {{ev->flow_out, 0, 0, 0}};
        if (sc->mpi.f_request >= 0 && v[sc->mpi.f_request].present && v[sc->mpi.f_request].type != PW_T_LIST) { /* MPI_Isend */
            ev->request_out = field_int(v, sc->mpi.f_request, 0);
            if (!pw_msgmatch_post_send(&f->mm, rank, ev->request_out))
                return 0;
        }
        if (f->n_unsent && pw_keymap_find(&f->unsent, &k)) { /* its receive was drawn already */
            pw_keymap_remove(&f->unsent, &k);
            f->n_unsent--;
            f->backwards++;
            ev->flow_out = 0;
            ev->msg_out = NULL;
        }
    }
    if (sc->mpi.f_source >= 0 && v[sc->mpi.f_source].present)
        return receive(f, sc, v, rank, m, ev);
    if (sc->mpi.f_request >= 0 && v[sc->mpi.f_request].present && sc->mpi.f_dest < 0)
        return complete(f, sc, v, rank, ev);
    return 1;
}

uint32_t tl_flows_park(tl_flows *f, pw_tl_event *ev)
{
    if (!ev->n_flows_in)
        return 0;
    uint32_t slot = f->free_parked;
    if (slot) {
        f->free_parked = f->parked[slot - 1].next_free;
    } else {
        if (f->n_parked >= UINT32_MAX / 2 ||
            !pw_grow_zeroed((void **)&f->parked, &f->cap_parked, f->n_parked, sizeof *f->parked))
            return UINT32_MAX;
        slot = ++f->n_parked;
    }
    tl_parked *p = &f->parked[slot - 1];
    if (ev->n_flows_in >= UINT32_MAX / 4 ||
        !pw_grow_zeroed((void **)&p->ids, &p->cap, 3 * (uint32_t)ev->n_flows_in - 1, sizeof *p->ids)) {
        p->next_free = f->free_parked;
        f->free_parked = slot;
        return UINT32_MAX;
    }
    for (size_t i = 0; i < ev->n_flows_in; i++) {
        p->ids[3 * i] = ev->flows_in[i];
        p->ids[3 * i + 1] = ev->bytes_in[i];
        p->ids[3 * i + 2] = (uint64_t)ev->requests_in[i];
    }
    p->n = (uint32_t)ev->n_flows_in;
    ev->n_flows_in = 0;
    ev->flows_in = NULL;
    ev->msgs_in = NULL;
    ev->bytes_in = NULL;
    ev->requests_in = NULL;
    return slot;
}

int tl_flows_unpark(tl_flows *f, uint32_t slot, pw_tl_event *ev)
{
    tl_parked *p = &f->parked[slot - 1];
    p->next_free = f->free_parked;
    f->free_parked = slot;
    for (uint32_t i = 0; i < p->n; i++)
        if (!add_flow_in(f, ev, p->ids[3 * i], p->ids[3 * i + 1], (int64_t)p->ids[3 * i + 2]))
            return 0;
    return 1;
}

/* Is m's other end drawn by another process (a share drawn alone)? */
static int crosses(const tl_flows *f, int64_t other_rank)
{
    unsigned o = f->share ? tl_share_owner_of_rank(f->share, other_rank) : 0;
    return o && o - 1 != f->share->me;
}

int tl_flows_drop_backwards(tl_flows *f, pw_tl_event *ev, const tl_pos *at)
{
    size_t k = 0;
    for (size_t i = 0; i < ev->n_flows_in; i++) {
        const pw_msg *m = ev->msgs_in[i];
        int remote = f->share && tl_share_owner_of_rank(f->share, m->source) != f->share->me + 1;
        const tl_pos *sent = remote ? tl_share_other_end(f->share, m, tl_flow_seq(ev->flows_in[i])) : NULL;
        if (remote ? sent && tl_pos_before(sent, at) : pw_msgmatch_sent(&f->mm, ev->flows_in[i])) {
            f->ids[k] = f->ids[i];
            f->bytes[k] = f->bytes[i];
            f->reqs[k] = f->reqs[i];
            f->msgs[k++] = f->msgs[i];
            continue;
        }
        if (remote) /* sent later or never: the sender's process counts it */
            continue;
        pw_key key = {{ev->flows_in[i], 0, 0, 0}};
        int added;
        if (!pw_keymap_get(&f->unsent, &key, 0, &added))
            return 0;
        f->n_unsent += added; /* backwards when its send comes; else a receive never matched */
    }
    ev->n_flows_in = k;
    return 1;
}

void tl_flows_note_ends(tl_flows *f, const pw_tl_event *ev, const tl_pos *at)
{
    if (ev->flow_out)
        tl_share_note(f->share, ev->msg_out, tl_flow_seq(ev->flow_out), 1, at);
    for (size_t i = 0; i < ev->n_flows_in; i++)
        tl_share_note(f->share, ev->msgs_in[i], tl_flow_seq(ev->flows_in[i]), 0, at);
}

void tl_flows_share_send(tl_flows *f, pw_tl_event *ev, const tl_pos *at)
{
    if (!crosses(f, ev->msg_out->dest))
        return;
    const tl_pos *received = tl_share_other_end(f->share, ev->msg_out, tl_flow_seq(ev->flow_out));
    if (received && !tl_pos_before(at, received)) {
        ev->flow_out = 0;
        ev->msg_out = NULL;
        f->backwards++;
    }
}

void tl_flows_unmatched(const tl_flows *f, uint64_t *sends, uint64_t *recvs)
{
    pw_msgmatch_unmatched(&f->mm, sends, recvs);
    if (!f->share)
        return;
    *sends = *recvs = 0;
    for (uint64_t i = 0; i < f->mm.n_keys; i++) {
        const struct pw_msg_counts *c = &f->mm.counts[i];
        uint64_t other = 0, mine = 0;
        if (crosses(f, c->key.dest)) { /* sent here, received by another process */
            mine = c->sends;
            other = tl_share_other_ends(f->share, &c->key);
            *sends += mine > other ? mine - other : 0;
        } else if (crosses(f, c->key.source)) { /* received here, sent by another process */
            mine = c->recvs;
            other = tl_share_other_ends(f->share, &c->key);
            *recvs += mine > other ? mine - other : 0;
        } else if (c->sends > c->recvs) {
            *sends += c->sends - c->recvs;
        } else {
            *recvs += c->recvs - c->sends;
        }
    }
}


uint64_t pw_tl_flow_uuid(const pw_msg *m, uint64_t flow_id)
{
    uint64_t h = pw_mix64(tl_flow_seq(flow_id) + 0x9e3779b97f4a7c15ull);
    h = pw_mix64(h ^ (uint64_t)m->comm);
    h = pw_mix64(h ^ (uint64_t)m->source);
    h = pw_mix64(h ^ (uint64_t)m->dest);
    h = pw_mix64(h ^ (uint64_t)m->tag);
    return h ? h : 1;
}
