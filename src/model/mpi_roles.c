/* mpi_roles.c — the role table of mpi_roles.h. */
#include "model/mpi_roles.h"

#include <string.h>

/* The argument names of each role, as MPI names them; an MPI function has
 * at most one of a role's names (sendcount in MPI_Gather, sendcounts in
 * MPI_Alltoallv). */
static const char *const role_names[PW_N_MPI_ROLES][2] = {
    [PW_ROLE_COUNT] = {"count", NULL},
    [PW_ROLE_SEND_COUNT] = {"sendcounts", "sendcount"},
    [PW_ROLE_RECV_COUNT] = {"recvcounts", "recvcount"},
    [PW_ROLE_DATATYPE] = {"datatype", NULL},
    [PW_ROLE_SEND_TYPE] = {"sendtype", NULL},
    [PW_ROLE_RECV_TYPE] = {"recvtype", NULL},
    [PW_ROLE_ROOT] = {"root", NULL},
    [PW_ROLE_DEST] = {"dest", NULL},
    [PW_ROLE_COMM] = {"comm", NULL},
    [PW_ROLE_OLD_COMM] = {"oldcomm", NULL},
    [PW_ROLE_NEW_COMM] = {"newcomm", NULL},
    [PW_ROLE_COLOR] = {"color", NULL},
    [PW_ROLE_KEY] = {"key", NULL},
    [PW_ROLE_COMM_SIZE] = {"commsize", NULL},
};

int pw_mpi_role_field(const pw_field *fields, size_t n, pw_mpi_role role)
{
    for (int k = 0; k < 2 && role_names[role][k]; k++)
        for (size_t i = 0; i < n; i++)
            if (!strcmp(fields[i].name, role_names[role][k]))
                return (int)i;
    return -1;
}

int pw_mpi_role_in(const pw_schema *sc, pw_mpi_role role) { return pw_mpi_role_field(sc->fields, sc->n_fields, role); }
