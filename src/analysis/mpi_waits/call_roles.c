/* call_roles.c — what each schema's records mean to the wait analyses,
 * decided once from the schema's name and field names (mpi_waits.h). */
#include <string.h>

#include "analysis/mpi_waits/mpi_waits.h"
#include "analysis/timeline_schema.h"

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

void mw_schemas_classify(const pw_dataset *ds, mw_schema *out)
{
    for (size_t i = 0; i < ds->n_schemas; i++) {
        const pw_schema *sc = ds->schemas[i];
        mw_schema *m = &out[i];
        m->f_dest = pw_field_index(sc, "dest");
        m->f_source = pw_field_index(sc, "source");
        m->f_tag = pw_field_index(sc, "tag");
        m->f_sendtag = pw_field_index(sc, "sendtag");
        m->f_recvtag = pw_field_index(sc, "recvtag");
        m->f_comm = pw_field_index(sc, "comm");
        m->f_request = pw_field_either(sc, "request", "requests");
        m->f_status = pw_field_either(sc, "status", "statuses");
        m->f_index = pw_field_index(sc, "index");
        m->f_indices = pw_field_index(sc, "indices");
        m->f_outcount = pw_field_index(sc, "outcount");
        m->f_flag = pw_field_index(sc, "flag");
        pw_coll_classify(sc, &m->coll);
        m->coll_wait = (int8_t)coll_wait_of(m->coll.op);
        m->sync = !strcmp(sc->name, "MPI_Ssend") || !strcmp(sc->name, "MPI_Issend");
        m->idle = named(idle_names, sc->name);
        m->finalize = !strcmp(sc->name, "MPI_Finalize");
        m->p2p = m->f_dest >= 0 || m->f_source >= 0 || m->f_request >= 0;
    }
}
