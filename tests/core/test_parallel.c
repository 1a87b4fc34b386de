/* test_parallel.c — teams of threads (pw_parallel_team) meeting at
 * barriers: in every round each worker writes its own slot, and after the
 * barrier every worker must see every slot of that round, the writes of
 * one worker alone between two barriers (as the MPI replay does between
 * windows) included; a team of one never waits. */
#include <stdatomic.h>
#include <stdint.h>

#include "harness.h"
#include "core/parallel.h"

#define ROUNDS 3000

typedef struct team_test {
    uint64_t slot[8];     /* each worker's, written in its round */
    uint64_t serial;      /* worker 0's, written between the two barriers */
    atomic_int wrong;     /* what a worker saw amiss */
    atomic_int ran;       /* workers that ran */
} team_test;

static void round_trip(void *ctx, pw_team *team, int worker)
{
    team_test *t = ctx;
    int size = pw_team_size(team);
    atomic_fetch_add(&t->ran, 1);
    for (uint64_t r = 1; r <= ROUNDS; r++) {
        t->slot[worker] = r;
        pw_team_sync(team);
        for (int w = 0; w < size; w++)
            if (t->slot[w] != r)
                atomic_fetch_add(&t->wrong, 1);
        if (worker == 0)
            t->serial = r;
        pw_team_sync(team);
        if (t->serial != r)
            atomic_fetch_add(&t->wrong, 1);
    }
}

static void team_of(int threads)
{
    team_test t = {0};
    atomic_init(&t.wrong, 0);
    atomic_init(&t.ran, 0);
    pw_parallel_team(threads, round_trip, &t);
    CHECK_EQ_INT(atomic_load(&t.wrong), 0);
    CHECK_EQ_INT(atomic_load(&t.ran), threads);
}

static void test_team_of_one(void) { team_of(1); }

static void test_teams(void)
{
    for (int n = 2; n <= 8; n++)
        team_of(n);
}

TEST_MAIN({"team_of_one", test_team_of_one}, {"teams", test_teams})
