/* tournament.h — a loser tree over k sorted sequences, keyed by record
 * time.  The merge of cursors and the merge of pre-formatted dump chunks
 * both use it.  After the winner's sequence advances, only the path from
 * its leaf to the root is replayed: ceil(log2 k) comparisons. */
#ifndef PW_MODEL_TOURNAMENT_H
#define PW_MODEL_TOURNAMENT_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "perfweave.h"

/* The order of records: ns time, then virtual time, then location.
 * Records without a time sort as time 0 of their clock; a NaN virtual
 * time sorts as +infinity, so the order is total.  Each part is stored as
 * an unsigned integer whose order is the order of the part, so comparing
 * two keys is three integer comparisons and no branch. */
typedef struct pw_sort_key {
    uint64_t t;   /* pw_order_of_i64(ns time) */
    uint64_t vt;  /* pw_order_of_f64(virtual time) */
    uint64_t loc; /* location << 32; the tournament puts its leaf below */
} pw_sort_key;

static inline uint64_t pw_order_of_i64(int64_t t)
{
    return (uint64_t)t ^ ((uint64_t)1 << 63);
}

static inline int64_t pw_i64_of_order(uint64_t o)
{
    return (int64_t)(o ^ ((uint64_t)1 << 63));
}

/* Negative doubles reversed below the positive ones; -0 is 0, NaN +inf. */
static inline uint64_t pw_order_of_f64(double v)
{
    if (v != v)
        v = 1.0 / 0.0;
    if (v == 0.0)
        v = 0.0;
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits >> 63 ? ~bits : bits | ((uint64_t)1 << 63);
}

static inline double pw_f64_of_order(uint64_t o)
{
    uint64_t bits = o >> 63 ? o & ~((uint64_t)1 << 63) : ~o;
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* The order of virtual time 0.0: every key of a dataset whose records
 * have ns times (or none) has it. */
#define PW_ORDER_VT_ZERO ((uint64_t)1 << 63)

static inline pw_sort_key pw_sort_key_of(const pw_record *r)
{
    pw_sort_key k;
    k.t = pw_order_of_i64(r->clock == PW_CLOCK_NS ? r->t : 0);
    k.vt = r->clock == PW_CLOCK_VIRTUAL ? pw_order_of_f64(r->vt) : PW_ORDER_VT_ZERO;
    k.loc = (uint64_t)r->location << 32;
    return k;
}

static inline int pw_sort_key_before(const pw_sort_key *a, const pw_sort_key *b)
{
    int t_lt = a->t < b->t, t_eq = a->t == b->t;
    int vt_lt = a->vt < b->vt, vt_eq = a->vt == b->vt;
    return t_lt | (t_eq & (vt_lt | (vt_eq & (a->loc < b->loc))));
}

/* A node holds the key of the sequence that lost there (node 0: the
 * overall winner), its leaf number in the low bits of loc.  Keeping the
 * keys in the nodes means a replay reads nodes whose addresses it knows in
 * advance; only the comparisons depend on one another.  The parts live in
 * three arrays so that they load into three plain registers. */
typedef struct pw_tournament {
    size_t k;          /* leaves: a power of two */
    int vt_used;       /* a key with a virtual time other than 0 was given */
    uint64_t *t, *vt, *loc; /* per node: [1..k-1] losers, [0] the winner */
    pw_sort_key *leaf; /* per leaf: the key given before pw_tournament_build */
} pw_tournament;

/* At least n leaves, all done until given keys.  0 when out of memory. */
int pw_tournament_init(pw_tournament *t, size_t n);
void pw_tournament_free(pw_tournament *t);
/* Before building: leaf i's first key, or leaf i has nothing. */
void pw_tournament_set(pw_tournament *t, size_t i, pw_sort_key key);
void pw_tournament_set_done(pw_tournament *t, size_t i);
/* Plays all matches; call after setting the leaves. */
int pw_tournament_build(pw_tournament *t);
/* The winning leaf has a new key of ns time order key_t (vt 0) and
 * location key_loc (pw_sort_key.loc), and no key has had a virtual time
 * (vt_used is 0): replays its path, comparing t, then loc, with branches.
 * A node is read and written only when it wins, and the outcomes follow
 * the trace's pattern (a stream's run of events keeps winning; streams
 * taking turns lose at every level), which the branch predictor learns.
 * The key travels up in registers (inline, so it is never spilled to
 * memory on the way in). */
static inline void pw_tournament_replay_ns(pw_tournament *t, uint64_t key_t, uint64_t key_loc)
{
    uint64_t leaf = (uint32_t)t->loc[0];
    uint64_t ct = key_t, cloc = (key_loc & ~(uint64_t)UINT32_MAX) | leaf;
    for (size_t n = (leaf + t->k) / 2; n > 0; n /= 2) {
        uint64_t ot = t->t[n];
        if (ot > ct || (ot == ct && t->loc[n] > cloc))
            continue; /* the new key wins here: the node keeps its loser */
        uint64_t oloc = t->loc[n];
        t->t[n] = ct;
        t->loc[n] = cloc;
        ct = ot;
        cloc = oloc;
    }
    t->t[0] = ct;
    t->loc[0] = cloc;
}

/* The winning leaf has a new key (the parts of a pw_sort_key): replays its
 * path.  While no key has had a virtual time, every node's vt is the same
 * and pw_tournament_replay_ns does it; after, the outcome of a match
 * selects values through a mask, as the three-part comparison would
 * mispredict where sequences interleave. */
static inline void pw_tournament_replay(pw_tournament *t, uint64_t key_t, uint64_t key_vt,
                                        uint64_t key_loc)
{
    typedef unsigned __int128 u128;
    t->vt_used |= key_vt != PW_ORDER_VT_ZERO;
    if (!t->vt_used) {
        pw_tournament_replay_ns(t, key_t, key_loc);
        return;
    }
    uint64_t leaf = (uint32_t)t->loc[0];
    uint64_t ct = key_t, cvt = key_vt, cloc = (key_loc & ~(uint64_t)UINT32_MAX) | leaf;
    for (size_t n = (leaf + t->k) / 2; n > 0; n /= 2) {
        uint64_t ot = t->t[n], ovt = t->vt[n], oloc = t->loc[n];
        u128 olow = (u128)ovt << 64 | oloc, clow = (u128)cvt << 64 | cloc;
        uint64_t m = 0 - (uint64_t)((ot < ct) | ((ot == ct) & (olow < clow)));
        uint64_t dt = (ot ^ ct) & m, dvt = (ovt ^ cvt) & m, dloc = (oloc ^ cloc) & m;
        t->t[n] = ot ^ dt;
        t->vt[n] = ovt ^ dvt;
        t->loc[n] = oloc ^ dloc;
        ct ^= dt;
        cvt ^= dvt;
        cloc ^= dloc;
    }
    t->t[0] = ct;
    t->vt[0] = cvt;
    t->loc[0] = cloc;
}

/* The winning leaf has nothing more. */
void pw_tournament_retire(pw_tournament *t);
/* The winning leaf, when one is not done (its record was handed out). */
static inline size_t pw_tournament_leaf(const pw_tournament *t) { return (uint32_t)t->loc[0]; }
/* The winning leaf, or -1 when every leaf is done. */
static inline long pw_tournament_winner(const pw_tournament *t)
{
    if (t->t[0] == UINT64_MAX && t->loc[0] >> 32 == UINT32_MAX)
        return -1;
    return (long)(uint32_t)t->loc[0];
}
#endif
