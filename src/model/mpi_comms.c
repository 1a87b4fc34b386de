/* mpi_comms.c — per-rank communicator trackers and the replay that turns
 * the creations of all ranks into world-rank member lists (mpi_comms.h). */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "model/mpi_comms.h"
#include "model/part.h"

void pw_mpi_tracker_init(pw_mpi_tracker *t, int64_t world, int64_t self, int64_t null,
                         int64_t undefined_color)
{
    memset(t, 0, sizeof *t);
    t->world = world;
    t->self = self;
    t->null = null;
    t->undefined_color = undefined_color;
    t->n_inst = 2; /* world, self */
    t->last_handle = world;
    t->last_inst = PW_MPI_INST_WORLD;
}

void pw_mpi_tracker_free(pw_mpi_tracker *t)
{
    free(t->live);
    free(t->created);
    memset(t, 0, sizeof *t);
}

uint32_t pw_mpi_tracker_lookup(pw_mpi_tracker *t, int64_t handle)
{
    if (handle == t->last_handle)
        return t->last_inst;
    uint32_t inst = handle == t->world ? PW_MPI_INST_WORLD : handle == t->self ? PW_MPI_INST_SELF : PW_MPI_UNKNOWN;
    for (size_t i = 0; inst == PW_MPI_UNKNOWN && i < t->n_live; i++)
        if (t->live[i].handle == handle)
            inst = t->live[i].inst;
    t->last_handle = handle;
    t->last_inst = inst;
    return inst;
}

/* Points `handle` at `inst` (a new communicator reusing a freed value). */
static void bind_handle(pw_mpi_tracker *t, int64_t handle, uint32_t inst)
{
    t->last_handle = t->world; /* the cache may name the old binding */
    t->last_inst = PW_MPI_INST_WORLD;
    for (size_t i = 0; i < t->n_live; i++)
        if (t->live[i].handle == handle) {
            t->live[i].inst = inst;
            return;
        }
    if (!pw_grow((void **)&t->live, t->n_live, &t->cap_live, sizeof *t->live)) {
        t->failed = 1;
        return;
    }
    t->live[t->n_live++] = (pw_mpi_handle){handle, inst};
}

static void record_creation(pw_mpi_tracker *t, int64_t old_handle, int64_t new_handle, int split,
                            int64_t color, int64_t key)
{
    if (!pw_grow((void **)&t->created, t->n_created, &t->cap_created, sizeof *t->created)) {
        t->failed = 1;
        return;
    }
    pw_mpi_creation *c = &t->created[t->n_created++];
    c->old_inst = pw_mpi_tracker_lookup(t, old_handle);
    /* A split with MPI_UNDEFINED color yields MPI_COMM_NULL: no instance. */
    c->new_inst = new_handle == t->null || (split && color == t->undefined_color) ? PW_MPI_UNKNOWN : t->n_inst++;
    c->split = split;
    c->color = color;
    c->key = key;
    if (c->new_inst != PW_MPI_UNKNOWN)
        bind_handle(t, new_handle, c->new_inst);
}

void pw_mpi_tracker_dup(pw_mpi_tracker *t, int64_t old_handle, int64_t new_handle)
{
    record_creation(t, old_handle, new_handle, 0, 0, 0);
}

void pw_mpi_tracker_split(pw_mpi_tracker *t, int64_t old_handle, int64_t color, int64_t key,
                          int64_t new_handle)
{
    record_creation(t, old_handle, new_handle, 1, color, key);
}

void pw_mpi_tracker_define(pw_mpi_tracker *t, const pw_mpi_defined_comms *d, int64_t rank)
{
    for (size_t c = 0; c < d->n; c++) {
        const pw_mpi_comm *g = &d->groups[c];
        uint32_t at = 0;
        while (at < g->size && (int64_t)g->members[at] != rank)
            at++;
        if (at < g->size)
            pw_mpi_tracker_split(t, d->world, (int64_t)c, at, d->handles[c]);
        else
            pw_mpi_tracker_split(t, d->world, t->undefined_color, 0, d->null);
    }
}

void pw_mpi_tracker_release(pw_mpi_tracker *t, int64_t handle)
{
    for (size_t i = 0; i < t->n_live; i++)
        if (t->live[i].handle == handle) {
            t->live[i] = t->live[--t->n_live];
            break;
        }
    if (t->last_handle == handle) {
        t->last_handle = t->world;
        t->last_inst = PW_MPI_INST_WORLD;
    }
}

/* ---- in parts ---------------------------------------------------------- */

void pw_mpi_tracker_put(pw_part_writer *w, const pw_mpi_tracker *t)
{
    uint64_t head[2] = {t->n_inst, t->n_created};
    pw_part_put(w, head, sizeof head);
    for (size_t k = 0; k < t->n_created; k++) {
        const pw_mpi_creation *c = &t->created[k];
        uint64_t v[5] = {c->old_inst, c->new_inst, (uint64_t)c->split, (uint64_t)c->color, (uint64_t)c->key};
        pw_part_put(w, v, sizeof v);
    }
}

/* An instance word as a tracker of n_inst instances can have made it. */
static int inst_fits(uint64_t inst, uint64_t n_inst)
{
    return inst < n_inst || inst == PW_MPI_UNKNOWN;
}

int pw_mpi_tracker_take(pw_part_reader *r, pw_mpi_tracker *t)
{
    uint64_t n_inst = pw_part_next(r), n = pw_part_next(r);
    if (r->bad || n_inst < 2 || n_inst >= PW_MPI_UNKNOWN || n > (r->n - r->pos) / 5) {
        r->bad = 1;
        return 0;
    }
    pw_mpi_creation *c = malloc((n ? n : 1) * sizeof *c);
    if (!c)
        return 0;
    free(t->created);
    t->created = c;
    t->n_created = t->cap_created = (size_t)n;
    t->n_inst = (uint32_t)n_inst;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t v[5];
        pw_part_take(r, v, sizeof v);
        if (!inst_fits(v[0], n_inst) || !inst_fits(v[1], n_inst) || v[2] > 1) {
            r->bad = 1;
            t->n_created = 0;
            return 0;
        }
        c[k] = (pw_mpi_creation){(uint32_t)v[0], (uint32_t)v[1], (int)v[2], (int64_t)v[3], (int64_t)v[4]};
    }
    return 1;
}

/* ---- replay ---------------------------------------------------------- */

typedef struct replay {
    pw_mpi_comms *out;
    pw_mpi_tracker *const *trackers;
    size_t *pos;          /* next creation of each rank */
    size_t cap_comms;
} replay;

static uint32_t add_comm(replay *rp, uint32_t *members, uint32_t size)
{
    pw_mpi_comms *c = rp->out;
    if (!pw_grow((void **)&c->comms, c->n_comms, &rp->cap_comms, sizeof *c->comms)) {
        free(members);
        return PW_MPI_UNKNOWN;
    }
    c->comms[c->n_comms] = (pw_mpi_comm){members, size};
    return (uint32_t)c->n_comms++;
}

/* The creation rank r makes next, when it is a call on communicator g. */
static const pw_mpi_creation *next_on(const replay *rp, uint32_t r, uint32_t g)
{
    const pw_mpi_tracker *t = rp->trackers[r];
    if (rp->pos[r] >= t->n_created)
        return NULL;
    const pw_mpi_creation *e = &t->created[rp->pos[r]];
    return pw_mpi_comm_of(rp->out, r, e->old_inst) == g ? e : NULL;
}

typedef struct split_member {
    int64_t color, key;
    uint32_t old_rank, world;
} split_member;

static int split_order(const void *a, const void *b)
{
    const split_member *x = a, *y = b;
    if (x->color != y->color)
        return x->color < y->color ? -1 : 1;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->old_rank < y->old_rank ? -1 : x->old_rank > y->old_rank;
}

/* One collective creation on g, made by all its members: new communicators
 * (one per color for a split) bound to each member's new instance. */
static int create_from(replay *rp, uint32_t g, int split)
{
    const pw_mpi_comm *old = &rp->out->comms[g];
    uint32_t size = old->size;
    split_member *m = malloc((size ? size : 1) * sizeof *m);
    if (!m)
        return -1;
    for (uint32_t i = 0; i < size; i++) {
        const pw_mpi_creation *e = next_on(rp, old->members[i], g);
        m[i] = (split_member){split ? e->color : 0, split ? e->key : 0, i, old->members[i]};
    }
    qsort(m, size, sizeof *m, split_order);
    for (uint32_t i = 0; i < size;) {
        uint32_t j = i;
        while (j < size && m[j].color == m[i].color)
            j++;
        uint32_t *members = malloc((j - i) * sizeof *members);
        if (!members) {
            free(m);
            return -1;
        }
        for (uint32_t k = i; k < j; k++)
            members[k - i] = m[k].world;
        uint32_t id = add_comm(rp, members, j - i);
        if (id == PW_MPI_UNKNOWN) {
            free(m);
            return -1;
        }
        for (uint32_t k = i; k < j; k++) {
            const pw_mpi_creation *e = next_on(rp, m[k].world, g);
            if (e->new_inst != PW_MPI_UNKNOWN)
                rp->out->inst_comm[m[k].world][e->new_inst] = id;
        }
        i = j;
    }
    free(m);
    old = &rp->out->comms[g]; /* comms may have moved */
    for (uint32_t i = 0; i < size; i++)
        rp->pos[old->members[i]]++;
    return 0;
}

/* Tries the next creation of rank r: it goes ahead when every member of
 * its communicator is at a creation of the same kind on it. */
static int try_advance(replay *rp, uint32_t r, int *progress)
{
    const pw_mpi_tracker *t = rp->trackers[r];
    if (rp->pos[r] >= t->n_created)
        return 0;
    const pw_mpi_creation *e = &t->created[rp->pos[r]];
    uint32_t g = pw_mpi_comm_of(rp->out, r, e->old_inst);
    if (g == PW_MPI_UNKNOWN) {
        if (e->old_inst == PW_MPI_UNKNOWN) { /* made on a communicator we never saw created */
            rp->out->unresolved++;
            rp->pos[r]++;
            *progress = 1;
        }
        return 0;
    }
    const pw_mpi_comm *c = &rp->out->comms[g];
    if (c->members[0] != r)
        return 0; /* the first member drives */
    for (uint32_t i = 0; i < c->size; i++) {
        const pw_mpi_creation *o = next_on(rp, c->members[i], g);
        if (!o || o->split != e->split)
            return 0;
    }
    *progress = 1;
    return create_from(rp, g, e->split);
}

/* Whether t's instances are the ones a tracker makes (world and self, and
 * every creation on or into one of its n_inst): trackers read back from
 * another process's part are checked before the replay indexes by them. */
static int tracker_consistent(const pw_mpi_tracker *t)
{
    if (t->n_inst < 2)
        return 0;
    for (size_t k = 0; k < t->n_created; k++) {
        const pw_mpi_creation *c = &t->created[k];
        if ((c->old_inst >= t->n_inst && c->old_inst != PW_MPI_UNKNOWN) ||
            (c->new_inst >= t->n_inst && c->new_inst != PW_MPI_UNKNOWN))
            return 0;
    }
    return 1;
}

static int init_comms(replay *rp, size_t n)
{
    pw_mpi_comms *c = rp->out;
    uint32_t *world = malloc((n ? n : 1) * sizeof *world);
    if (!world)
        return -1;
    for (size_t r = 0; r < n; r++)
        world[r] = (uint32_t)r;
    if (add_comm(rp, world, (uint32_t)n) == PW_MPI_UNKNOWN)
        return -1;
    for (size_t r = 0; r < n; r++) {
        uint32_t *self = malloc(sizeof *self);
        if (!self)
            return -1;
        *self = (uint32_t)r;
        uint32_t id = add_comm(rp, self, 1);
        const pw_mpi_tracker *t = rp->trackers[r];
        c->inst_comm[r] = malloc(t->n_inst * sizeof **c->inst_comm);
        c->n_inst[r] = t->n_inst;
        if (id == PW_MPI_UNKNOWN || !c->inst_comm[r])
            return -1;
        for (uint32_t i = 0; i < t->n_inst; i++)
            c->inst_comm[r][i] = PW_MPI_UNKNOWN;
        c->inst_comm[r][PW_MPI_INST_WORLD] = 0;
        c->inst_comm[r][PW_MPI_INST_SELF] = id;
    }
    return 0;
}

int pw_mpi_comms_resolve(pw_mpi_comms *out, pw_mpi_tracker *const *trackers, size_t n_ranks)
{
    memset(out, 0, sizeof *out);
    for (size_t r = 0; r < n_ranks; r++)
        if (!tracker_consistent(trackers[r]))
            return -2;
    replay rp = {out, trackers, calloc(n_ranks ? n_ranks : 1, sizeof(size_t)), 0};
    out->inst_comm = calloc(n_ranks ? n_ranks : 1, sizeof *out->inst_comm);
    out->n_inst = calloc(n_ranks ? n_ranks : 1, sizeof *out->n_inst);
    out->n_ranks = n_ranks;
    int rc = rp.pos && out->inst_comm && out->n_inst ? init_comms(&rp, n_ranks) : -1;
    for (int progress = 1; rc == 0 && progress;) {
        progress = 0;
        for (uint32_t r = 0; r < n_ranks && rc == 0; r++)
            rc = try_advance(&rp, r, &progress);
    }
    for (size_t r = 0; rc == 0 && r < n_ranks; r++)
        out->unresolved += trackers[r]->n_created - rp.pos[r];
    free(rp.pos);
    return rc;
}

void pw_mpi_comms_free(pw_mpi_comms *c)
{
    for (size_t i = 0; i < c->n_comms; i++)
        free(c->comms[i].members);
    free(c->comms);
    for (size_t r = 0; c->inst_comm && r < c->n_ranks; r++)
        free(c->inst_comm[r]);
    free(c->inst_comm);
    free(c->n_inst);
    memset(c, 0, sizeof *c);
}

uint32_t pw_mpi_comm_of(const pw_mpi_comms *c, size_t rank, uint32_t inst)
{
    if (rank >= c->n_ranks || !c->inst_comm[rank] || inst >= c->n_inst[rank])
        return PW_MPI_UNKNOWN;
    return c->inst_comm[rank][inst];
}

int64_t pw_mpi_world_rank(const pw_mpi_comms *c, size_t rank, uint32_t inst, int64_t comm_rank)
{
    uint32_t g = pw_mpi_comm_of(c, rank, inst);
    if (g == PW_MPI_UNKNOWN || comm_rank < 0 || comm_rank >= c->comms[g].size)
        return -1;
    return c->comms[g].members[comm_rank];
}
