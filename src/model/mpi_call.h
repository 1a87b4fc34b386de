/* mpi_call.h — one MPI call's record as every reader of MPI calls sees
 * it: what the call's name says it is (a collective, a communicator made
 * or freed) and which field holds each argument the readers use (by its
 * role, mpi_roles.h), decided once per schema.  The timeline's message
 * flows, the collectives, the communicator replay, the wait states and
 * DUMPI's open-time profile all read calls through it, so that a call is
 * classified the same way everywhere. */
#ifndef PW_MODEL_MPI_CALL_H
#define PW_MODEL_MPI_CALL_H
#include <stdint.h>

#include "perfweave.h"

/* The collective operations, in the order of OTF2's OTF2_CollectiveOp. */
typedef enum pw_coll_op {
    PW_COLL_NONE = -1,
    PW_COLL_BARRIER,
    PW_COLL_BCAST,
    PW_COLL_GATHER,
    PW_COLL_GATHERV,
    PW_COLL_SCATTER,
    PW_COLL_SCATTERV,
    PW_COLL_ALLGATHER,
    PW_COLL_ALLGATHERV,
    PW_COLL_ALLTOALL,
    PW_COLL_ALLTOALLV,
    PW_COLL_ALLTOALLW,
    PW_COLL_ALLREDUCE,
    PW_COLL_REDUCE,
    PW_COLL_REDUCE_SCATTER,
    PW_COLL_SCAN,
    PW_COLL_EXSCAN,
    PW_COLL_REDUCE_SCATTER_BLOCK
} pw_coll_op;

/* The calls that make or free a communicator. */
typedef enum pw_comm_op { PW_COMM_OP_NONE, PW_COMM_DUP, PW_COMM_SPLIT, PW_COMM_FREE } pw_comm_op;

/* Field indexes, -1: the call has no such argument. */
typedef struct pw_mpi_call_view {
    pw_coll_op op;      /* the collective the call is, or PW_COLL_NONE */
    pw_comm_op comm_op; /* set only when the call has the arguments it needs */
    uint8_t finalize;   /* MPI_Finalize */
    int16_t f_count, f_datatype, f_sendcount, f_sendtype, f_recvcount, f_recvtype;
    int16_t f_root, f_comm, f_commsize;
    int16_t f_dest, f_source, f_tag, f_sendtag, f_recvtag;
    int16_t f_request, f_status, f_index, f_flag, f_indices, f_outcount;
    int16_t f_new, f_color, f_key;
    int16_t f_on_comm; /* the communicator the call works on: its comm, else a dup's or split's oldcomm */
} pw_mpi_call_view;

/* The view of a call named `name` whose fields have the roles mpi_fields
 * gives (pw_schema.mpi_fields, or a format's own table of them); NULL:
 * no MPI call, no argument and no kind. */
void pw_mpi_call_view_of(const char *name, const int16_t *mpi_fields, pw_mpi_call_view *v);
#endif
