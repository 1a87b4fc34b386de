/* otf2_calls.c — MPI calls as the MPI analyses read them (the cursor's
 * mpi_calls, model/dataset.h): OTF2 records a call as the Enter and Leave
 * of an MPI region on a location with its MPI events between them, as
 * Score-P writes them.  Each MPI function gets a call schema, named as
 * MPI names it, whose fields carry the roles DUMPI's tables give
 * (model/mpi_roles.h), so that message matching, collectives and wait
 * states need nothing of OTF2:
 *   MpiSend, MpiIsend      dest, sendtag, comm, count (bytes), request
 *   MpiRecv                source, recvtag, comm
 *   MpiIrecvRequest        a receive posted with its request only: OTF2
 *                          names its peer and tag at completion, so it is
 *                          posted as MPI_ANY_SOURCE, MPI_ANY_TAG (on world)
 *                          and matched by the completion's status
 *   MpiIrecv,              the requests the call completed, each with a
 *   MpiIsendComplete       status (source, tag, bytes) for a receive
 *   MpiRequestCancelled    the request MPI_Cancel gives up
 *   MpiCollectiveEnd       comm, root, bytes sent and received.
 * Peers are ranks in the event's communicator, as in MPI; the
 * communicators are the archive's Comm definitions, handed over with
 * their members (pw_mpi_defined_comms).  Memory: the calls open on the
 * location (nested MPI regions), and the requests of the latest call. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/otf2/otf2.h"
#include "model/mpi_call.h"
#include "model/value.h"

/* The fields of every call schema; a schema's roles name those it has. */
enum { F_DEST, F_SOURCE, F_SENDTAG, F_RECVTAG, F_COMM, F_COUNT, F_DATATYPE, F_REQUEST, F_REQUESTS,
       F_STATUSES, F_ROOT, F_SENDCOUNT, F_RECVCOUNT, F_SENDTYPE, F_RECVTYPE, F_N };

static const pw_field call_fields[F_N] = {
    [F_DEST] = {"dest", PW_T_I64, NULL, NULL},         [F_SOURCE] = {"source", PW_T_I64, NULL, NULL},
    [F_SENDTAG] = {"sendtag", PW_T_I64, NULL, NULL},   [F_RECVTAG] = {"recvtag", PW_T_I64, NULL, NULL},
    [F_COMM] = {"comm", PW_T_I64, NULL, NULL},         [F_COUNT] = {"count", PW_T_I64, "B", NULL},
    [F_DATATYPE] = {"datatype", PW_T_I64, NULL, NULL}, [F_REQUEST] = {"request", PW_T_I64, NULL, NULL},
    [F_REQUESTS] = {"requests", PW_T_LIST, NULL, NULL}, [F_STATUSES] = {"statuses", PW_T_LIST, NULL, NULL},
    [F_ROOT] = {"root", PW_T_I64, NULL, NULL},         [F_SENDCOUNT] = {"sendcount", PW_T_I64, "B", NULL},
    [F_RECVCOUNT] = {"recvcount", PW_T_I64, "B", NULL}, [F_SENDTYPE] = {"sendtype", PW_T_I64, NULL, NULL},
    [F_RECVTYPE] = {"recvtype", PW_T_I64, NULL, NULL},
};

/* A status's fields, as the message matcher reads them by name. */
enum { S_SOURCE, S_TAG, S_BYTES, S_N };
static const pw_field status_fields[S_N] = {
    {"source", PW_T_I64, NULL, NULL}, {"tag", PW_T_I64, NULL, NULL}, {"bytes", PW_T_I64, "B", NULL}};

/* The kinds of call, each with its role table. */
typedef enum { K_OTHER, K_SEND, K_RECV, K_IRECV, K_SENDRECV, K_COMPLETE, K_CANCEL, K_COLL, K_N } call_kind;

static int16_t role_tables[K_N][PW_N_MPI_ROLES];

/* The fields of each kind by role: roles[k][role] = field. */
static void roles_init(void)
{
    static const struct { call_kind k; pw_mpi_role r; int16_t f; } has[] = {
        {K_SEND, PW_ROLE_DEST, F_DEST},           {K_SEND, PW_ROLE_SEND_TAG, F_SENDTAG},
        {K_SEND, PW_ROLE_COMM, F_COMM},           {K_SEND, PW_ROLE_COUNT, F_COUNT},
        {K_SEND, PW_ROLE_DATATYPE, F_DATATYPE},   {K_SEND, PW_ROLE_REQUEST, F_REQUEST},
        {K_RECV, PW_ROLE_SOURCE, F_SOURCE},       {K_RECV, PW_ROLE_RECV_TAG, F_RECVTAG},
        {K_RECV, PW_ROLE_COMM, F_COMM},           {K_IRECV, PW_ROLE_SOURCE, F_SOURCE},
        {K_IRECV, PW_ROLE_RECV_TAG, F_RECVTAG},   {K_IRECV, PW_ROLE_COMM, F_COMM},
        {K_IRECV, PW_ROLE_REQUEST, F_REQUEST},    {K_SENDRECV, PW_ROLE_DEST, F_DEST},
        {K_SENDRECV, PW_ROLE_SOURCE, F_SOURCE},   {K_SENDRECV, PW_ROLE_SEND_TAG, F_SENDTAG},
        {K_SENDRECV, PW_ROLE_RECV_TAG, F_RECVTAG}, {K_SENDRECV, PW_ROLE_COMM, F_COMM},
        {K_SENDRECV, PW_ROLE_COUNT, F_COUNT},     {K_SENDRECV, PW_ROLE_DATATYPE, F_DATATYPE},
        {K_COMPLETE, PW_ROLE_REQUEST, F_REQUESTS}, {K_COMPLETE, PW_ROLE_STATUS, F_STATUSES},
        {K_CANCEL, PW_ROLE_REQUEST, F_REQUEST},   {K_COLL, PW_ROLE_COMM, F_COMM},
        {K_COLL, PW_ROLE_ROOT, F_ROOT},           {K_COLL, PW_ROLE_SEND_COUNT, F_SENDCOUNT},
        {K_COLL, PW_ROLE_RECV_COUNT, F_RECVCOUNT}, {K_COLL, PW_ROLE_SEND_TYPE, F_SENDTYPE},
        {K_COLL, PW_ROLE_RECV_TYPE, F_RECVTYPE},
    };
    memset(role_tables, 0xff, sizeof role_tables);
    for (size_t i = 0; i < sizeof has / sizeof *has; i++)
        role_tables[has[i].k][has[i].r] = has[i].f;
}

static int named(const char *name, const char *const *names)
{
    for (; *names; names++)
        if (!strcmp(name, *names))
            return 1;
    return 0;
}

/* What a function's name says its call is. */
static call_kind kind_of(const char *name)
{
    static const char *const sends[] = {"MPI_Send",  "MPI_Bsend",  "MPI_Ssend",  "MPI_Rsend", "MPI_Isend",
                                        "MPI_Ibsend", "MPI_Issend", "MPI_Irsend", NULL};
    static const char *const sendrecvs[] = {"MPI_Sendrecv", "MPI_Sendrecv_replace", NULL};
    pw_mpi_call_view v;
    pw_mpi_call_view_of(name, role_tables[K_OTHER], &v);
    if (v.op != PW_COLL_NONE)
        return K_COLL;
    if (named(name, sends))
        return K_SEND;
    if (named(name, sendrecvs))
        return K_SENDRECV;
    if (!strcmp(name, "MPI_Recv"))
        return K_RECV;
    if (!strcmp(name, "MPI_Irecv"))
        return K_IRECV;
    if (!strcmp(name, "MPI_Cancel"))
        return K_CANCEL;
    return !strncmp(name, "MPI_Wait", 8) || !strncmp(name, "MPI_Test", 8) ? K_COMPLETE : K_OTHER;
}

/* A call schema per MPI function the regions name. */
static pw_status call_schemas(pw_dataset *ds, ot_dataset *od, pw_error *err)
{
    od->call_schema_of_region = calloc(od->regions.n + 1, sizeof *od->call_schema_of_region);
    int32_t *of_fn = calloc(od->profiles.n_functions + 1, sizeof *of_fn);
    if (!od->call_schema_of_region || !of_fn) {
        free(of_fn);
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    for (uint32_t f = 0; f <= od->profiles.n_functions; f++)
        of_fn[f] = -1;
    pw_status st = PW_OK;
    for (uint32_t r = 0; r < od->regions.n && st == PW_OK; r++) {
        int32_t fn = od->fn_of_region[r];
        od->call_schema_of_region[r] = -1;
        if (fn < 0 || (uint32_t)fn >= od->profiles.n_functions)
            continue;
        if (of_fn[fn] < 0) {
            const char *name = od->profiles.function_name((uint32_t)fn);
            of_fn[fn] = pw_ds_add_schema(ds, name, "an MPI call: its region's Enter and Leave, its MPI events",
                                         PW_REC_SPAN, call_fields, F_N);
            if (of_fn[fn] < 0)
                st = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
            else
                pw_ds_schema_mpi_fields(ds, of_fn[fn], role_tables[kind_of(name)]);
        }
        od->call_schema_of_region[r] = of_fn[fn];
    }
    free(of_fn);
    return st;
}

/* The MPI communicators of the definitions but world and self, each
 * with its members (world ranks), for the communicator replay. */
static pw_status defined_comms(pw_dataset *ds, ot_dataset *od, pw_error *err)
{
    if (od->world_comm < 0)
        return PW_OK;
    od->comm_handles = calloc(od->comms.n + 1, sizeof *od->comm_handles);
    od->comm_groups = calloc(od->comms.n + 1, sizeof *od->comm_groups);
    if (!od->comm_handles || !od->comm_groups)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    size_t n = 0;
    for (uint32_t c = 0; c < od->comms.n; c++) {
        const ot_comm *cm = ot_table_get(&od->comms, c);
        const ot_group *g = cm && cm->defined ? ot_table_get(&od->groups, cm->group) : NULL;
        if (!g || g->paradigm != OTF2_PARADIGM_MPI || g->type != OTF2_GROUP_TYPE_COMM_GROUP ||
            (int64_t)c == od->world_comm)
            continue;
        uint32_t *m = pw_ds_alloc(ds, (g->n_members + 1) * sizeof *m);
        if (!m)
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
        for (uint32_t i = 0; i < g->n_members; i++)
            m[i] = g->members[i] < UINT32_MAX ? (uint32_t)g->members[i] : 0;
        od->comm_handles[n] = c;
        od->comm_groups[n++] = (pw_mpi_comm){m, g->n_members};
    }
    od->defined = (pw_mpi_defined_comms){od->world_comm, od->self_comm, -1, n, od->comm_handles, od->comm_groups};
    ds->mpi_defined_comms = &od->defined;
    return PW_OK;
}

/* Each rank's process location: its id the world rank (the analyses know
 * ranks so), its datatype 0 one byte (a call's count is in bytes). */
static pw_status rank_processes(pw_dataset *ds, ot_dataset *od, pw_error *err)
{
    for (uint32_t i = 0; i < od->n_locs; i++) {
        const ot_location *l = &od->locs[i];
        int32_t p = l->loc >= 0 ? ds->locs[l->loc].parent : -1;
        if (l->world_rank < 0 || p < 0 || ds->locs[p].kind != PW_LOC_PROCESS)
            continue;
        ds->locs[p].id = l->world_rank;
        char key[512];
        snprintf(key, sizeof key, "%s:datatype_sizes", ds->locs[p].path);
        pw_status st = pw_ds_set_prop(ds, key, "1", err);
        if (st != PW_OK)
            return st;
    }
    return PW_OK;
}

pw_status ot_calls_offer(pw_dataset *ds, ot_dataset *od, pw_error *err)
{
    if (!ds->mpi_profiles)
        return PW_OK;
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, roles_init);
    pw_status st = call_schemas(ds, od, err);
    if (st == PW_OK)
        st = defined_comms(ds, od, err);
    return st == PW_OK ? rank_processes(ds, od, err) : st;
}

void ot_calls_free(ot_dataset *od)
{
    free(od->call_schema_of_region);
    free(od->comm_handles);
    free(od->comm_groups);
}

/* One call being assembled, or the latest one completed. */
typedef struct ot_call {
    uint32_t region;
    int32_t schema;
    int64_t enter;
    uint64_t position;
    uint32_t has; /* bit per field */
    int64_t f[F_N];
    size_t first_req, n_req; /* its completed requests: from first_req of the pool */
} ot_call;

/* One completed request: its id and, for a receive, its status. */
typedef struct ot_req {
    int64_t request;
    int is_recv;
    int64_t source, tag, bytes;
} ot_req;

struct ot_calls {
    ot_call *open;
    size_t depth, cap;
    ot_call done;   /* the latest call completed */
    ot_req *reqs;   /* the requests of the open calls, then of done */
    size_t n_reqs, cap_reqs;
};

ot_calls *ot_calls_new(void) { return calloc(1, sizeof(ot_calls)); }

void ot_calls_delete(ot_calls *k)
{
    if (!k)
        return;
    free(k->open);
    free(k->reqs);
    free(k);
}

static void set(ot_call *c, int f, int64_t v)
{
    c->f[f] = v;
    c->has |= 1u << f;
}

/* A rank in the event's communicator, absent when undefined. */
static void set_rank(ot_call *c, int f, uint64_t rank)
{
    if (rank != OTF2_UNDEFINED_UINT32)
        set(c, f, (int64_t)rank);
}

static int add_req(ot_calls *k, ot_call *c, ot_req r)
{
    if (k->n_reqs == k->cap_reqs) {
        size_t cap = k->cap_reqs ? k->cap_reqs * 2 : 16;
        ot_req *p = realloc(k->reqs, cap * sizeof *p);
        if (!p)
            return 0;
        k->reqs = p;
        k->cap_reqs = cap;
    }
    k->reqs[k->n_reqs++] = r;
    c->n_req++;
    return 1;
}

/* An MPI event inside call c: its fields into the call's. */
static int on_mpi_event(ot_calls *k, ot_call *c, const ot_event *e)
{
    const uint64_t *a = e->a;
    switch (e->type) {
    case OT_EV_MpiIsend: set(c, F_REQUEST, (int64_t)a[4]); /* fall through */
    case OT_EV_MpiSend:
        set_rank(c, F_DEST, a[0]);
        set(c, F_COMM, (int64_t)a[1]);
        set(c, F_SENDTAG, (int64_t)a[2]);
        set(c, F_COUNT, (int64_t)a[3]);
        set(c, F_DATATYPE, 0);
        return 1;
    case OT_EV_MpiRecv:
        set_rank(c, F_SOURCE, a[0]);
        set(c, F_COMM, (int64_t)a[1]);
        set(c, F_RECVTAG, (int64_t)a[2]);
        return 1;
    case OT_EV_MpiIrecvRequest: /* peer and tag come with its completion */
        set(c, F_REQUEST, (int64_t)a[0]);
        set(c, F_SOURCE, -1);
        set(c, F_RECVTAG, -1);
        return 1;
    case OT_EV_MpiRequestCancelled: set(c, F_REQUEST, (int64_t)a[0]); return 1;
    case OT_EV_MpiIsendComplete: return add_req(k, c, (ot_req){(int64_t)a[0], 0, 0, 0, 0});
    case OT_EV_MpiIrecv:
        return add_req(k, c, (ot_req){(int64_t)a[4], 1, a[0] == OTF2_UNDEFINED_UINT32 ? -1 : (int64_t)a[0],
                                      (int64_t)a[2], (int64_t)a[3]});
    case OT_EV_MpiCollectiveEnd:
        set(c, F_COMM, (int64_t)a[1]);
        set_rank(c, F_ROOT, a[2]);
        set(c, F_SENDCOUNT, (int64_t)a[3]);
        set(c, F_RECVCOUNT, (int64_t)a[4]);
        set(c, F_SENDTYPE, 0);
        set(c, F_RECVTYPE, 0);
        return 1;
    default: return 1;
    }
}

static int enter(ot_calls *k, const ot_event *e, int32_t schema, int64_t t)
{
    if (k->depth == k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 8;
        ot_call *p = realloc(k->open, cap * sizeof *p);
        if (!p)
            return 0;
        k->open = p;
        k->cap = cap;
    }
    if (!k->depth) /* the requests of the call completed before are done with */
        k->n_reqs = 0;
    k->open[k->depth++] = (ot_call){(uint32_t)e->a[0], schema, t, e->position, 0, {0}, k->n_reqs, 0};
    return 1;
}

int ot_calls_feed(ot_calls *k, const ot_dataset *od, const ot_event *e, int64_t t, pw_record *rec)
{
    int32_t schema = (e->type == OT_EV_Enter || e->type == OT_EV_Leave) && e->a[0] < od->regions.n
                         ? od->call_schema_of_region[e->a[0]]
                         : -1;
    if (e->type == OT_EV_Enter)
        return schema < 0 ? 0 : enter(k, e, schema, t) ? 0 : -1;
    if (!k->depth)
        return 0;
    ot_call *c = &k->open[k->depth - 1];
    if (e->type != OT_EV_Leave)
        return on_mpi_event(k, c, e) ? 0 : -1;
    if (schema < 0 || e->a[0] != c->region)
        return 0;
    k->done = *c;
    k->depth--;
    rec->schema = (uint32_t)c->schema;
    rec->t = c->enter;
    rec->has_end = 1;
    rec->t_end = t;
    rec->offset = c->position;
    return 1;
}

/* The completed requests of the latest call, and their statuses. */
static void set_requests(const ot_calls *k, pw_arena *scratch, pw_value *values)
{
    const ot_call *c = &k->done;
    pw_value *reqs = pw_arena_alloc(scratch, (c->n_req + 1) * sizeof *reqs);
    pw_value *sts = pw_arena_alloc(scratch, (c->n_req + 1) * sizeof *sts);
    pw_value *items = pw_arena_alloc(scratch, (c->n_req + 1) * S_N * sizeof *items);
    if (!reqs || !sts || !items)
        return; /* what finds no scratch memory stays absent */
    for (size_t i = 0; i < c->n_req; i++) {
        const ot_req *r = &k->reqs[c->first_req + i];
        pw_set_i64(&reqs[i], r->request);
        sts[i] = (pw_value){.type = PW_T_OBJECT, .present = 0};
        if (!r->is_recv)
            continue;
        pw_value *it = &items[i * S_N];
        pw_set_i64(&it[S_SOURCE], r->source);
        pw_set_i64(&it[S_TAG], r->tag);
        pw_set_i64(&it[S_BYTES], r->bytes);
        pw_set_items(&sts[i], it, S_N, status_fields);
    }
    pw_set_items(&values[F_REQUESTS], reqs, c->n_req, NULL);
    pw_set_items(&values[F_STATUSES], sts, c->n_req, NULL);
}

void ot_calls_decode(const ot_calls *k, pw_arena *scratch, pw_value *values)
{
    const ot_call *c = &k->done;
    for (int f = 0; f < F_N; f++)
        if (c->has & (1u << f))
            pw_set_i64(&values[f], c->f[f]);
    if (c->n_req)
        set_requests(k, scratch, values);
}
