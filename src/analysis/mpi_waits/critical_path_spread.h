/* critical_path_spread.h — the forward critical path (critical_path_forward.h)
 * when the replay is spread over processes (exchange.h), so that no
 * process holds every wait (docs/mpi-analyses.md, "The exchange
 * points").  Each round, riding in the exchange's alltoallv:
 *   - every process sends its frontier in the round's header; the least
 *     is the frontier F every process agrees on;
 *   - the owner of a rank asks, for each of its new waits, for the sums
 *     S' of the waiting rank and of the cause's at the wait's end (the
 *     cause's owner is asked), and for its MPI_Finalize exit and t_max;
 *   - after the round, each owner answers the questions before F (its
 *     ranks' running sums S' as sparse entries, to share 0) and lets go
 *     of its spans before F;
 *   - share 0 settles the waits before the previous round's F, whose
 *     answers have all come, as the serial path does, then frees them.
 * Share 0 holds two rounds of waits and answers, every owner its ranks'
 * spans and questions since the frontier. */
#ifndef PW_ANALYSIS_MPI_WAITS_CRITICAL_PATH_SPREAD_H
#define PW_ANALYSIS_MPI_WAITS_CRITICAL_PATH_SPREAD_H
#include "analysis/mpi_waits/exchange.h"

typedef struct mw_spread mw_spread;

/* run->ex->spread made (run->fwd made); 0 when memory runs out. */
int mw_spread_init(mw_run *run);
void mw_spread_free(mw_run *run);
/* At a round's start, before its sides are queued: this process's new
 * questions asked or queued; returns its frontier (final: after the
 * replay, INT64_MAX). */
int64_t mw_spread_start(mw_run *run, int final);
/* A question, answer or MPI_Finalize exit from another process. */
void mw_spread_arrived(mw_run *run, const mw_xrec *r);
/* After a round's arrivals, with the agreed frontier f: the questions
 * before f answered, share 0's waits before the last round's frontier
 * settled.  0 when memory runs out. */
int mw_spread_end(mw_run *run, int64_t f);
/* Share 0: the owner's S' of rank slot at t: returns the rank's own
 * time, fn its sums per function (n_fn numbers; 0 where no answer says
 * otherwise; index k of an answer is ranks + its function). */
uint64_t mw_spread_sums(const mw_spread *sp, size_t slot, int64_t t, uint64_t *fn, size_t ranks, size_t n_fn);
#endif
