/* otf2_mpi.c — MPI messages and collectives in OTF2.  A communicator whose
 * members the replay of dup/split calls resolves is defined over them
 * (mpi_comm_replay.h); any other over all ranks.  A message's peer is its
 * rank as the format gave it (relative to its communicator).  A
 * message's length is count x datatype size of the call that sends or
 * receives it (0 at a completion: MPI_Wait carries no count). */
#ifdef PW_HAVE_OTF2
#include <stdlib.h>
#include <string.h>

#include "sinks/convert/convert.h"
#include "sinks/otf2/otf2_mpi.h"
#include "sinks/otf2/otf2_shard.h"

void ot_mpi_free(ot_mpi *m)
{
    pw_comm_replay_free(&m->replay);
    pw_keymap_free(&m->comms);
    free(m->comm_values);
    free(m->rank_loc);
    memset(m, 0, sizeof *m);
}

static void see_rank(ot_mpi *m, int64_t rank)
{
    if (rank >= 0 && rank < OT_MAX_RANKS && (uint32_t)rank >= m->n_ranks)
        m->n_ranks = (uint32_t)rank + 1;
}

int ot_mpi_location(ot_mpi *m, int64_t rank, uint32_t ref)
{
    if (rank < 0 || rank >= OT_MAX_RANKS)
        return 1;
    if (!pw_grow_zeroed((void **)&m->rank_loc, &m->cap_ranks, (uint32_t)rank, sizeof *m->rank_loc))
        return 0;
    if (!m->rank_loc[rank])
        m->rank_loc[rank] = ref + 1;
    see_rank(m, rank); /* a collective's ranks, with no message */
    return 1;
}

/* The comm ref of communicator handle `comm` on location's rank: one per
 * resolved communicator (handles differ across ranks and are reused), else
 * one per handle value; defined on first use.  UINT32_MAX when memory runs
 * out. */
static uint32_t comm_ref(ot_mpi *m, uint32_t location, int64_t comm)
{
    pw_comm_replay *r = &m->replay;
    uint32_t resolved = m->fed ? PW_MPI_UNKNOWN : pw_comm_replay_lookup(r, location, comm), inst = PW_MPI_UNKNOWN;
    int64_t rank = pw_tl_rank_of(r->ds, location);
    if (m->fed && r->live && rank >= 0 && (uint64_t)rank < r->n_ranks)
        inst = pw_mpi_tracker_lookup(&r->live[rank], comm);
    pw_key k = {{resolved != PW_MPI_UNKNOWN, resolved != PW_MPI_UNKNOWN ? resolved : (uint64_t)comm, 0, 0}};
    if (inst != PW_MPI_UNKNOWN)
        k = (pw_key){{2, (uint64_t)rank, inst, 0}};
    int added;
    uint64_t *v = pw_keymap_get(&m->comms, &k, m->n_comms, &added);
    if (!v)
        return UINT32_MAX;
    if (added) {
        if (!pw_grow_zeroed((void **)&m->comm_values, &m->cap_comms, m->n_comms, sizeof *m->comm_values))
            return UINT32_MAX;
        m->comm_values[m->n_comms++] = (struct ot_comm){comm, resolved, rank, inst};
    }
    return (uint32_t)*v;
}

_Static_assert((int)PW_COLL_BCAST == (int)OTF2_COLLECTIVE_OP_BCAST &&
                   (int)PW_COLL_REDUCE_SCATTER_BLOCK == (int)OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK,
               "pw_coll_op follows OTF2_CollectiveOp");

OTF2_ErrorCode ot_mpi_collective(ot_mpi *m, OTF2_EvtWriter *w, OTF2_TimeStamp t, uint32_t location,
                                 const pw_mpi_call *call, int end, uint64_t *events)
{
    ++*events;
    if (!end)
        return OT_WRITE(w, OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t));
    uint32_t c = comm_ref(m, location, call->comm);
    if (c == UINT32_MAX)
        return OTF2_ERROR_MEM_ALLOC_FAILED;
    uint32_t root = call->root >= 0 && call->root <= UINT32_MAX - 1 ? (uint32_t)call->root : OTF2_UNDEFINED_UINT32;
    return OT_WRITE(w, OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, t, (OTF2_CollectiveOp)call->op, c, root,
                                                       call->sent, call->received));
}

/* The nonblocking calls' request events at ev: a receive posted, sends
 * completed. */
static OTF2_ErrorCode request_events(OTF2_EvtWriter *w, OTF2_TimeStamp t, const pw_tl_event *ev, uint64_t *events)
{
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    if (ev->request_posted != PW_TL_NO_REQUEST) {
        rc = OT_WRITE(w, OTF2_EvtWriter_MpiIrecvRequest(w, NULL, t, (uint64_t)ev->request_posted));
        ++*events;
    }
    for (size_t i = 0; rc == OTF2_SUCCESS && i < ev->n_sends_done; i++) {
        rc = OT_WRITE(w, OTF2_EvtWriter_MpiIsendComplete(w, NULL, t, (uint64_t)ev->sends_done[i]));
        ++*events;
    }
    return rc;
}

OTF2_ErrorCode ot_mpi_events(ot_mpi *m, OTF2_EvtWriter *w, OTF2_TimeStamp t, const pw_tl_event *ev,
                             const pw_mpi_call *call, uint64_t *events)
{
    OTF2_ErrorCode rc = request_events(w, t, ev, events);
    if (rc == OTF2_SUCCESS && ev->msg_out) {
        const pw_msg *s = ev->msg_out;
        uint32_t c = comm_ref(m, ev->location, s->comm);
        if (c == UINT32_MAX)
            return OTF2_ERROR_MEM_ALLOC_FAILED;
        see_rank(m, s->source);
        see_rank(m, s->dest);
        uint64_t length = call ? call->sent : 0;
        if (ev->request_out != PW_TL_NO_REQUEST)
            rc = OT_WRITE(w, OTF2_EvtWriter_MpiIsend(w, NULL, t, (uint32_t)s->dest, c, (uint32_t)s->tag, length,
                                                     (uint64_t)ev->request_out));
        else
            rc = OT_WRITE(w, OTF2_EvtWriter_MpiSend(w, NULL, t, (uint32_t)s->dest, c, (uint32_t)s->tag, length));
        ++*events;
    }
    for (size_t i = 0; rc == OTF2_SUCCESS && i < ev->n_flows_in; i++) {
        const pw_msg *r = ev->msgs_in[i];
        uint32_t c = comm_ref(m, ev->location, r->comm);
        if (c == UINT32_MAX)
            return OTF2_ERROR_MEM_ALLOC_FAILED;
        see_rank(m, r->source);
        see_rank(m, r->dest);
        uint64_t length = ev->bytes_in[i] != PW_TL_NO_BYTES ? ev->bytes_in[i] : call ? call->received : 0;
        if (ev->requests_in[i] != PW_TL_NO_REQUEST)
            rc = OT_WRITE(w, OTF2_EvtWriter_MpiIrecv(w, NULL, t, (uint32_t)r->source, c, (uint32_t)r->tag, length,
                                                     (uint64_t)ev->requests_in[i]));
        else
            rc = OT_WRITE(w, OTF2_EvtWriter_MpiRecv(w, NULL, t, (uint32_t)r->source, c, (uint32_t)r->tag, length));
        ++*events;
    }
    m->events += ev->msg_out != NULL;
    return rc;
}

static OTF2_RegionRole collective_role(pw_coll_op op)
{
    switch (op) {
    case PW_COLL_BARRIER: return OTF2_REGION_ROLE_BARRIER;
    case PW_COLL_BCAST:
    case PW_COLL_SCATTER:
    case PW_COLL_SCATTERV: return OTF2_REGION_ROLE_COLL_ONE2ALL;
    case PW_COLL_GATHER:
    case PW_COLL_GATHERV:
    case PW_COLL_REDUCE: return OTF2_REGION_ROLE_COLL_ALL2ONE;
    case PW_COLL_SCAN:
    case PW_COLL_EXSCAN: return OTF2_REGION_ROLE_COLL_OTHER;
    default: return OTF2_REGION_ROLE_COLL_ALL2ALL;
    }
}

void ot_mpi_region_kind(const char *name, const pw_mpi_call *call, OTF2_Paradigm *paradigm, OTF2_RegionRole *role)
{
    /* the point-to-point calls, by their name's start (MPI_Isend, MPI_Waitall, ...) */
    static const char *const p2p[] = {"MPI_Send",  "MPI_Bsend", "MPI_Ssend", "MPI_Rsend",  "MPI_Isend", "MPI_Ibsend",
                                      "MPI_Issend", "MPI_Irsend", "MPI_Recv", "MPI_Irecv", "MPI_Sendrecv",
                                      "MPI_Wait",  "MPI_Test",  "MPI_Probe", "MPI_Iprobe", "MPI_Start"};
    *paradigm = OTF2_PARADIGM_USER;
    *role = OTF2_REGION_ROLE_FUNCTION;
    if (strncmp(name, "MPI_", 4) != 0)
        return;
    *paradigm = OTF2_PARADIGM_MPI;
    if (call->op != PW_COLL_NONE) {
        *role = collective_role(call->op);
        return;
    }
    for (size_t i = 0; i < sizeof p2p / sizeof *p2p; i++)
        if (!strncmp(name, p2p[i], strlen(p2p[i])))
            *role = OTF2_REGION_ROLE_POINT2POINT;
}

void ot_mpi_definitions(const ot_mpi *m, OTF2_GlobalDefWriter *g, OTF2_StringRef *next_string)
{
    if (!m->n_comms)
        return;
    uint64_t *members = calloc(m->n_ranks ? m->n_ranks : 1, sizeof *members);
    if (!members)
        return;
    /* rank r's location; a rank with none borrows location 0 */
    for (uint32_t r = 0; r < m->n_ranks; r++)
        members[r] = r < m->cap_ranks && m->rank_loc[r] ? m->rank_loc[r] - 1 : 0;
    OTF2_StringRef s = (*next_string)++;
    OTF2_GlobalDefWriter_WriteString(g, s, "MPI ranks");
    OTF2_GlobalDefWriter_WriteGroup(g, 0, s, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                    OTF2_GROUP_FLAG_NONE, m->n_ranks, members);
    for (uint32_t r = 0; r < m->n_ranks; r++)
        members[r] = r;
    s = (*next_string)++;
    OTF2_GlobalDefWriter_WriteString(g, s, "all ranks");
    OTF2_GlobalDefWriter_WriteGroup(g, 1, s, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    m->n_ranks, members);
    free(members);
    OTF2_GroupRef next_group = 2;
    for (uint32_t c = 0; c < m->n_comms; c++) {
        char name[48];
        const struct ot_comm *oc = &m->comm_values[c];
        snprintf(name, sizeof name, "communicator %lld", (long long)oc->handle);
        s = (*next_string)++;
        OTF2_GlobalDefWriter_WriteString(g, s, name);
        OTF2_GroupRef group = 1;
        if (oc->resolved != PW_MPI_UNKNOWN) { /* its own group of world ranks */
            const pw_mpi_comm *pc = &m->replay.comms.comms[oc->resolved];
            uint64_t *ranks = malloc((pc->size ? pc->size : 1) * sizeof *ranks);
            if (!ranks)
                return;
            for (uint32_t i = 0; i < pc->size; i++)
                ranks[i] = pc->members[i];
            group = next_group++;
            OTF2_GlobalDefWriter_WriteGroup(g, group, s, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                            OTF2_GROUP_FLAG_NONE, pc->size, ranks);
            free(ranks);
        }
        OTF2_GlobalDefWriter_WriteComm(g, c, s, group, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    }
}
#endif
