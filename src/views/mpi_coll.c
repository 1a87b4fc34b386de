/* mpi_coll.c — MPI collectives and buffer sizes from record fields (see
 * mpi_coll.h). */
#include "views/mpi_coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/timeline.h"
#include "views/timeline_schema.h"

/* An integer value (lists: the sum of their items); 0 when absent. */
static int64_t int_or_sum(const pw_value *v)
{
    if (!v->present)
        return 0;
    switch (v->type) {
    case PW_T_I64: return v->v.i;
    case PW_T_U64: return (int64_t)v->v.u;
    case PW_T_F64:
    case PW_T_DECIMAL: return pw_tl_int64(pw_value_number(v));
    case PW_T_LIST: {
        uint64_t sum = 0; /* wraps on absurd counts rather than overflow */
        for (size_t i = 0; i < v->v.list.n; i++)
            sum += (uint64_t)int_or_sum(&v->v.list.items[i]);
        return (int64_t)sum;
    }
    default: return 0;
    }
}

static int64_t field(const pw_value *v, int i) { return i >= 0 ? int_or_sum(&v[i]) : 0; }

/* count x the size of datatype id `type`; 0 when either is unknown or
 * negative. */
static uint64_t bytes_of(int64_t count, int64_t type, const pw_type_sizes *sizes)
{
    if (count <= 0 || type < 0 || !sizes || (uint64_t)type >= sizes->n)
        return 0;
    return (uint64_t)count * sizes->bytes[type];
}

/* recvcount is per peer in these (the whole buffer is commsize of them). */
static int per_peer_recv(pw_coll_op op)
{
    return op == PW_COLL_GATHER || op == PW_COLL_ALLGATHER || op == PW_COLL_ALLTOALL;
}

/* The elements the call sends by its own count fields, and their
 * datatype (-1: unknown). */
static int64_t send_elements(const pw_mpi_call_view *cs, const pw_value *v, int64_t *type)
{
    int64_t one_type = cs->f_datatype >= 0 ? field(v, cs->f_datatype) : -1;
    *type = cs->f_sendtype >= 0 ? field(v, cs->f_sendtype) : one_type;
    if (cs->f_sendcount >= 0)
        return v[cs->f_sendcount].present ? field(v, cs->f_sendcount) : 0;
    return field(v, cs->f_count);
}

/* Whether the call's sent bytes need its receive counts too. */
static int sends_its_recvcounts(const pw_mpi_call_view *cs)
{
    return cs->op == PW_COLL_REDUCE_SCATTER && cs->f_sendcount < 0;
}

void pw_mpi_call_read(const pw_mpi_call_view *cs, const pw_value *v, const pw_type_sizes *sizes, pw_mpi_call *out)
{
    out->op = cs->op;
    out->comm = field(v, cs->f_comm);
    out->root = cs->f_root >= 0 && v[cs->f_root].present ? field(v, cs->f_root) : -1;
    int64_t one = field(v, cs->f_count), one_type = cs->f_datatype >= 0 ? field(v, cs->f_datatype) : -1;
    int64_t send_type, send = send_elements(cs, v, &send_type);
    int64_t recv = cs->f_recvcount >= 0 ? field(v, cs->f_recvcount) : one;
    int64_t recv_type = cs->f_recvtype >= 0 ? field(v, cs->f_recvtype) : one_type;
    if (sends_its_recvcounts(cs))
        send = recv;
    if (per_peer_recv(cs->op) && cs->f_commsize >= 0 && __builtin_mul_overflow(recv, field(v, cs->f_commsize), &recv))
        recv = 0;
    out->sent = bytes_of(send, send_type, sizes);
    out->received = bytes_of(recv, recv_type, sizes);
}

void pw_type_sizes_free(pw_type_sizes *sizes)
{
    free(sizes->bytes);
    sizes->bytes = NULL;
    sizes->n = 0;
}

int pw_type_sizes_load(pw_type_sizes *sizes, const pw_dataset *ds, uint32_t process_loc)
{
    char key[512];
    snprintf(key, sizeof key, "%s:datatype_sizes", ds->locs[process_loc].path);
    const char *text = pw_dataset_prop_get(ds, key);
    sizes->n = 0;
    if (!text)
        return 1;
    size_t n = 1;
    for (const char *p = text; *p; p++)
        n += *p == ' ';
    uint32_t *b = realloc(sizes->bytes, n * sizeof *b);
    if (!b)
        return 0;
    sizes->bytes = b;
    for (const char *p = text; *p && sizes->n < n;) {
        char *end;
        unsigned long x = strtoul(p, &end, 10);
        if (end == p)
            break;
        b[sizes->n++] = x > UINT32_MAX ? 0 : (uint32_t)x;
        p = end;
    }
    return 1;
}

int pw_mpi_calls_init(pw_mpi_calls *c, const pw_dataset *ds)
{
    memset(c, 0, sizeof *c);
    c->ds = ds;
    c->coll = calloc(ds->n_schemas ? ds->n_schemas : 1, sizeof *c->coll);
    c->sizes = calloc(ds->n_locs ? ds->n_locs : 1, sizeof *c->sizes);
    c->loaded = calloc(ds->n_locs ? ds->n_locs : 1, 1);
    if (!c->coll || !c->sizes || !c->loaded)
        return 0;
    for (size_t i = 0; i < ds->n_schemas; i++)
        pw_mpi_call_view_of(ds->schemas[i]->name, ds->schemas[i]->mpi_fields, &c->coll[i]);
    return 1;
}

void pw_mpi_calls_free(pw_mpi_calls *c)
{
    for (size_t i = 0; c->sizes && i < c->ds->n_locs; i++)
        pw_type_sizes_free(&c->sizes[i]);
    free(c->sizes);
    free(c->loaded);
    free(c->coll);
    memset(c, 0, sizeof *c);
}

/* The datatype sizes of rec's process, read on first use; NULL when
 * memory runs out. */
static const pw_type_sizes *sizes_of(pw_mpi_calls *c, const pw_record *rec)
{
    uint32_t process = pw_tl_process_of(c->ds, rec->location);
    if (!c->loaded[process]) {
        if (!pw_type_sizes_load(&c->sizes[process], c->ds, process))
            return NULL;
        c->loaded[process] = 1;
    }
    return &c->sizes[process];
}

int pw_mpi_calls_read(pw_mpi_calls *c, const pw_record *rec, pw_mpi_call *out)
{
    memset(out, 0, sizeof *out);
    out->op = PW_COLL_NONE;
    out->root = -1;
    if (!rec)
        return 1;
    const pw_type_sizes *sizes = sizes_of(c, rec);
    if (!sizes)
        return 0;
    pw_mpi_call_read(&c->coll[rec->schema], pw_record_fields(rec), sizes, out);
    return 1;
}

int pw_mpi_calls_sent(pw_mpi_calls *c, const pw_record *rec, const pw_value *v, uint64_t *sent)
{
    const pw_mpi_call_view *cs = &c->coll[rec->schema];
    if (sends_its_recvcounts(cs)) {
        pw_mpi_call call;
        int ok = pw_mpi_calls_read(c, rec, &call);
        *sent = call.sent;
        return ok;
    }
    const pw_type_sizes *sizes = sizes_of(c, rec);
    if (!sizes)
        return 0;
    int64_t type, n = send_elements(cs, v, &type);
    *sent = bytes_of(n, type, sizes);
    return 1;
}
