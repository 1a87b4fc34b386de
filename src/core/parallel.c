/* parallel.c — a minimal fork/join over pthreads. */
#include "core/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

typedef struct parallel_job {
    void (*fn)(void *ctx, size_t item, int worker);
    void *ctx;
    size_t n;
    atomic_size_t next;
} parallel_job;

typedef struct parallel_worker {
    parallel_job *job;
    int id;
} parallel_worker;

int pw_parallel_workers(size_t n, int threads)
{
    if (threads <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c > 0 ? (int)c : 1;
    }
    if (threads > 256)
        threads = 256;
    if ((size_t)threads > n)
        threads = n ? (int)n : 1;
    return threads;
}

static void *parallel_run(void *arg)
{
    parallel_worker *w = arg;
    parallel_job *j = w->job;
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n)
            break;
        j->fn(j->ctx, i, w->id);
    }
    return NULL;
}

void pw_parallel_for(size_t n, int threads, void (*fn)(void *ctx, size_t item, int worker),
                     void *ctx)
{
    int t = pw_parallel_workers(n, threads);
    parallel_job job = {.fn = fn, .ctx = ctx, .n = n};
    atomic_init(&job.next, 0);
    parallel_worker ws[256];
    pthread_t tids[256];
    int started = 0;
    /* Worker 0 is this thread; a thread that cannot start leaves its share
     * to the others. */
    for (int i = 1; i < t; i++) {
        ws[i].job = &job;
        ws[i].id = i;
        if (pthread_create(&tids[i], NULL, parallel_run, &ws[i]) != 0)
            break;
        started = i;
    }
    ws[0].job = &job;
    ws[0].id = 0;
    parallel_run(&ws[0]);
    for (int i = 1; i <= started; i++)
        pthread_join(tids[i], NULL);
}
