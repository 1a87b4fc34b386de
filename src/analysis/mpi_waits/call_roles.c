/* call_roles.c — what each schema's records mean to the wait analyses,
 * decided once from the schema's name and the MPI roles of its fields
 * (mpi_waits.h). */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/mpi_waits.h"
#include "views/timeline_schema.h"

const char *const mw_wait_names[MW_N_WAITS] = {"late_sender",  "late_receiver",  "wait_nxn",
                                               "wait_barrier", "late_broadcast", "early_reduce"};

/* Pipit's idle functions with mpi_events (pipit/trace.py, idle_time). */
static const char *const idle_names[] = {"MPI_Wait", "MPI_Waitall", "MPI_Recv", NULL};

static int named(const char *const *names, const char *s)
{
    for (; *names; names++)
        if (!strcmp(*names, s))
            return 1;
    return 0;
}

/* The wait state a collective operation has (Scalasca's patterns). */
static int coll_wait_of(pw_coll_op op)
{
    switch (op) {
    case PW_COLL_NONE: return -1;
    case PW_COLL_BARRIER: return MW_WAIT_BARRIER;
    case PW_COLL_BCAST:
    case PW_COLL_SCATTER:
    case PW_COLL_SCATTERV: return MW_LATE_BROADCAST;
    case PW_COLL_REDUCE:
    case PW_COLL_GATHER:
    case PW_COLL_GATHERV: return MW_EARLY_REDUCE;
    default: return MW_WAIT_NXN;
    }
}

/* Field f (-1: none) into the schema's integer view; 0 when it cannot
 * be there (no integer, or beyond the view). */
static int view_field(const pw_schema *sc, mw_schema *m, int f)
{
    if (f < 0)
        return 1;
    for (size_t k = 0; k < m->n_ints; k++)
        if (m->ints[k] == f)
            return 1;
    if (f >= MW_VIEW_FIELDS || m->n_ints == MW_INTS_MAX || sc->fields[f].type != PW_T_I64)
        return 0;
    m->ints[m->n_ints++] = (int16_t)f;
    return 1;
}

/* The fields into the view, or none if one cannot be there. */
static void view_all(const pw_schema *sc, mw_schema *m, const int *fields, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!view_field(sc, m, fields[i])) {
            m->n_ints = 0;
            return;
        }
}

/* The integer view of a call whose integers are all it reads: a
 * point-to-point call's but its status (decoded when a wildcard needs
 * it), the fields of waits_p2p.c, mw_comm_instance and the bytes it sends
 * (pw_mpi_calls_sent); a collective's communicator and root
 * (mw_waits_coll); none for the others. */
static void view_fields(const pw_schema *sc, mw_schema *m)
{
    const pw_mpi_call_view *c = &m->tl.mpi;
    int sends = c->f_dest >= 0; /* only a send's counts are read */
    const int p2p[] = {c->f_dest,    c->f_source,  c->f_tag,   c->f_sendtag, c->f_recvtag,
                       c->f_comm,    c->f_request, c->f_index, c->f_flag,    c->f_outcount,
                       sends ? c->f_count : -1,     sends ? c->f_datatype : -1,
                       sends ? c->f_sendcount : -1, sends ? c->f_sendtype : -1};
    const int coll[] = {c->f_comm, c->f_root};
    m->n_ints = 0;
    if (m->p2p && c->op == PW_COLL_NONE && c->f_indices < 0)
        view_all(sc, m, p2p, sizeof p2p / sizeof *p2p);
    else if (!m->p2p && c->op != PW_COLL_NONE)
        view_all(sc, m, coll, sizeof coll / sizeof *coll);
}

int mw_schemas_classify(const pw_dataset *ds, mw_schema *out)
{
    tl_schema *tl = calloc(ds->n_schemas ? ds->n_schemas : 1, sizeof *tl);
    if (!tl)
        return 0;
    tl_schemas_classify(ds, tl);
    for (size_t i = 0; i < ds->n_schemas; i++) {
        const pw_schema *sc = ds->schemas[i];
        mw_schema *m = &out[i];
        m->tl = tl[i];
        m->coll_wait = (int8_t)coll_wait_of(m->tl.mpi.op);
        m->p2p = m->tl.has_msg;
        view_fields(sc, m);
        if (!sc->mpi_fields) /* no MPI call: its name says nothing more */
            continue;
        m->sync = !strcmp(sc->name, "MPI_Ssend") || !strcmp(sc->name, "MPI_Issend");
        m->idle = named(idle_names, sc->name);
        m->finalize = m->tl.mpi.finalize;
        m->release = !strcmp(sc->name, "MPI_Request_free") || !strcmp(sc->name, "MPI_Cancel");
    }
    free(tl);
    return 1;
}
