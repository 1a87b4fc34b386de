/* test_mpi_comms.c — communicator reconstruction and world-rank
 * resolution (src/model/mpi_comms.h) and the pair counters, on small
 * cases whose answers were worked out by hand in the comments. */
#include "model/mpi_comms.h"
#include "core/pair_counts.h"
#include "harness.h"

/* DUMPI's handles: WORLD 2, SELF 3, NULL 1; MPI_UNDEFINED -32766. */
#define WORLD 2
#define SELF 3
#define CNULL 1
#define UNDEF (-32766)

static void init_all(pw_mpi_tracker *t, pw_mpi_tracker **p, int n)
{
    for (int r = 0; r < n; r++) {
        pw_mpi_tracker_init(&t[r], WORLD, SELF, CNULL, UNDEF);
        p[r] = &t[r];
    }
}

static void free_all(pw_mpi_tracker *t, int n, pw_mpi_comms *c)
{
    for (int r = 0; r < n; r++)
        pw_mpi_tracker_free(&t[r]);
    pw_mpi_comms_free(c);
}

/* 4 ranks split WORLD by color rank % 2 with key -rank:
 * color 0 = {0 (key 0), 2 (key -2)} ordered by key -> [2, 0];
 * color 1 = {1 (key -1), 3 (key -3)} -> [3, 1]. */
static void test_split_by_key(void)
{
    pw_mpi_tracker t[4], *p[4];
    init_all(t, p, 4);
    for (int r = 0; r < 4; r++)
        pw_mpi_tracker_split(&t[r], WORLD, r % 2, -r, 4);
    for (int r = 0; r < 4; r++)
        CHECK_EQ_INT(pw_mpi_tracker_lookup(&t[r], 4), 2);
    pw_mpi_comms c;
    CHECK_EQ_INT(pw_mpi_comms_resolve(&c, p, 4), 0);
    CHECK_EQ_INT(c.unresolved, 0);
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 0, 2, 0), 2);
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 0, 2, 1), 0);
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 2, 2, 0), 2);
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 1, 2, 0), 3);
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 3, 2, 1), 1);
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 1, 2, 2), -1); /* only 2 members */
    CHECK(pw_mpi_comm_of(&c, 0, 2) == pw_mpi_comm_of(&c, 2, 2));
    CHECK(pw_mpi_comm_of(&c, 0, 2) != pw_mpi_comm_of(&c, 1, 2));
    /* world and self */
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 3, PW_MPI_INST_WORLD, 1), 1);
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 3, PW_MPI_INST_SELF, 0), 3);
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 3, PW_MPI_INST_SELF, 1), -1);
    free_all(t, 4, &c);
}

/* A dup of a split keeps its members; ranks may number handles
 * differently (rank 1 calls its split comm 7, the others 4), and a freed
 * handle that is reused names a new communicator. */
static void test_dup_and_reuse(void)
{
    pw_mpi_tracker t[3], *p[3];
    init_all(t, p, 3);
    /* split WORLD: color 0 for ranks 0 and 1 (keys 5, 1 -> [1, 0]), rank 2 undefined */
    pw_mpi_tracker_split(&t[0], WORLD, 0, 5, 4);
    pw_mpi_tracker_split(&t[1], WORLD, 0, 1, 7);
    pw_mpi_tracker_split(&t[2], WORLD, UNDEF, 0, CNULL);
    CHECK_EQ_INT(pw_mpi_tracker_lookup(&t[2], CNULL), PW_MPI_UNKNOWN);
    /* dup it: rank 0 -> handle 5, rank 1 -> handle 4 */
    pw_mpi_tracker_dup(&t[0], 4, 5);
    pw_mpi_tracker_dup(&t[1], 7, 4);
    /* rank 0 frees 4, then dups WORLD into a new comm reusing handle 4 (all ranks) */
    pw_mpi_tracker_release(&t[0], 4);
    CHECK_EQ_INT(pw_mpi_tracker_lookup(&t[0], 4), PW_MPI_UNKNOWN);
    pw_mpi_tracker_dup(&t[0], WORLD, 4);
    pw_mpi_tracker_dup(&t[1], WORLD, 9);
    pw_mpi_tracker_dup(&t[2], WORLD, 4);
    pw_mpi_comms c;
    CHECK_EQ_INT(pw_mpi_comms_resolve(&c, p, 3), 0);
    CHECK_EQ_INT(c.unresolved, 0);
    uint32_t dup0 = pw_mpi_tracker_lookup(&t[0], 5), dup1 = pw_mpi_tracker_lookup(&t[1], 4);
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 0, dup0, 0), 1);
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 1, dup1, 1), 0);
    uint32_t again = pw_mpi_tracker_lookup(&t[0], 4);
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 0, again, 2), 2); /* the WORLD dup has 3 members */
    CHECK(pw_mpi_comm_of(&c, 0, again) == pw_mpi_comm_of(&c, 2, pw_mpi_tracker_lookup(&t[2], 4)));
    free_all(t, 3, &c);
}

/* A creation some member never made cannot be matched: counted. A call
 * on a handle never created is counted too. */
static void test_unresolved(void)
{
    pw_mpi_tracker t[3], *p[3];
    init_all(t, p, 3);
    pw_mpi_tracker_split(&t[0], WORLD, 0, 0, 4);
    pw_mpi_tracker_split(&t[2], WORLD, 0, 0, 4); /* rank 1 missing */
    pw_mpi_tracker_dup(&t[1], 42, 5);            /* 42 was never created */
    pw_mpi_comms c;
    CHECK_EQ_INT(pw_mpi_comms_resolve(&c, p, 3), 0);
    CHECK_EQ_INT(c.unresolved, 3);
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 0, 2, 0), -1);
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 0, PW_MPI_UNKNOWN, 0), -1);
    CHECK_EQ_INT(pw_mpi_world_rank(&c, 7, PW_MPI_INST_WORLD, 0), -1); /* no such rank */
    free_all(t, 3, &c);
}

/* Sums per key, and keys come back sorted. */
static void test_pair_counts(void)
{
    pw_pair_counts m = {0};
    for (uint32_t i = 0; i < 1000; i++)
        pw_pair_counts_add(&m, pw_pair_key(i % 10, i % 7), 1, i);
    CHECK_EQ_INT(m.n, 70);
    pw_pair_count *s = pw_pair_counts_sorted(&m);
    CHECK(s != NULL);
    uint64_t msgs = 0, bytes = 0;
    for (size_t k = 0; s && k < m.n; k++) {
        msgs += s[k].msgs;
        bytes += s[k].bytes;
        if (k)
            CHECK(s[k - 1].key < s[k].key);
    }
    CHECK_EQ_INT(msgs, 1000);
    CHECK_EQ_INT(bytes, 999 * 1000 / 2);
    /* (0,0) gets i = 0, 70, 140, ..., 980: 15 values summing to 70*105 */
    CHECK_EQ_INT(s ? s[0].msgs : 0, 15);
    CHECK_EQ_INT(s ? s[0].bytes : 0, 70 * 105);
    free(s);
    pw_pair_counts_free(&m);
}

TEST_MAIN(T(test_split_by_key), T(test_dup_and_reuse), T(test_unresolved), T(test_pair_counts))
