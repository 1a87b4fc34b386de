/* test_msgmatch.c — message matching on hand-made sequences: order per
 * (communicator, source, destination, tag), keys kept apart, nonblocking
 * receives completed through their requests, unmatched counts. */
#include "views/keymap.h"
#include "views/msgmatch.h"
#include "harness.h"

static void test_in_order_per_key(void)
{
    pw_msgmatch mm;
    pw_msgmatch_init(&mm);
    pw_msg a = {0, 0, 1, 7}, b = {0, 0, 1, 8};
    uint64_t s1 = pw_msgmatch_send(&mm, &a), s2 = pw_msgmatch_send(&mm, &a), s3 = pw_msgmatch_send(&mm, &b);
    CHECK(s1 && s2 && s3 && s1 != s2 && s1 != s3 && s2 != s3);
    /* receiver takes tag 8 first: it matches the tag-8 send, not the first one sent */
    CHECK_EQ_INT(pw_msgmatch_recv(&mm, &b), s3);
    CHECK_EQ_INT(pw_msgmatch_recv(&mm, &a), s1);
    CHECK_EQ_INT(pw_msgmatch_recv(&mm, &a), s2);
    uint64_t us, ur;
    pw_msgmatch_unmatched(&mm, &us, &ur);
    CHECK_EQ_INT(us, 0);
    CHECK_EQ_INT(ur, 0);
    pw_msgmatch_free(&mm);
}

static void test_communicators_apart(void)
{
    pw_msgmatch mm;
    pw_msgmatch_init(&mm);
    pw_msg world = {0, 2, 3, 0}, sub = {5, 2, 3, 0}, back = {0, 3, 2, 0};
    uint64_t w1 = pw_msgmatch_send(&mm, &world);
    uint64_t s1 = pw_msgmatch_send(&mm, &sub);
    uint64_t r_back = pw_msgmatch_recv(&mm, &back); /* 3 -> 2: nothing sent yet */
    CHECK(w1 != s1);
    CHECK_EQ_INT(pw_msgmatch_recv(&mm, &sub), s1);
    CHECK_EQ_INT(pw_msgmatch_recv(&mm, &world), w1);
    CHECK(r_back != w1 && r_back != s1);
    uint64_t us, ur;
    pw_msgmatch_unmatched(&mm, &us, &ur);
    CHECK_EQ_INT(us, 0);
    CHECK_EQ_INT(ur, 1);
    CHECK_EQ_INT(pw_msgmatch_send(&mm, &back), r_back); /* the late send matches it */
    pw_msgmatch_unmatched(&mm, &us, &ur);
    CHECK_EQ_INT(ur, 0);
    pw_msgmatch_free(&mm);
}

static void test_nonblocking_requests(void)
{
    pw_msgmatch mm;
    pw_msgmatch_init(&mm);
    pw_msg m = {0, 0, 1, 3};
    /* rank 1 posts two Irecvs (requests 100, 101) before rank 0 sends twice */
    CHECK(pw_msgmatch_post_recv(&mm, &m, 1, 100));
    CHECK(pw_msgmatch_post_recv(&mm, &m, 1, 101));
    uint64_t s1 = pw_msgmatch_send(&mm, &m), s2 = pw_msgmatch_send(&mm, &m);
    /* completed in the other order: each request keeps its own message */
    CHECK_EQ_INT(pw_msgmatch_complete(&mm, 1, 101, NULL), s2);
    CHECK_EQ_INT(pw_msgmatch_complete(&mm, 1, 100, NULL), s1);
    CHECK_EQ_INT(pw_msgmatch_complete(&mm, 1, 100, NULL), 0); /* already completed */
    CHECK_EQ_INT(pw_msgmatch_complete(&mm, 0, 101, NULL), 0); /* another rank's handle */
    /* a handle reused after completion names the new receive */
    CHECK(pw_msgmatch_post_recv(&mm, &m, 1, 100));
    uint64_t s3 = pw_msgmatch_send(&mm, &m);
    CHECK_EQ_INT(pw_msgmatch_complete(&mm, 1, 100, NULL), s3);
    pw_msgmatch_free(&mm);
}

static void test_wildcard_receives(void)
{
    pw_msgmatch mm;
    pw_msgmatch_init(&mm);
    pw_msg any = {0, -1, 1, -1};  /* Irecv(MPI_ANY_SOURCE, MPI_ANY_TAG) on rank 1 */
    pw_msg from2 = {0, 2, 1, 4}, from0 = {0, 0, 1, 3};
    CHECK(pw_msgmatch_post_recv(&mm, &any, 1, 50));
    CHECK(pw_msgmatch_post_recv(&mm, &any, 1, 51));
    uint64_t s0 = pw_msgmatch_send(&mm, &from0), s2 = pw_msgmatch_send(&mm, &from2);
    /* the statuses say request 50 got rank 2's message, 51 rank 0's */
    pw_msg st50 = {0, 2, 1, 4}, st51 = {0, 0, 1, 3};
    CHECK_EQ_INT(pw_msgmatch_complete(&mm, 1, 50, &st50), s2);
    CHECK_EQ_INT(pw_msgmatch_complete(&mm, 1, 51, &st51), s0);
    /* a wildcard completed without a status cannot be matched */
    CHECK(pw_msgmatch_post_recv(&mm, &any, 1, 52));
    CHECK_EQ_INT(pw_msgmatch_complete(&mm, 1, 52, NULL), 0);
    /* slots are reused: many wildcards in turn keep memory small */
    for (int i = 0; i < 1000; i++) {
        CHECK(pw_msgmatch_post_recv(&mm, &any, 1, 60));
        uint64_t s = pw_msgmatch_send(&mm, &from2);
        CHECK_EQ_INT(pw_msgmatch_complete(&mm, 1, 60, &st50), s);
    }
    CHECK(mm.n_wild <= 3);
    uint64_t us, ur;
    pw_msgmatch_unmatched(&mm, &us, &ur);
    CHECK_EQ_INT(us, 0);
    CHECK_EQ_INT(ur, 0);
    pw_msgmatch_free(&mm);
}

static void test_keymap_remove_keeps_probe_runs(void)
{
    pw_keymap m = {0};
    int added;
    for (uint64_t i = 0; i < 1000; i++)
        CHECK(pw_keymap_get(&m, &(pw_key){{i, i * 7, 0, 0}}, i, &added) && added);
    for (uint64_t i = 0; i < 1000; i += 2)
        pw_keymap_remove(&m, &(pw_key){{i, i * 7, 0, 0}});
    CHECK_EQ_INT(m.n, 500);
    for (uint64_t i = 0; i < 1000; i++) {
        uint64_t *v = pw_keymap_find(&m, &(pw_key){{i, i * 7, 0, 0}});
        CHECK(i % 2 ? v && *v == i : v == NULL);
    }
    pw_keymap_free(&m);
}

TEST_MAIN(T(test_in_order_per_key), T(test_communicators_apart), T(test_nonblocking_requests),
          T(test_wildcard_receives), T(test_keymap_remove_keeps_probe_runs))
