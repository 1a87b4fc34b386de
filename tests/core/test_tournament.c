/* test_tournament.c — the loser tree against a plain sort: random sorted
 * sequences with many ties in ns time, in virtual time and between
 * locations, some that switch from ns keys to virtual ones halfway (the
 * tree's fast path must hand over), NaN and signed zeros, empty and
 * single leaves.  The merged order must be the sort's, key for key. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"
#include "xorshift.h"
#include "model/tournament.h"

typedef struct item {
    pw_sort_key key;
    size_t leaf, pos; /* which sequence, and where in it */
} item;

static uint64_t rng = 0x243f6a8885a308d3u;
static uint64_t next_random(void) { return xorshift_next(&rng); }

static const double virtual_times[] = {0.0, -0.0, 1.5, -2.25, 1.0 / 0.0, -1.0 / 0.0, 1e-300};

/* A record's key: ns time from a narrow range (ties), or a virtual time
 * (some NaN) when `virtual_share` of 8 says so. */
static pw_sort_key random_key(uint32_t loc, int virtual_share)
{
    pw_record r = {0};
    r.location = loc;
    if ((int)(next_random() % 8) < virtual_share) {
        r.clock = PW_CLOCK_VIRTUAL;
        uint64_t pick = next_random() % 9;
        r.vt = pick == 8 ? NAN : pick == 7 ? (double)(next_random() % 4) : virtual_times[pick];
    } else {
        r.clock = next_random() % 16 ? PW_CLOCK_NS : PW_CLOCK_NONE;
        r.t = (int64_t)(next_random() % 7) - 3;
        if (next_random() % 32 == 0)
            r.t = next_random() % 2 ? INT64_MAX : INT64_MIN;
    }
    return pw_sort_key_of(&r);
}

static int item_cmp(const void *pa, const void *pb)
{
    const item *a = pa, *b = pb;
    if (pw_sort_key_before(&a->key, &b->key))
        return -1;
    if (pw_sort_key_before(&b->key, &a->key))
        return 1;
    return a->leaf != b->leaf ? (a->leaf < b->leaf ? -1 : 1) : (a->pos < b->pos ? -1 : a->pos > b->pos);
}

/* One trial: n leaves of up to max_len keys each; virtual keys appear in
 * leaves' second halves only when `switch_late`. */
static void trial(size_t n, size_t max_len, int virtual_share, int switch_late)
{
    size_t *len = calloc(n, sizeof *len);
    item **seq = calloc(n, sizeof *seq);
    item *all = calloc(n * max_len + 1, sizeof *all);
    size_t total = 0;
    for (size_t l = 0; l < n; l++) {
        len[l] = next_random() % (max_len + 1);
        seq[l] = calloc(len[l] + 1, sizeof **seq);
        for (size_t i = 0; i < len[l]; i++)
            seq[l][i] = (item){random_key((uint32_t)l, switch_late && i < len[l] / 2 ? 0 : virtual_share), l, 0};
        qsort(seq[l], len[l], sizeof **seq, item_cmp); /* each sequence sorted */
        for (size_t i = 0; i < len[l]; i++) {
            seq[l][i].pos = i;
            all[total++] = seq[l][i];
        }
    }
    qsort(all, total, sizeof *all, item_cmp);

    pw_tournament t;
    CHECK(pw_tournament_init(&t, n));
    size_t *next = calloc(n, sizeof *next);
    for (size_t l = 0; l < n; l++)
        if (len[l])
            pw_tournament_set(&t, l, seq[l][0].key);
    CHECK(pw_tournament_build(&t));
    size_t got = 0, wrong = 0;
    for (long w; (w = pw_tournament_winner(&t)) >= 0; got++) {
        if (got >= total || all[got].leaf != (size_t)w || all[got].pos != next[w])
            wrong++;
        if (++next[w] < len[w]) {
            const pw_sort_key *k = &seq[w][next[w]].key;
            pw_tournament_replay(&t, k->t, k->vt, k->loc);
        } else {
            pw_tournament_retire(&t);
        }
    }
    CHECK_EQ_INT(got, total);
    CHECK_EQ_INT(wrong, 0);
    pw_tournament_free(&t);
    for (size_t l = 0; l < n; l++)
        free(seq[l]);
    free(seq);
    free(len);
    free(all);
    free(next);
}

static void test_ns_only(void)
{
    for (int i = 0; i < 300; i++)
        trial(1 + next_random() % 40, 30, 0, 0);
}

static void test_mixed_clocks(void)
{
    for (int i = 0; i < 300; i++)
        trial(1 + next_random() % 40, 30, 1 + (int)(next_random() % 7), 0);
}

static void test_virtual_arrives_late(void)
{
    for (int i = 0; i < 300; i++)
        trial(1 + next_random() % 40, 30, 4, 1);
}

static void test_empty_and_single(void)
{
    trial(1, 0, 0, 0);
    trial(1, 1, 0, 0);
    trial(5, 0, 0, 0);
    for (int i = 0; i < 50; i++)
        trial(2 + next_random() % 3, 1, 3, 0);
}

TEST_MAIN({"ns_only", test_ns_only}, {"mixed_clocks", test_mixed_clocks},
          {"virtual_arrives_late", test_virtual_arrives_late}, {"empty_and_single", test_empty_and_single})
