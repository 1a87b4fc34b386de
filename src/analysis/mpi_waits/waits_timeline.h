/* waits_timeline.h — MPI wait states drawn by the timeline writers: with
 * the format option "waits" (the CLI's --waits), every wait state becomes
 * a slice inside its MPI call on the call's track ("Late Sender", "Wait at
 * NxN", ... as Scalasca names them), from the call's entry to the moment
 * the wait ended; the critical path is a track "critical path" under each
 * process it visits, with a slice for each stretch it spends there.
 * Without the option, or without MPI calls, this is pw_timeline_run. */
#ifndef PW_ANALYSIS_MPI_WAITS_TIMELINE_H
#define PW_ANALYSIS_MPI_WAITS_TIMELINE_H
#include "views/timeline.h"

pw_status pw_mpi_waits_timeline_run(pw_dataset *ds, const pw_tl_sink *sink, pw_convert_report *rep,
                                    pw_error *err);
#endif
