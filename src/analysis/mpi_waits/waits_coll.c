/* waits_coll.c — collective wait states.  Collectives on a communicator
 * are matched in call order: the n-th call on it at each member is one
 * instance.  Pass 1 keeps each rank's entry (and root) per instance of
 * every communicator it used; the link folds an instance's entries into
 * its latest entry, the root's entry and the latest non-root entry; pass 2
 * charges each call Scalasca's wait:
 *   Wait at NxN / Barrier  min(last_enter, exit) - enter
 *   Late Broadcast         non-roots: min(root_enter, exit) - enter
 *   Early Reduce           the root: min(last_nonroot_enter, exit) - enter
 * (each only when the other side entered later). */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_waits/mpi_waits.h"
#include "analysis/timeline_flows.h"
#include "core/grow.h"

/* The list of communicator instance `inst`, grown to hold it. */
static struct mw_coll_list *coll_list(mw_rank *rk, uint32_t inst)
{
    if (inst >= rk->n_coll) {
        uint32_t n = inst + 1 > rk->n_coll * 2 ? inst + 1 : rk->n_coll * 2;
        struct mw_coll_list *l = realloc(rk->coll, n * sizeof *l);
        uint64_t *s = l ? realloc(rk->coll_seq, n * sizeof *s) : NULL;
        if (l)
            rk->coll = l;
        if (!s) {
            rk->failed = 1;
            return NULL;
        }
        memset(l + rk->n_coll, 0, (n - rk->n_coll) * sizeof *l);
        memset(s + rk->n_coll, 0, (n - rk->n_coll) * sizeof *s);
        rk->coll_seq = s;
        rk->n_coll = n;
    }
    return &rk->coll[inst];
}

void mw_collect_coll(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v)
{
    uint32_t inst = mw_comm_instance(run, rk, v, sc->coll.f_comm);
    struct mw_coll_list *l = inst == PW_MPI_UNKNOWN ? NULL : coll_list(rk, inst);
    if (!l)
        return;
    if (!pw_grow((void **)&l->e, l->n, &l->cap, sizeof *l->e)) {
        rk->failed = 1;
        return;
    }
    int64_t root = sc->coll.f_root >= 0 ? tl_field_int(v, sc->coll.f_root, -1) : -1;
    l->e[l->n++] = (mw_coll_entry){rec->clock == PW_CLOCK_NS ? (uint64_t)rec->t : 0, root};
}

/* The instance list of world rank `w` on communicator c, or NULL. */
static const struct mw_coll_list *member_list(const mw_run *run, uint32_t w, uint32_t c)
{
    if (w >= run->n_world || run->rank_slot[w] < 0 || w >= run->comms.comms.n_ranks)
        return NULL;
    const mw_rank *rk = &run->ranks[run->rank_slot[w]];
    for (uint32_t i = 0; i < rk->n_coll && i < run->comms.comms.n_inst[w]; i++)
        if (run->comms.comms.inst_comm[w][i] == c && rk->coll[i].n)
            return &rk->coll[i];
    return NULL;
}

/* Communicator c's instances folded over its members. */
static int fold_comm(mw_run *run, uint32_t c)
{
    const pw_mpi_comm *cm = &run->comms.comms.comms[c];
    uint64_t n = UINT64_MAX;
    for (uint32_t m = 0; m < cm->size; m++) {
        const struct mw_coll_list *l = member_list(run, cm->members[m], c);
        n = !l ? 0 : l->n < n ? l->n : n;
    }
    if (!n || n == UINT64_MAX)
        return 1;
    mw_coll_instance *in = calloc(n, sizeof *in);
    if (!in)
        return 0;
    for (uint32_t m = 0; m < cm->size; m++) {
        const struct mw_coll_list *l = member_list(run, cm->members[m], c);
        for (uint64_t s = 0; s < n; s++) {
            uint64_t t = l->e[s].enter;
            int64_t root = l->e[s].root;
            if (t > in[s].last_enter || m == 0) {
                in[s].last_enter = t;
                in[s].last_rank = cm->members[m];
            }
            if (root == (int64_t)m) {
                in[s].root_enter = t;
            } else if (t > in[s].last_nonroot_enter || !in[s].last_nonroot_enter) {
                in[s].last_nonroot_enter = t;
                in[s].last_nonroot_rank = cm->members[m];
            }
        }
    }
    run->inst[c] = in;
    run->n_inst[c] = n;
    return 1;
}

int mw_link_coll(mw_run *run)
{
    size_t n = run->comms.comms.n_comms;
    run->inst = calloc(n ? n : 1, sizeof *run->inst);
    run->n_inst = calloc(n ? n : 1, sizeof *run->n_inst);
    if (!run->inst || !run->n_inst)
        return 0;
    for (uint32_t c = 0; c < n; c++)
        if (run->comms.comms.comms[c].size > 1 && !fold_comm(run, c))
            return 0;
    return 1;
}

void mw_waits_coll(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v)
{
    uint32_t inst = mw_comm_instance(run, rk, v, sc->coll.f_comm);
    if (inst == PW_MPI_UNKNOWN || inst >= rk->n_coll)
        return;
    uint64_t seq = rk->coll_seq[inst]++;
    uint32_t c = pw_mpi_comm_of(&run->comms.comms, (size_t)rk->rank, inst);
    if (c == PW_MPI_UNKNOWN || !run->inst || seq >= run->n_inst[c] || !rec->has_end || rec->clock != PW_CLOCK_NS)
        return;
    const mw_coll_instance *in = &run->inst[c][seq];
    uint64_t enter = (uint64_t)rec->t, exit = (uint64_t)rec->t_end, other;
    int64_t cause;
    int64_t root = sc->coll.f_root >= 0 ? tl_field_int(v, sc->coll.f_root, -1) : -1;
    const pw_mpi_comm *cm = &run->comms.comms.comms[c];
    int is_root = root >= 0 && root < cm->size && cm->members[root] == (uint32_t)rk->rank;
    switch (sc->coll_wait) {
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
        mw_charge(rk, rec, (mw_wait)sc->coll_wait, (other < exit ? other : exit) - enter, cause);
}
