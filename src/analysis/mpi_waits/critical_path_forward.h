/* critical_path_forward.h — the critical path computed during the replay,
 * in memory that does not grow with the number of waits (the walk back of
 * critical_path.c needs every wait; docs/mpi-analyses.md, "Memory").
 *
 * The path from (rank r, time t) back is S_r(t) + G_r: S_r(t) the rank's
 * running sums up to t (its own time t, and the time of each function and
 * of the gaps between calls, clipped at t), G_r the path's sums from its
 * latest wait ending by t, less S_r at that wait's end.  After each window
 * the waits that no later charge can precede (they end before the
 * frontier: every rank's next record, pending call and open collective
 * entry) are settled in time order, each rank's G updated from its
 * cause's; waits ending at one time that point at each other are followed
 * by a short walk at that time, as the walk's bounds do.  A rank keeps its
 * calls and waits since the frontier, its G (ranks + functions + 1
 * numbers) once a wait of its is settled, and, on the process replaying
 * it, two vectors of functions; the path's best ends are two vectors. */
#ifndef PW_ANALYSIS_MPI_WAITS_CRITICAL_PATH_FORWARD_H
#define PW_ANALYSIS_MPI_WAITS_CRITICAL_PATH_FORWARD_H
#include "analysis/mpi_waits/mpi_waits.h"

/* The forward path for a replay of every rank by this process; 0 when
 * memory runs out. */
int mw_forward_init(mw_run *run);
/* rk's timed call [t, end] in function fn and the gap between calls
 * before it [from, t] (from == t: none), noted by its replay for the
 * path's sums. */
void mw_forward_note(mw_rank *rk, int64_t from, int64_t t, int64_t end, uint32_t fn);
/* After a window: the waits before the frontier settled.  0 when memory
 * runs out. */
int mw_forward_settle(mw_run *run);
/* After the replay (pending calls charged): every wait settled, and the
 * path's sums from its end kept for the report.  0 when memory runs out. */
int mw_forward_finish(mw_run *run);
/* The totals from the path's end, once every wait is settled (the
 * ranks' MPI_Finalize exits and t_max known).  0 when memory runs out. */
int mw_forward_end(mw_run *run);

/* For a replay spread over processes (critical_path_spread.c).  The
 * frontier of this process's ranks (final: every record handled,
 * INT64_MAX), their spans sorted for the answers; share 0's settling of the waits before f with the owners'
 * sums in `answers`; an owner's sums S' of rank `slot` at t, as its
 * non-zero numbers (index into a vector of mw_forward_width numbers in k,
 * value in v: at most 1 + functions; *ok cleared when memory runs out),
 * returning their count; its ranks' spans before f let go (no question
 * before f is to come); the count of a rank's waits already asked
 * about; a function's sums from another process made counted. */
struct mw_spread;
int64_t mw_forward_frontier(mw_run *run, int final);
int mw_forward_settle_before(mw_run *run, const struct mw_spread *answers, int64_t f);
size_t mw_forward_sums(mw_run *run, size_t slot, int64_t t, size_t *k, uint64_t *v, int *ok);
int mw_forward_release(mw_run *run, int64_t f);
size_t *mw_forward_asked(mw_rank *rk);
/* The rank's waits sent to share 0 and let go here: none to ask about. */
void mw_forward_waits_sent(mw_rank *rk);
size_t mw_forward_width(const mw_run *run);
void mw_forward_use(mw_run *run, size_t k);
/* The path's time per rank slot (n_ranks numbers), then per function
 * (n_schemas + 1, compute last); NULL when the path was walked. */
const uint64_t *mw_forward_totals(const mw_run *run);
/* run->fwd and each rank's part freed and set NULL (a half made one too). */
void mw_forward_free(mw_run *run);
/* The rank slot a wait's cause names, or -1 (outside the dataset: the
 * path starts on the waiting rank). */
int64_t mw_cause_slot(const mw_run *run, int64_t cause);
/* qsort order of waits by the time they end, then entry and cause (a
 * rank's threads charge them out of order); the walk's and the forward
 * path's (critical_path.c). */
int mw_by_resume(const void *a, const void *b);
#endif
