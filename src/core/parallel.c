/* parallel.c — a minimal fork/join over pthreads, and teams of threads
 * meeting at barriers. */
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

/* A barrier waiter first checks this many times whether the round moved
 * on before it sleeps: on an idle machine the others arrive within
 * microseconds, and a sleep and wake-up per barrier would cost more; on a
 * busy one the spin is short enough not to matter. */
#define TEAM_SPINS 2000

struct pw_team {
    void (*fn)(void *ctx, pw_team *team, int worker);
    void *ctx;
    int size;          /* 0 until every thread that could start has */
    pthread_mutex_t lock;
    pthread_cond_t moved; /* size set, or the round moved on */
    atomic_int arrived;   /* at the current barrier */
    atomic_uint round;    /* barriers passed */
};

typedef struct team_member {
    pw_team *team;
    int id;
} team_member;

/* A started thread waits until the team's size is known, then runs fn. */
static void *team_run(void *arg)
{
    team_member *m = arg;
    pw_team *t = m->team;
    pthread_mutex_lock(&t->lock);
    while (!t->size)
        pthread_cond_wait(&t->moved, &t->lock);
    pthread_mutex_unlock(&t->lock);
    t->fn(t->ctx, t, m->id);
    return NULL;
}

void pw_parallel_team(int threads, void (*fn)(void *ctx, pw_team *team, int worker), void *ctx)
{
    threads = threads < 1 ? 1 : threads > 256 ? 256 : threads;
    pw_team t = {.fn = fn, .ctx = ctx};
    pthread_mutex_init(&t.lock, NULL);
    pthread_cond_init(&t.moved, NULL);
    atomic_init(&t.arrived, 0);
    atomic_init(&t.round, 0);
    team_member ms[256];
    pthread_t tids[256];
    int started = 0;
    for (int i = 1; i < threads; i++) {
        ms[i] = (team_member){&t, i};
        if (pthread_create(&tids[i], NULL, team_run, &ms[i]) != 0)
            break; /* a smaller team */
        started = i;
    }
    pthread_mutex_lock(&t.lock);
    t.size = started + 1;
    pthread_cond_broadcast(&t.moved);
    pthread_mutex_unlock(&t.lock);
    fn(ctx, &t, 0);
    for (int i = 1; i <= started; i++)
        pthread_join(tids[i], NULL);
    pthread_cond_destroy(&t.moved);
    pthread_mutex_destroy(&t.lock);
}

int pw_team_size(const pw_team *team) { return team->size; }

void pw_team_sync(pw_team *t)
{
    if (t->size == 1)
        return;
    unsigned round = atomic_load(&t->round);
    if (atomic_fetch_add(&t->arrived, 1) + 1 == t->size) { /* the last: the next round starts */
        atomic_store(&t->arrived, 0);
        pthread_mutex_lock(&t->lock);
        atomic_fetch_add(&t->round, 1);
        pthread_cond_broadcast(&t->moved);
        pthread_mutex_unlock(&t->lock);
        return;
    }
    for (int i = 0; i < TEAM_SPINS && atomic_load(&t->round) == round; i++)
        ;
    pthread_mutex_lock(&t->lock);
    while (atomic_load(&t->round) == round)
        pthread_cond_wait(&t->moved, &t->lock);
    pthread_mutex_unlock(&t->lock);
}
