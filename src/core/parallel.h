/* parallel.h — run one function over items 0..n-1 on a few threads.  Items
 * are handed out one at a time (dynamic scheduling), because locations
 * differ widely in size.  Or a team: a few threads that run one function
 * together and meet at barriers (work cut in rounds, each thread keeping
 * its own share from round to round). */
#ifndef PW_CORE_PARALLEL_H
#define PW_CORE_PARALLEL_H
#include <stddef.h>

/* fn(ctx, item, worker) for every item; worker is 0..threads-1 and lets fn
 * use per-worker state without locks.  threads <= 0 means one per core.
 * Returns the number of workers used (so callers can size worker state
 * with pw_parallel_workers first). */
void pw_parallel_for(size_t n, int threads, void (*fn)(void *ctx, size_t item, int worker),
                     void *ctx);

/* How many workers pw_parallel_for will use for n items. */
int pw_parallel_workers(size_t n, int threads);

typedef struct pw_team pw_team;
/* fn(ctx, team, worker) on `threads` threads at once (1..256; worker 0 is
 * the caller's thread), every thread started before any runs fn.  When a
 * thread cannot start, the team is smaller: pw_team_size says how many
 * run fn (worker 0..size-1). */
void pw_parallel_team(int threads, void (*fn)(void *ctx, pw_team *team, int worker), void *ctx);
int pw_team_size(const pw_team *team);
/* Returns once every worker of the team has called it (a barrier); what
 * each wrote before is then seen by all. */
void pw_team_sync(pw_team *team);
#endif
