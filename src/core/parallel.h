/* parallel.h — run one function over items 0..n-1 on a few threads.  Items
 * are handed out one at a time (dynamic scheduling), because locations
 * differ widely in size. */
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
#endif
