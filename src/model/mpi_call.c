/* mpi_call.c — the view of an MPI call (see mpi_call.h). */
#include "model/mpi_call.h"

#include <string.h>

/* MPI's names of the collectives, in pw_coll_op order. */
static const char *const coll_names[] = {
    "MPI_Barrier",   "MPI_Bcast",      "MPI_Gather",    "MPI_Gatherv",    "MPI_Scatter",
    "MPI_Scatterv",  "MPI_Allgather",  "MPI_Allgatherv", "MPI_Alltoall",  "MPI_Alltoallv",
    "MPI_Alltoallw", "MPI_Allreduce",  "MPI_Reduce",    "MPI_Reduce_scatter", "MPI_Scan",
    "MPI_Exscan",    "MPI_Reduce_scatter_block",
};

static pw_coll_op coll_named(const char *name)
{
    for (size_t i = 0; i < sizeof coll_names / sizeof coll_names[0]; i++)
        if (!strcmp(name, coll_names[i]))
            return (pw_coll_op)i;
    return PW_COLL_NONE;
}

/* A dup needs the communicator it copies and the new one, a split also
 * its color and key, a free the one it frees: without them the call
 * tells nothing about communicators. */
static pw_comm_op comm_op_of(const char *name, const pw_mpi_call_view *v)
{
    pw_comm_op op = !strcmp(name, "MPI_Comm_dup")     ? PW_COMM_DUP
                    : !strcmp(name, "MPI_Comm_split") ? PW_COMM_SPLIT
                    : !strcmp(name, "MPI_Comm_free")  ? PW_COMM_FREE
                                                      : PW_COMM_OP_NONE;
    if (v->f_on_comm < 0 || (op != PW_COMM_FREE && v->f_new < 0) ||
        (op == PW_COMM_SPLIT && (v->f_color < 0 || v->f_key < 0)))
        return PW_COMM_OP_NONE;
    return op;
}

/* The field of role r, -1 without a role table. */
static int16_t at(const int16_t *roles, pw_mpi_role r) { return roles ? roles[r] : -1; }

void pw_mpi_call_view_of(const char *name, const int16_t *mpi_fields, pw_mpi_call_view *v)
{
    const int16_t *f = mpi_fields;
    *v = (pw_mpi_call_view){
        .f_count = at(f, PW_ROLE_COUNT),         .f_datatype = at(f, PW_ROLE_DATATYPE),
        .f_sendcount = at(f, PW_ROLE_SEND_COUNT), .f_sendtype = at(f, PW_ROLE_SEND_TYPE),
        .f_recvcount = at(f, PW_ROLE_RECV_COUNT), .f_recvtype = at(f, PW_ROLE_RECV_TYPE),
        .f_root = at(f, PW_ROLE_ROOT),           .f_comm = at(f, PW_ROLE_COMM),
        .f_commsize = at(f, PW_ROLE_COMM_SIZE),  .f_dest = at(f, PW_ROLE_DEST),
        .f_source = at(f, PW_ROLE_SOURCE),       .f_tag = at(f, PW_ROLE_TAG),
        .f_sendtag = at(f, PW_ROLE_SEND_TAG),    .f_recvtag = at(f, PW_ROLE_RECV_TAG),
        .f_request = at(f, PW_ROLE_REQUEST),     .f_status = at(f, PW_ROLE_STATUS),
        .f_index = at(f, PW_ROLE_INDEX),         .f_flag = at(f, PW_ROLE_FLAG),
        .f_indices = at(f, PW_ROLE_INDICES),     .f_outcount = at(f, PW_ROLE_OUTCOUNT),
        .f_new = at(f, PW_ROLE_NEW_COMM),        .f_color = at(f, PW_ROLE_COLOR),
        .f_key = at(f, PW_ROLE_KEY),
    };
    v->f_on_comm = v->f_comm >= 0 ? v->f_comm : at(f, PW_ROLE_OLD_COMM);
    v->op = f ? coll_named(name) : PW_COLL_NONE;
    v->comm_op = f ? comm_op_of(name, v) : PW_COMM_OP_NONE;
    v->finalize = f && !strcmp(name, "MPI_Finalize");
}
