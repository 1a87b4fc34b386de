/* tournament.c — the loser tree. */
#include "model/tournament.h"

#include <stdlib.h>

/* Sorts after every real key: a real key with the largest t has a ns
 * time, so vt 0, and no location is numbered UINT32_MAX. */
static pw_sort_key done_key(size_t i)
{
    return (pw_sort_key){UINT64_MAX, PW_ORDER_VT_ZERO, ((uint64_t)UINT32_MAX << 32) | i};
}

int pw_tournament_init(pw_tournament *t, size_t n)
{
    t->k = 1;
    t->vt_used = 0;
    while (t->k < n)
        t->k *= 2;
    t->t = calloc(t->k, sizeof *t->t);
    t->vt = calloc(t->k, sizeof *t->vt);
    t->loc = calloc(t->k, sizeof *t->loc);
    t->leaf = malloc(t->k * sizeof *t->leaf);
    if (!t->t || !t->vt || !t->loc || !t->leaf) {
        pw_tournament_free(t);
        return 0;
    }
    for (size_t i = 0; i < t->k; i++)
        t->leaf[i] = done_key(i);
    return 1;
}

void pw_tournament_free(pw_tournament *t)
{
    free(t->t);
    free(t->vt);
    free(t->loc);
    free(t->leaf);
    t->t = t->vt = t->loc = NULL;
    t->leaf = NULL;
}

void pw_tournament_set(pw_tournament *t, size_t i, pw_sort_key key)
{
    key.loc = (key.loc & ~(uint64_t)UINT32_MAX) | i;
    t->leaf[i] = key;
    t->vt_used |= key.vt != PW_ORDER_VT_ZERO;
}

void pw_tournament_set_done(pw_tournament *t, size_t i)
{
    t->leaf[i] = done_key(i);
}

/* Bottom up: winners[] holds the winner of each subtree while the losers
 * go into the nodes. */
int pw_tournament_build(pw_tournament *t)
{
    pw_sort_key *winners = malloc(2 * t->k * sizeof *winners);
    if (!winners)
        return 0;
    memcpy(winners + t->k, t->leaf, t->k * sizeof *winners);
    for (size_t n = t->k - 1; n > 0; n--) {
        const pw_sort_key *a = &winners[2 * n], *b = &winners[2 * n + 1];
        int b_wins = pw_sort_key_before(b, a);
        const pw_sort_key *loser = b_wins ? a : b;
        t->t[n] = loser->t;
        t->vt[n] = loser->vt;
        t->loc[n] = loser->loc;
        winners[n] = b_wins ? *b : *a;
    }
    t->t[0] = winners[1].t;
    t->vt[0] = winners[1].vt;
    t->loc[0] = winners[1].loc;
    free(winners);
    return 1;
}

void pw_tournament_retire(pw_tournament *t)
{
    pw_sort_key done = done_key(0);
    pw_tournament_replay(t, done.t, done.vt, done.loc);
}
