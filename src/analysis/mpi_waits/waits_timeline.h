/* waits_timeline.h — MPI wait states drawn by the timeline writers: with
 * the format option "waits" (the CLI's --waits), every wait state becomes
 * a slice inside its MPI call on the call's track ("Late Sender", "Wait at
 * NxN", ... as Scalasca names them), from the call's entry to the moment
 * the wait ended; the critical path is a track "critical path" under each
 * process it visits, with a slice for each stretch it spends there.
 * Without MPI calls it draws nothing.  It is the analysis's `decorate`
 * (analysis.h): the timeline writers draw it through
 * pw_timeline_run_decorated, without naming it. */
#ifndef PW_ANALYSIS_MPI_WAITS_TIMELINE_H
#define PW_ANALYSIS_MPI_WAITS_TIMELINE_H
#include "views/timeline.h"

extern const pw_tl_decoration pw_mpi_waits_decoration;
#endif
