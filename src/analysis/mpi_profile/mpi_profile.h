/* mpi_profile.h — the mpiP-style MPI profile a format gathered
 * (ds->mpi_profiles, model/mpi_profile.h), merged over the ranks into the
 * stats report (mpi_profile_report.c). */
#ifndef PW_ANALYSIS_MPI_PROFILE_H
#define PW_ANALYSIS_MPI_PROFILE_H
#include "model/dataset.h"

/* Adds nothing for a dataset without profiles. */
pw_status pw_mpi_profile_report(pw_dataset *ds, pw_report *r, pw_error *err);
#endif
