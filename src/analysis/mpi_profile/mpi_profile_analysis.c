/* mpi_profile_analysis.c — the mpiP-style MPI profile as a registered
 * analysis, split over shares by its ranks (mpi_profile_part.c). */
#include "analysis/analysis.h"
#include "analysis/mpi_profile/mpi_profile.h"

const pw_analysis_ops pw_analysis_mpi_profile = {
    .name = "mpi_profile",
    .description = "mpiP-style MPI profile: functions, ranks, communication matrix, message sizes, collectives",
    .report = pw_mpi_profile_report,
    .part = pw_mpi_profile_part,
    .join = pw_mpi_profile_join,
    .tables = pw_mpi_profile_table_decls,
};
