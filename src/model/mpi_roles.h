/* mpi_roles.h — the one table of MPI argument roles: which field of an
 * MPI call's record holds its count, datatype, destination, communicator.
 * Fields are found by the names the MPI standard gives the arguments
 * (DUMPI records them under those names; a format whose fields are named
 * otherwise names them so in its schemas).  The analyses (mpi_coll.c,
 * mpi_comm_replay.c) and a format's own fast pass over its bytes (DUMPI's
 * open-time profile) read roles here, so that the names live in one place. */
#ifndef PW_MODEL_MPI_ROLES_H
#define PW_MODEL_MPI_ROLES_H
#include <stddef.h>

#include "perfweave.h"

typedef enum pw_mpi_role {
    PW_ROLE_COUNT,      /* elements of the one buffer (MPI_Send, MPI_Bcast ...) */
    PW_ROLE_SEND_COUNT, /* elements of the send buffer; a list: one per peer */
    PW_ROLE_RECV_COUNT, /* elements of the receive buffer; a list: one per peer */
    PW_ROLE_DATATYPE,   /* the one buffer's datatype */
    PW_ROLE_SEND_TYPE,
    PW_ROLE_RECV_TYPE,
    PW_ROLE_ROOT,
    PW_ROLE_DEST,       /* a send's destination, comm-relative */
    PW_ROLE_COMM,       /* the communicator the call is made on */
    PW_ROLE_OLD_COMM,   /* the communicator a dup or split is made on */
    PW_ROLE_NEW_COMM,   /* the communicator it creates */
    PW_ROLE_COLOR,
    PW_ROLE_KEY,
    PW_ROLE_COMM_SIZE,  /* the communicator's size, when the trace records it */
    PW_N_MPI_ROLES
} pw_mpi_role;

/* Index of the field of that role among fields[0, n), or -1. */
int pw_mpi_role_field(const pw_field *fields, size_t n, pw_mpi_role role);
/* The same among a schema's fields. */
int pw_mpi_role_in(const pw_schema *sc, pw_mpi_role role);
#endif
