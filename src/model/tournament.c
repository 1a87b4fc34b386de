/* tournament.c — the loser tree. */
#include "model/tournament.h"

#include <stdlib.h>

static inline int leaf_before(const pw_tournament *t, size_t a, size_t b)
{
    if (t->done[a] != t->done[b])
        return t->done[b];
    return pw_sort_key_before(&t->keys[a], &t->keys[b]);
}

int pw_tournament_init(pw_tournament *t, size_t n)
{
    t->k = 1;
    while (t->k < n)
        t->k *= 2;
    t->keys = calloc(t->k, sizeof *t->keys);
    t->done = malloc(t->k);
    t->tree = calloc(t->k, sizeof *t->tree);
    if (!t->keys || !t->done || !t->tree) {
        pw_tournament_free(t);
        return 0;
    }
    for (size_t i = 0; i < t->k; i++)
        t->done[i] = 1;
    return 1;
}

void pw_tournament_free(pw_tournament *t)
{
    free(t->keys);
    free(t->done);
    free(t->tree);
    t->keys = NULL;
    t->done = NULL;
    t->tree = NULL;
}

/* Bottom up: winners[] holds the winner of each subtree while the losers
 * go into the tree. */
int pw_tournament_build(pw_tournament *t)
{
    size_t *winners = malloc(2 * t->k * sizeof *winners);
    if (!winners)
        return 0;
    for (size_t i = 0; i < t->k; i++)
        winners[t->k + i] = i;
    for (size_t node = t->k - 1; node > 0; node--) {
        size_t a = winners[2 * node], b = winners[2 * node + 1];
        int b_wins = leaf_before(t, b, a);
        winners[node] = b_wins ? b : a;
        t->tree[node] = b_wins ? a : b;
    }
    t->tree[0] = t->k > 1 ? winners[1] : 0;
    free(winners);
    return 1;
}

/* Which leaf wins a match is as good as random when streams interleave:
 * the outcome selects (conditional moves) rather than branches, so a
 * mispredicted branch is not paid at every level. */
void pw_tournament_replay(pw_tournament *t, size_t i)
{
    size_t winner = i;
    for (size_t node = (i + t->k) / 2; node > 0; node /= 2) {
        size_t other = t->tree[node];
        size_t other_wins = (size_t)leaf_before(t, other, winner);
        size_t mask = 0 - other_wins;
        t->tree[node] = (winner & mask) | (other & ~mask);
        winner = (other & mask) | (winner & ~mask);
    }
    t->tree[0] = winner;
}
