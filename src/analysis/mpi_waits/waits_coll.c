/* waits_coll.c — collective wait states, the replay's second exchange
 * point.  Collectives on a communicator are matched in call order: the
 * n-th call on it at each member is one instance.  Each member leaves its
 * entry (and root, and what it needs to be charged) in the instance; the
 * member that enters last folds the entries, in member order, into the
 * latest entry, the root's entry and the latest non-root entry, charges
 * every member Scalasca's wait, and the instance is freed:
 *   Wait at NxN / Barrier  min(last_enter, exit) - enter
 *   Late Broadcast         non-roots: min(root_enter, exit) - enter
 *   Early Reduce           the root: min(last_nonroot_enter, exit) - enter
 * (each only when the other side entered later).  An instance some member
 * never enters charges nothing. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/exchange.h"
#include "analysis/mpi_waits/seq_ring.h"
#include "views/timeline_flows.h"
#include "core/grow.h"

/* One member's call in an instance. */
typedef struct coll_member {
    uint64_t enter;
    int64_t exit, root; /* root: comm rank of the root, -1 when not rooted */
    uint32_t schema, location;
    int8_t kind;        /* mw_wait */
    uint8_t entered, timed;
} coll_member;

/* An instance some members have entered: entries by comm rank. */
typedef struct coll_instance {
    uint32_t entered;
    coll_member *m;
} coll_instance;

/* A communicator's instances in flight. */
struct mw_comm_state {
    pthread_mutex_t lock;
    int tracked;         /* more than one member, each with records */
    mw_seq_ring inst;    /* of coll_instance, by sequence number */
};

/* What the instance's entries tell each member (the fold). */
typedef struct coll_fold {
    uint64_t last_enter, root_enter, last_nonroot_enter;
    uint32_t last_rank, last_nonroot_rank;
} coll_fold;

int mw_comms_init(mw_run *run)
{
    run->n_comm = run->comms.comms.n_comms;
    run->comm = calloc(run->n_comm ? run->n_comm : 1, sizeof *run->comm);
    if (!run->comm)
        return 0;
    for (size_t c = 0; c < run->n_comm; c++) {
        const pw_mpi_comm *cm = &run->comms.comms.comms[c];
        struct mw_comm_state *cs = &run->comm[c];
        pthread_mutex_init(&cs->lock, NULL);
        cs->tracked = cm->size > 1;
        for (uint32_t m = 0; m < cm->size && cs->tracked; m++)
            cs->tracked = mw_rank_of(run, cm->members[m]) != NULL;
    }
    return 1;
}

void mw_comms_free(mw_run *run)
{
    for (size_t c = 0; run->comm && c < run->n_comm; c++) {
        struct mw_comm_state *cs = &run->comm[c];
        for (uint64_t s = cs->inst.base; s < cs->inst.base + cs->inst.n; s++)
            free(((coll_instance *)mw_seq_ring_at(&cs->inst, s, sizeof(coll_instance)))->m);
        mw_seq_ring_free(&cs->inst);
        pthread_mutex_destroy(&cs->lock);
    }
    free(run->comm);
}

/* Instance seq of communicator cs (size members), made when new; NULL when
 * memory runs out.  *done: it was folded already (a rank whose two
 * instances name one communicator entered it twice). */
static coll_instance *instance(struct mw_comm_state *cs, uint64_t seq, uint32_t size, int *done)
{
    *done = seq < cs->inst.base;
    coll_instance *in = *done ? NULL : mw_seq_ring_at(&cs->inst, seq, sizeof *in);
    if (!in)
        return NULL;
    *done = in->entered == UINT32_MAX;
    if (*done || (!in->m && !(in->m = calloc(size, sizeof *in->m))))
        return NULL;
    return in;
}

/* The entries folded in member order. */
static coll_fold fold(const pw_mpi_comm *cm, const coll_member *e)
{
    coll_fold in = {0};
    for (uint32_t m = 0; m < cm->size; m++) {
        uint64_t t = e[m].enter;
        if (t > in.last_enter || m == 0) {
            in.last_enter = t;
            in.last_rank = cm->members[m];
        }
        if (e[m].root == (int64_t)m) {
            in.root_enter = t;
        } else if (t > in.last_nonroot_enter || !in.last_nonroot_enter) {
            in.last_nonroot_enter = t;
            in.last_nonroot_rank = cm->members[m];
        }
    }
    return in;
}

/* Member m's wait in a folded instance, charged to its rank (by the
 * replay of `actor`, the last to enter). */
static void charge_member(mw_run *run, mw_rank *actor, const pw_mpi_comm *cm, const coll_fold *in, uint32_t m,
                          const coll_member *e)
{
    mw_rank *rk = mw_rank_of(run, cm->members[m]);
    if (!rk || !e->timed)
        return;
    uint64_t enter = e->enter, exit = (uint64_t)e->exit, other;
    int64_t cause, root = e->root;
    int is_root = root >= 0 && root < cm->size && cm->members[root] == (uint32_t)rk->rank;
    switch (e->kind) {
    case MW_LATE_BROADCAST:
        other = is_root || root < 0 ? 0 : in->root_enter;
        cause = root >= 0 && root < cm->size ? (int64_t)cm->members[root] : -1;
        break;
    case MW_EARLY_REDUCE:
        other = is_root ? in->last_nonroot_enter : 0;
        cause = in->last_nonroot_rank;
        break;
    default:
        other = in->last_enter;
        cause = in->last_rank;
        break;
    }
    if (other > enter && exit >= enter)
        mw_charge_by(run, actor, rk, e->schema, (int64_t)e->enter, e->location, (mw_wait)e->kind,
                     (other < exit ? other : exit) - enter, cause);
}

/* The last member entered: every member charged, the instance freed, and
 * the instances at the front that are done leave the ring. */
static void complete(mw_run *run, mw_rank *actor, struct mw_comm_state *cs, const pw_mpi_comm *cm,
                     coll_instance *in)
{
    coll_fold f = fold(cm, in->m);
    for (uint32_t m = 0; m < cm->size; m++)
        charge_member(run, actor, cm, &f, m, &in->m[m]);
    free(in->m);
    in->m = NULL;
    in->entered = UINT32_MAX; /* done */
    const coll_instance *front;
    while ((front = mw_seq_ring_front(&cs->inst, sizeof *front)) && front->entered == UINT32_MAX)
        mw_seq_ring_pop(&cs->inst);
}

/* The comm rank of world rank w in cm, or -1. */
static int64_t member_index(const pw_mpi_comm *cm, int64_t w)
{
    for (uint32_t m = 0; m < cm->size; m++)
        if (cm->members[m] == (uint32_t)w)
            return m;
    return -1;
}

/* Where rk stands on its communicator instance inst: its calls so far,
 * the communicator and its comm rank there (looked up once); NULL when
 * memory runs out. */
static mw_coll_pos *position(const mw_run *run, mw_rank *rk, uint32_t inst)
{
    if (inst >= rk->n_coll) {
        uint32_t n = inst + 1 > rk->n_coll * 2 ? inst + 1 : rk->n_coll * 2;
        mw_coll_pos *p = realloc(rk->coll_pos, n * sizeof *p);
        if (!p)
            return NULL;
        memset(p + rk->n_coll, 0, (n - rk->n_coll) * sizeof *p);
        rk->coll_pos = p;
        rk->n_coll = n;
    }
    mw_coll_pos *p = &rk->coll_pos[inst];
    if (!p->known) {
        p->known = 1;
        p->comm = pw_mpi_comm_of(&run->comms.comms, (size_t)rk->rank, inst);
        p->member = p->comm == PW_MPI_UNKNOWN || p->comm >= run->n_comm || !run->comm[p->comm].tracked
                        ? -1
                        : member_index(&run->comms.comms.comms[p->comm], rk->rank);
    }
    return p;
}

/* Member m's entry e into instance seq of communicator comm; the
 * instance folded and charged when it was the last (rk: the member's
 * rank, marked failed when memory runs out). */
static void enter_instance(mw_run *run, mw_rank *rk, uint32_t comm, uint64_t seq, uint32_t m, const coll_member *e)
{
    const pw_mpi_comm *cm = &run->comms.comms.comms[comm];
    struct mw_comm_state *cs = &run->comm[comm];
    if (run->parallel)
        pthread_mutex_lock(&cs->lock);
    int done;
    coll_instance *in = instance(cs, seq, cm->size, &done);
    if (!in) {
        rk->failed |= !done;
    } else if (!in->m[m].entered) {
        in->m[m] = *e;
        if (++in->entered == cm->size)
            complete(run, rk, cs, cm, in);
    }
    if (run->parallel)
        pthread_mutex_unlock(&cs->lock);
}

void mw_waits_coll(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v)
{
    uint32_t inst = mw_comm_instance(run, rk, v, sc->tl.mpi.f_comm);
    if (inst == PW_MPI_UNKNOWN)
        return;
    mw_coll_pos *pos = position(run, rk, inst);
    if (!pos) {
        rk->failed = 1;
        return;
    }
    uint64_t seq = pos->calls++;
    if (pos->member < 0)
        return;
    uint32_t m = (uint32_t)pos->member;
    coll_member e = {rec->clock == PW_CLOCK_NS ? (uint64_t)rec->t : 0, rec->t_end,
                     sc->tl.mpi.f_root >= 0 ? mw_field_int(v, sc->tl.mpi.f_root, -1) : -1,
                     rec->schema, rec->location, sc->coll_wait, 1,
                     rec->has_end && rec->clock == PW_CLOCK_NS};
    if (run->ex) /* the other processes with members fold this entry too */
        mw_exchange_entered(run, pos->comm, seq, m, e.enter, e.root == (int64_t)m);
    enter_instance(run, rk, pos->comm, seq, m, &e);
}

void mw_coll_arrived(mw_run *run, uint32_t comm, uint64_t seq, uint32_t member, uint64_t enter, int is_root)
{
    const pw_mpi_comm *cm = comm < run->n_comm ? &run->comms.comms.comms[comm] : NULL;
    if (!cm || member >= cm->size || !run->comm[comm].tracked)
        return;
    /* an entry to fold, never charged here (not timed) */
    coll_member e = {enter, 0, is_root ? (int64_t)member : -1, 0, 0, 0, 1, 0};
    enter_instance(run, mw_rank_of(run, cm->members[member]), comm, seq, member, &e);
}

int64_t mw_coll_oldest_entry(const mw_run *run)
{
    int64_t oldest = INT64_MAX;
    for (size_t c = 0; c < run->n_comm; c++) {
        const mw_seq_ring *r = &run->comm[c].inst;
        uint32_t size = run->comms.comms.comms[c].size;
        for (uint64_t s = r->base; s < r->base + r->n; s++) {
            const coll_instance *in = (const coll_instance *)(r->items + (s & (r->cap - 1)) * sizeof *in);
            for (uint32_t m = 0; in->m && in->entered != UINT32_MAX && m < size; m++)
                if (in->m[m].entered && in->m[m].timed && (int64_t)in->m[m].enter < oldest)
                    oldest = (int64_t)in->m[m].enter;
        }
    }
    return oldest;
}
