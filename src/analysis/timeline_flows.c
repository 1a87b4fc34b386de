/* timeline_flows.c — sends, receives and request completions of a record
 * turned into flow ids by the message matcher (see timeline_flows.h). */
#include "analysis/timeline_flows.h"

#include <stdlib.h>
#include <string.h>

void tl_flows_init(tl_flows *f)
{
    memset(f, 0, sizeof *f);
    pw_msgmatch_init(&f->mm);
}

void tl_flows_free(tl_flows *f)
{
    pw_msgmatch_free(&f->mm);
    free(f->ids);
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

int64_t tl_field_int(const pw_value *v, int i, int64_t absent) { return field_int(v, i, absent); }

int tl_status_at(const pw_value *st, size_t i, pw_msg *out)
{
    if (st->present && st->type == PW_T_LIST)
        st = i < st->v.list.n ? &st->v.list.items[i] : NULL;
    else if (i > 0)
        st = NULL;
    if (!st || !st->present || st->type != PW_T_OBJECT)
        return 0;
    out->source = out->tag = -1;
    for (size_t k = 0; k < st->v.list.n; k++) {
        if (!strcmp(st->v.list.fields[k].name, "source"))
            out->source = value_int(&st->v.list.items[k]);
        else if (!strcmp(st->v.list.fields[k].name, "tag"))
            out->tag = value_int(&st->v.list.items[k]);
    }
    return 1;
}

static int add_flow_in(tl_flows *f, pw_tl_event *ev, uint64_t id)
{
    if (!id)
        return 1;
    if (ev->n_flows_in == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 16;
        uint64_t *ids = realloc(f->ids, cap * sizeof *ids);
        if (ids)
            f->ids = ids;
        const pw_msg **msgs = ids ? realloc(f->msgs, cap * sizeof *msgs) : NULL;
        if (!msgs)
            return 0;
        f->msgs = msgs;
        f->cap = cap;
    }
    f->msgs[ev->n_flows_in] = pw_msgmatch_key(&f->mm, id);
    f->ids[ev->n_flows_in++] = id;
    ev->flows_in = f->ids;
    ev->msgs_in = f->msgs;
    return 1;
}

/* Request completions: one request, a list (MPI_Waitall), or the list
 * entry "index" names (MPI_Waitany); none when "flag" is 0. */
static int complete(tl_flows *f, const tl_schema *sc, const pw_value *v, int64_t rank, pw_tl_event *ev)
{
    if (field_int(v, sc->f_flag, 1) == 0)
        return 1;
    const pw_value *req = &v[sc->f_request];
    const pw_value *st = sc->f_status >= 0 ? &v[sc->f_status] : NULL;
    size_t n = req->type == PW_T_LIST ? req->v.list.n : 1, first = 0;
    if (req->type == PW_T_LIST && sc->f_index >= 0) {
        int64_t idx = field_int(v, sc->f_index, -1);
        if (idx < 0 || (uint64_t)idx >= n)
            return 1;
        first = (size_t)idx;
        n = first + 1;
    }
    for (size_t i = first; i < n; i++) {
        pw_msg status;
        int has = st && tl_status_at(st, sc->f_index >= 0 ? 0 : i, &status);
        int64_t r = value_int(req->type == PW_T_LIST ? &req->v.list.items[i] : req);
        if (!add_flow_in(f, ev, pw_msgmatch_complete(&f->mm, rank, r, has ? &status : NULL)))
            return 0;
    }
    return 1;
}

/* A receive: matched now, or posted when it has a request.  Wildcards of
 * a blocking receive come from its status. */
static int receive(tl_flows *f, const tl_schema *sc, const pw_value *v, int64_t rank, pw_msg m, pw_tl_event *ev)
{
    m.source = field_int(v, sc->f_source, -1);
    m.dest = rank;
    m.tag = field_int(v, sc->f_recvtag >= 0 ? sc->f_recvtag : sc->f_tag, 0);
    int has_req = sc->f_request >= 0 && v[sc->f_request].present && sc->f_dest < 0;
    if (has_req)
        return pw_msgmatch_post_recv(&f->mm, &m, rank, field_int(v, sc->f_request, 0));
    pw_msg status;
    if ((m.source < 0 || m.tag < 0) && sc->f_status >= 0 && tl_status_at(&v[sc->f_status], 0, &status)) {
        if (m.source < 0)
            m.source = status.source;
        if (m.tag < 0)
            m.tag = status.tag;
    }
    if (m.source < 0 || m.tag < 0) /* MPI_PROC_NULL, or a wildcard never resolved */
        return 1;
    return add_flow_in(f, ev, pw_msgmatch_recv(&f->mm, &m));
}

int tl_flows_of(tl_flows *f, const tl_schema *sc, const pw_record *rec, int64_t rank, pw_tl_event *ev)
{
    const pw_value *v = pw_record_fields(rec);
    pw_msg m = {field_int(v, sc->f_comm, 0), rank, 0, 0};
    int64_t dest = field_int(v, sc->f_dest, -1);
    if (dest >= 0) {
        m.dest = dest;
        m.tag = field_int(v, sc->f_sendtag >= 0 ? sc->f_sendtag : sc->f_tag, 0);
        ev->flow_out = pw_msgmatch_send(&f->mm, &m);
        if (!ev->flow_out)
            return 0;
        ev->msg_out = pw_msgmatch_key(&f->mm, ev->flow_out);
    }
    if (sc->f_source >= 0 && v[sc->f_source].present)
        return receive(f, sc, v, rank, m, ev);
    if (sc->f_request >= 0 && v[sc->f_request].present && sc->f_dest < 0)
        return complete(f, sc, v, rank, ev);
    return 1;
}
