/* tournament.h — a loser tree over k sorted sequences, keyed by record
 * time.  The merge of cursors and the merge of pre-formatted dump chunks
 * both use it.  After the winner's sequence advances, only the path from
 * its leaf to the root is replayed: ceil(log2 k) comparisons. */
#ifndef PW_MODEL_TOURNAMENT_H
#define PW_MODEL_TOURNAMENT_H
#include <stddef.h>
#include <stdint.h>

#include "perfweave.h"

/* The order of records: ns time, then virtual time, then location.
 * Records without a time sort as time 0 of their clock; a NaN virtual
 * time sorts as +infinity, so the order is total. */
typedef struct pw_sort_key {
    int64_t t;
    double vt;
    uint32_t loc;
} pw_sort_key;

static inline pw_sort_key pw_sort_key_of(const pw_record *r)
{
    pw_sort_key k;
    k.t = r->clock == PW_CLOCK_NS ? r->t : 0;
    k.vt = r->clock == PW_CLOCK_VIRTUAL ? (r->vt == r->vt ? r->vt : 1.0 / 0.0) : 0.0;
    k.loc = r->location;
    return k;
}

static inline int pw_sort_key_before(const pw_sort_key *a, const pw_sort_key *b)
{
    if (a->t != b->t)
        return a->t < b->t;
    if (a->vt != b->vt)
        return a->vt < b->vt;
    return a->loc < b->loc;
}

typedef struct pw_tournament {
    size_t k;            /* leaves: a power of two */
    pw_sort_key *keys;   /* per leaf */
    uint8_t *done;       /* per leaf: exhausted, loses every match */
    size_t *tree;        /* tree[1..k-1]: losers; tree[0]: the winner */
} pw_tournament;

/* At least n leaves, all done until given keys.  0 when out of memory. */
int pw_tournament_init(pw_tournament *t, size_t n);
void pw_tournament_free(pw_tournament *t);
/* Plays all matches; call once after setting the leaves. */
int pw_tournament_build(pw_tournament *t);
/* After leaf i's key changed (or it became done): replays its path. */
void pw_tournament_replay(pw_tournament *t, size_t i);
/* The winning leaf, or -1 when every leaf is done. */
static inline long pw_tournament_winner(const pw_tournament *t)
{
    return t->done[t->tree[0]] ? -1 : (long)t->tree[0];
}
#endif
