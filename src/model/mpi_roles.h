/* mpi_roles.h — the one table of MPI argument roles: which field of an
 * MPI call's record holds its count, datatype, destination, communicator.
 * A format says it in its schemas (pw_field.mpi_role); the names the MPI
 * standard gives the arguments map to roles here, so that a format whose
 * tables use those names (DUMPI's generator) fills roles from one table.
 * The analyses and a format's own fast pass over its bytes (DUMPI's
 * open-time profile) find a call's fields by role through its view,
 * mpi_call.h. */
#ifndef PW_MODEL_MPI_ROLES_H
#define PW_MODEL_MPI_ROLES_H
#include <stddef.h>

#include "perfweave.h"

/* The role of an argument MPI names so ("count", "sendcounts", "comm"),
 * or PW_ROLE_NONE: a format's tables name their fields' roles with it. */
pw_mpi_role pw_mpi_role_named(const char *argument);
/* Fills roles[PW_N_MPI_ROLES] with the field of each role among fields
 * named as MPI names the arguments (the first one wins), or -1: the table
 * a format gives pw_ds_schema_mpi_fields. */
void pw_mpi_roles_by_name(const pw_field *fields, size_t n, int16_t *roles);
#endif
