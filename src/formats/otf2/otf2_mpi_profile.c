/* otf2_mpi_profile.c — the mpiP-style profile of the MPI calls, per world
 * rank, as DUMPI hands it (model/mpi_profile.h): an MPI call is the time
 * between the Enter and the Leave of a region of the MPI paradigm (or
 * named MPI_*, when a producer gives no paradigm) on the
 * rank's location; the messages are its MpiSend/MpiIsend events, with the
 * receiver's rank in the event's communicator; collectives take their
 * bytes from MpiCollectiveEnd.  Made on demand (refilter), from the
 * records a filter keeps. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "formats/otf2/otf2.h"

/* Function indexes are shared by every OTF2 dataset of the process, as
 * pw_mpi_profiles.function_name takes no dataset: MPI names interned once
 * (a fixed table, so that a reader never sees it move). */
#define OT_MAX_FUNCTIONS 2048
static const char *fn_names[OT_MAX_FUNCTIONS];
static _Atomic uint32_t fn_count;
static pthread_mutex_t fn_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *function_name(uint32_t fn) { return fn < fn_count ? fn_names[fn] : "(unknown)"; }

/* The index of MPI function `name`, interned; -1 when the table is full. */
static int32_t function_index(const char *name)
{
    pthread_mutex_lock(&fn_lock);
    uint32_t n = fn_count, i = 0;
    while (i < n && strcmp(fn_names[i], name))
        i++;
    if (i == n && n < OT_MAX_FUNCTIONS && (fn_names[n] = strdup(name)) != NULL)
        fn_count = n + 1;
    pthread_mutex_unlock(&fn_lock);
    return i < fn_count ? (int32_t)i : -1;
}

static int is_named(const char *s, const char *const *names)
{
    for (; *names; names++)
        if (!strcmp(s, *names))
            return 1;
    return 0;
}

static const char *const collective_names[] = {
    "MPI_Barrier", "MPI_Bcast", "MPI_Gather", "MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv",
    "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv", "MPI_Alltoallw", "MPI_Reduce",
    "MPI_Allreduce", "MPI_Reduce_scatter", "MPI_Scan", "MPI_Exscan", NULL};

typedef struct open_call {
    int32_t fn;
    int64_t enter;
    uint64_t coll_bytes;
    int64_t coll_comm; /* MpiCollectiveEnd's communicator, -1: none */
} open_call;

typedef struct rank_walk {
    const ot_dataset *od;
    pw_mpi_rank_profile *p;
    open_call *stack;
    size_t depth, cap;
    uint8_t *is_collective; /* per function index */
} rank_walk;

static void on_leave(rank_walk *w, int64_t t)
{
    open_call *o = &w->stack[--w->depth];
    pw_mpi_rank_profile *p = w->p;
    uint64_t ns = t > o->enter ? (uint64_t)(t - o->enter) : 0;
    pw_mpi_fn_time *f = &p->fns[o->fn];
    if (!f->calls++ || ns < f->min_ns)
        f->min_ns = ns;
    if (ns > f->max_ns)
        f->max_ns = ns;
    f->time_ns += ns;
    p->mpi_ns += ns;
    p->t_min = o->enter < p->t_min ? o->enter : p->t_min;
    p->t_max = t > p->t_max ? t : p->t_max;
    const char *name = function_name((uint32_t)o->fn);
    if (!strcmp(name, "MPI_Init") || !strcmp(name, "MPI_Init_thread")) {
        p->has_init = 1;
        p->init_ns = (uint64_t)o->enter;
    } else if (!strcmp(name, "MPI_Finalize")) {
        p->has_finalize = 1;
        p->finalize_ns = (uint64_t)t;
    } else if (w->is_collective[o->fn]) {
        uint32_t inst = o->coll_comm < 0 ? PW_MPI_INST_WORLD : pw_mpi_tracker_lookup(&p->tracker, o->coll_comm);
        uint64_t key = pw_pair_key((uint32_t)o->fn, inst);
        pw_pair_counts_add(&p->coll_calls, key, 1, o->coll_bytes);
        pw_pair_counts_add(&p->coll_time, key, ns, 0);
    }
}

static void on_send(rank_walk *w, const ot_event *e)
{
    pw_mpi_rank_profile *p = w->p;
    uint32_t inst = pw_mpi_tracker_lookup(&p->tracker, (int64_t)e->a[1]);
    pw_pair_counts_add(&p->sends, pw_pair_key(inst, (uint32_t)e->a[0]), 1, e->a[3]);
    int b = pw_mpi_size_bucket(e->a[3]);
    p->size_msgs[b]++;
    p->size_bytes[b] += e->a[3];
}

static int on_event(rank_walk *w, const ot_event *e, int64_t t)
{
    switch (e->type) {
    case OT_EV_Enter: {
        int32_t fn = e->a[0] < w->od->regions.n ? w->od->fn_of_region[e->a[0]] : -1;
        if (fn < 0)
            return 1;
        if (w->depth == w->cap) {
            size_t cap = w->cap ? w->cap * 2 : 16;
            open_call *s = realloc(w->stack, cap * sizeof *s);
            if (!s)
                return 0;
            w->stack = s;
            w->cap = cap;
        }
        w->stack[w->depth++] = (open_call){fn, t, 0, -1};
        return 1;
    }
    case OT_EV_Leave:
        if (w->depth && e->a[0] < w->od->regions.n && w->od->fn_of_region[e->a[0]] == w->stack[w->depth - 1].fn)
            on_leave(w, t);
        return 1;
    case OT_EV_MpiSend: case OT_EV_MpiIsend: on_send(w, e); return 1;
    case OT_EV_MpiCollectiveEnd:
        if (w->depth) {
            w->stack[w->depth - 1].coll_bytes += e->a[3];
            w->stack[w->depth - 1].coll_comm = (int64_t)e->a[1];
        }
        return 1;
    default: return 1;
    }
}

/* One location's calls into the rank's profile. */
static pw_status profile_location(pw_dataset *ds, const ot_location *l, rank_walk *w, pw_error *err)
{
    w->depth = 0;
    pw_cursor *c;
    pw_status st = pw_cursor_open(ds, (uint32_t)l->loc, &c, err);
    if (st != PW_OK)
        return st == PW_E_DATA ? PW_OK : st; /* a finding already */
    const pw_record *rec;
    while ((st = pw_cursor_next(c, &rec, err)) == PW_OK)
        if (!on_event(w, ot_cursor_event(c), rec->t)) {
            st = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
            break;
        }
    pw_cursor_close(c);
    return st == PW_END || st == PW_E_DATA ? PW_OK : st;
}

/* A rank's calls are those of every CPU thread of its location group
 * (an MPI rank's threads call MPI too: MPI_THREAD_MULTIPLE). */
static pw_status profile_rank(pw_dataset *ds, ot_dataset *od, size_t r, rank_walk *w, pw_error *err)
{
    pw_mpi_rank_profile *p = &od->profiles.ranks[r];
    pw_mpi_rank_profile_free(p);
    if (!pw_mpi_rank_profile_init(p, (int)r, od->profiles.n_functions, od->world_comm, od->self_comm, -1, -1))
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    p->clock = 1;
    if (ds->mpi_defined_comms) /* the archive's communicators: messages on them reach world ranks */
        pw_mpi_tracker_define(&p->tracker, ds->mpi_defined_comms, (int64_t)r);
    w->p = p;
    if (od->rank_loc[r] == UINT32_MAX)
        return PW_OK;
    uint32_t group = od->locs[od->rank_loc[r]].group;
    pw_status st = PW_OK;
    for (uint32_t i = 0; i < od->n_locs && st == PW_OK; i++)
        if (od->locs[i].group == group && od->locs[i].type == OTF2_LOCATION_TYPE_CPU_THREAD)
            st = profile_location(ds, &od->locs[i], w, err);
    return st;
}

static pw_status profiles_build(pw_dataset *ds, pw_error *err)
{
    ot_dataset *od = ds->impl;
    rank_walk w = {.od = od, .is_collective = calloc(od->profiles.n_functions + 1, 1)};
    if (!w.is_collective)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (uint32_t f = 0; f < od->profiles.n_functions; f++)
        w.is_collective[f] = (uint8_t)is_named(function_name(f), collective_names);
    pw_status st = PW_OK;
    for (size_t r = 0; r < od->profiles.n_ranks && st == PW_OK; r++)
        st = profile_rank(ds, od, r, &w, err);
    free(w.stack);
    free(w.is_collective);
    return st;
}

/* The communicators MPI_COMM_WORLD and MPI_COMM_SELF: the MPI ones whose
 * group is every rank, and whose group is COMM_SELF. */
static void predefined_comms(ot_dataset *od, uint32_t n_ranks)
{
    od->world_comm = od->self_comm = -2;
    for (uint32_t c = 0; c < od->comms.n; c++) {
        const ot_comm *cm = ot_table_get(&od->comms, c);
        const ot_group *g = cm && cm->defined ? ot_table_get(&od->groups, cm->group) : NULL;
        if (!g || g->paradigm != OTF2_PARADIGM_MPI)
            continue;
        if (g->type == OTF2_GROUP_TYPE_COMM_SELF && od->self_comm == -2)
            od->self_comm = c;
        else if (g->type == OTF2_GROUP_TYPE_COMM_GROUP && g->n_members == n_ranks && od->world_comm == -2)
            od->world_comm = c;
    }
}

pw_status ot_mpi_profiles_offer(pw_dataset *ds, ot_dataset *od, pw_error *err)
{
    const ot_group *g = ot_table_get(&od->groups, od->mpi_paradigm_group);
    if (!g || !g->n_members)
        return PW_OK;
    od->fn_of_region = calloc(od->regions.n + 1, sizeof *od->fn_of_region);
    od->rank_loc = malloc(g->n_members * sizeof *od->rank_loc);
    od->profiles.ranks = calloc(g->n_members, sizeof *od->profiles.ranks);
    if (!od->fn_of_region || !od->rank_loc || !od->profiles.ranks)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (uint32_t r = 0; r < od->regions.n; r++) {
        const ot_region *reg = ot_table_get(&od->regions, r);
        const char *name = reg ? ot_string(od, reg->name) : NULL;
        int mpi = name && (reg->paradigm == OTF2_PARADIGM_MPI || !strncmp(name, "MPI_", 4));
        od->fn_of_region[r] = mpi ? function_index(name) : -1;
    }
    for (uint32_t r = 0; r < g->n_members; r++)
        od->rank_loc[r] = UINT32_MAX;
    for (uint32_t i = 0; i < od->n_locs; i++)
        if (od->locs[i].world_rank >= 0)
            od->rank_loc[od->locs[i].world_rank] = i;
    predefined_comms(od, g->n_members);
    od->profiles.n_ranks = g->n_members;
    od->profiles.n_functions = fn_count;
    od->profiles.function_name = function_name;
    od->profiles.complete = 0;
    od->profiles.refilter = profiles_build;
    ds->mpi_profiles = &od->profiles;
    return PW_OK;
}

void ot_mpi_profiles_free(ot_dataset *od)
{
    for (size_t r = 0; od->profiles.ranks && r < od->profiles.n_ranks; r++)
        pw_mpi_rank_profile_free(&od->profiles.ranks[r]);
    free(od->profiles.ranks);
    free(od->rank_loc);
    free(od->fn_of_region);
}
