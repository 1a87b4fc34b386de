/* mpi_waits_analysis.c — the MPI analyses (wait states, critical path,
 * rank x function profile, time profile) as a registered analysis. */
#include "analysis/analysis.h"
#include "analysis/mpi_waits/mpi_waits.h"
#include "analysis/mpi_waits/waits_timeline.h"

const pw_analysis_ops pw_analysis_mpi_waits = {
    .name = "mpi_waits",
    .description = "where MPI time is lost: Scalasca's wait states, critical path, time profile",
    .report = pw_mpi_waits_report,
    .together = pw_mpi_waits_together,
    .tables = pw_mpi_waits_table_decls,
    .decorate = &pw_mpi_waits_decoration,
};
