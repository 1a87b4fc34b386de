/* test_heap.c — the core min-heap: items come out in their order whatever
 * the order of pushes and pops, ties by the caller's tie-breaker, every
 * byte of an item kept, and an empty heap after as many pops as pushes. */
#include <stdint.h>

#include "core/heap.h"
#include "harness.h"
#include "xorshift.h"

typedef struct item {
    int64_t t;
    uint64_t seq;     /* pushes in order; later first on ties, as timeline.c */
    uint32_t payload; /* a function of t and seq: checks the item moved whole */
} item;

static int item_before(const void *pa, const void *pb)
{
    const item *a = pa, *b = pb;
    return a->t != b->t ? a->t < b->t : a->seq > b->seq;
}

static uint32_t payload_of(int64_t t, uint64_t seq) { return (uint32_t)(t * 2654435761u ^ seq); }

static uint64_t rng_state = 88172645463325252ull;
static uint64_t next_random(void) { return xorshift_next(&rng_state); }

static item pop(pw_heap *h)
{
    item it;
    pw_heap_pop(h, &it, sizeof it, item_before);
    return it;
}

/* Pushes and pops at random, with few distinct times so that ties are
 * common: each pop gives the least item the heap holds (found by a plain
 * scan of it), whole. */
static void test_random_order(void)
{
    pw_heap h = {0};
    uint64_t seq = 0;
    int bad_order = 0, bad_payload = 0;
    for (int step = 0; step < 20000; step++) {
        if (h.n && next_random() % 3 == 0) {
            item least = *(const item *)pw_heap_first(&h);
            for (size_t i = 0; i < h.n; i++)
                if (item_before(pw_heap_at(&h, i, sizeof(item)), &least))
                    least = *(const item *)pw_heap_at(&h, i, sizeof(item));
            item got = pop(&h);
            bad_order += got.t != least.t || got.seq != least.seq;
            bad_payload += got.payload != payload_of(got.t, got.seq);
        } else {
            int64_t t = (int64_t)(next_random() % 50) - 25;
            item it = {t, seq, payload_of(t, seq)};
            seq++;
            CHECK(pw_heap_push(&h, &it, sizeof it, item_before));
        }
    }
    CHECK_EQ_INT(bad_order, 0);
    CHECK_EQ_INT(bad_payload, 0);
    pw_heap_free(&h);
    CHECK(h.items == NULL && h.n == 0);
}

/* Everything pushed, then everything popped: a sorted sequence, the
 * later push first among equal times. */
static void test_drain_sorted(void)
{
    pw_heap h = {0};
    enum { N = 1000 };
    for (uint64_t i = 0; i < N; i++) {
        int64_t t = (int64_t)((i * 7919) % 101);
        item it = {t, i, payload_of(t, i)};
        CHECK(pw_heap_push(&h, &it, sizeof it, item_before));
    }
    CHECK_EQ_INT(h.n, N);
    item prev = pop(&h);
    int bad = 0;
    for (int i = 1; i < N; i++) {
        item it = pop(&h);
        bad += item_before(&it, &prev) || (it.t == prev.t && it.seq > prev.seq);
        prev = it;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(h.n, 0);
    pw_heap_free(&h);
}

/* One item in, one out, then the heap is empty and takes more. */
static void test_single(void)
{
    pw_heap h = {0};
    item a = {5, 0, 7}, b = {3, 1, 9};
    CHECK(pw_heap_push(&h, &a, sizeof a, item_before));
    item got = pop(&h);
    CHECK(got.t == 5 && got.payload == 7 && h.n == 0);
    CHECK(pw_heap_push(&h, &a, sizeof a, item_before));
    CHECK(pw_heap_push(&h, &b, sizeof b, item_before));
    CHECK_EQ_INT(((const item *)pw_heap_first(&h))->t, 3);
    pw_heap_free(&h);
}

TEST_MAIN(T(test_random_order), T(test_drain_sorted), T(test_single))
