/* mpi_coll.h — MPI calls read from their records, format independent:
 * which collective a record is (from its schema name: "MPI_Bcast" ...),
 * its root and communicator, and the bytes of its buffer arguments (count x
 * datatype size), from the fields of each role (model/mpi_roles.h):
 *   count, datatype             one buffer, sent and received (MPI_Bcast,
 *                               MPI_Allreduce, MPI_Send, MPI_Recv ...)
 *   sendcount(s), sendtype      the send buffer (a list: summed)
 *   recvcount(s), recvtype      the receive buffer; recvcount is per peer in
 *                               MPI_Gather, MPI_Allgather, MPI_Alltoall (x
 *                               commsize when given); MPI_Reduce_scatter
 *                               sends the sum of its recvcounts
 *   root, comm
 * Datatype ids are turned into bytes by a table of sizes per datatype id
 * (pw_type_sizes), which a format gives as the location property
 * "<process location path>:datatype_sizes" (space-separated bytes).
 * Arguments a record lacks (DUMPI's <IGNORED> on non-roots) count 0. */
#ifndef PW_VIEWS_MPI_COLL_H
#define PW_VIEWS_MPI_COLL_H
#include <stdint.h>

#include "model/dataset.h"
#include "model/mpi_call.h"

/* Bytes per datatype id (0 for ids beyond the table). */
typedef struct pw_type_sizes {
    uint32_t *bytes;
    uint32_t n;
} pw_type_sizes;

typedef struct pw_mpi_call {
    pw_coll_op op;
    int64_t comm;      /* 0 when the record has none */
    int64_t root;      /* -1: not a rooted collective (or not given) */
    uint64_t sent;     /* bytes of the send buffer argument(s) */
    uint64_t received; /* bytes of the receive buffer argument(s) */
} pw_mpi_call;

/* The call a record of a schema of view cs makes, from its fields. */
void pw_mpi_call_read(const pw_mpi_call_view *cs, const pw_value *v, const pw_type_sizes *sizes, pw_mpi_call *out);

/* The sizes of location `loc`'s process (its datatype_sizes property),
 * replacing what sizes held; 0 when memory runs out. */
int pw_type_sizes_load(pw_type_sizes *sizes, const pw_dataset *ds, uint32_t process_loc);
void pw_type_sizes_free(pw_type_sizes *sizes);

/* A writer's reader of MPI calls: schemas classified once, each process's
 * datatype sizes read on first use (time-merged writers alternate ranks). */
typedef struct pw_mpi_calls {
    const pw_dataset *ds;
    pw_mpi_call_view *coll; /* per schema */
    pw_type_sizes *sizes; /* per location (processes only) */
    uint8_t *loaded;      /* per location: sizes read */
} pw_mpi_calls;

int pw_mpi_calls_init(pw_mpi_calls *c, const pw_dataset *ds); /* 0: out of memory */
void pw_mpi_calls_free(pw_mpi_calls *c);
/* The call rec makes (op PW_COLL_NONE when not a collective; rec NULL: an
 * empty call).  0 when memory runs out. */
int pw_mpi_calls_read(pw_mpi_calls *c, const pw_record *rec, pw_mpi_call *out);
/* Only what rec's call sends (pw_mpi_call.sent), for a reader of every
 * send; v: rec's fields, or a view holding at least its count and type
 * fields (a collective's are read from rec).  0 when memory runs out. */
int pw_mpi_calls_sent(pw_mpi_calls *c, const pw_record *rec, const pw_value *v, uint64_t *sent);
#endif
