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
    [PW_ROLE_SOURCE] = {"source", NULL},
    [PW_ROLE_TAG] = {"tag", NULL},
    [PW_ROLE_SEND_TAG] = {"sendtag", NULL},
    [PW_ROLE_RECV_TAG] = {"recvtag", NULL},
    [PW_ROLE_REQUEST] = {"request", "requests"},
    [PW_ROLE_STATUS] = {"status", "statuses"},
    [PW_ROLE_INDEX] = {"index", NULL},
    [PW_ROLE_FLAG] = {"flag", NULL},
    [PW_ROLE_INDICES] = {"indices", NULL},
    [PW_ROLE_OUTCOUNT] = {"outcount", NULL},
};

pw_mpi_role pw_mpi_role_named(const char *argument)
{
    for (int role = PW_ROLE_NONE + 1; role < PW_N_MPI_ROLES; role++)
        for (int k = 0; k < 2 && role_names[role][k]; k++)
            if (!strcmp(argument, role_names[role][k]))
                return (pw_mpi_role)role;
    return PW_ROLE_NONE;
}

void pw_mpi_roles_by_name(const pw_field *fields, size_t n, int16_t *roles)
{
    for (int r = 0; r < PW_N_MPI_ROLES; r++)
        roles[r] = -1;
    for (size_t i = n; i-- > 0;)
        roles[pw_mpi_role_named(fields[i].name)] = (int16_t)i;
    roles[PW_ROLE_NONE] = -1;
}
