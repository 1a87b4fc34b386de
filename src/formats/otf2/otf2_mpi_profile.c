/* otf2_mpi_profile.c — the mpiP-style profile of the MPI calls, per world
 * rank, as DUMPI hands it (model/mpi_profile.h): an MPI call is the time
 * between the Enter and the Leave of a region of the MPI paradigm (or
 * named MPI_*, when a producer gives no paradigm) on the
 * rank's location; the messages are its MpiSend/MpiIsend events, with the
 * receiver's rank in the event's communicator; collectives take their
 * bytes from MpiCollectiveEnd.  The mpi_profile analysis profiles the
 * records; the format names the functions, each rank's locations (every
 * CPU thread of its location group: MPI_THREAD_MULTIPLE) and the
 * communicator handles MPI_COMM_WORLD and MPI_COMM_SELF. */
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

/* Each rank's empty profile (its number and the handles: an OTF2 call
 * has wall-clock times), and the rank of every CPU thread of its
 * location group. */
static pw_status ranks_of_locations(pw_dataset *ds, ot_dataset *od, pw_error *err)
{
    uint32_t n_groups = od->lgroups.n + 1;
    int32_t *rank_of_group = malloc(n_groups * sizeof *rank_of_group);
    od->rank_of_location = malloc((ds->n_locs ? ds->n_locs : 1) * sizeof *od->rank_of_location);
    if (!rank_of_group || !od->rank_of_location) {
        free(rank_of_group);
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    for (uint32_t k = 0; k < n_groups; k++)
        rank_of_group[k] = -1;
    for (size_t l = 0; l < ds->n_locs; l++)
        od->rank_of_location[l] = -1;
    int ok = 1;
    for (size_t r = 0; r < od->profiles.n_ranks; r++) {
        pw_mpi_rank_profile *p = &od->profiles.ranks[r];
        ok &= pw_mpi_rank_profile_init(p, (int)r, od->profiles.n_functions, od->world_comm, od->self_comm, -1, -1);
        p->clock = 1;
        uint32_t group = od->rank_loc[r] != UINT32_MAX ? od->locs[od->rank_loc[r]].group : UINT32_MAX;
        if (group < n_groups && rank_of_group[group] < 0)
            rank_of_group[group] = (int32_t)r;
    }
    for (uint32_t i = 0; i < od->n_locs; i++)
        if (od->locs[i].type == OTF2_LOCATION_TYPE_CPU_THREAD && od->locs[i].group < n_groups)
            od->rank_of_location[od->locs[i].loc] = rank_of_group[od->locs[i].group];
    free(rank_of_group);
    od->profiles.rank_of_location = od->rank_of_location;
    return ok ? PW_OK : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
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
    od->profiles.n_functions = od->profiles.n_mpi_functions = fn_count;
    od->profiles.function_name = function_name;
    od->profiles.complete = 0;
    ds->mpi_profiles = &od->profiles;
    return ranks_of_locations(ds, od, err);
}

void ot_mpi_profiles_free(ot_dataset *od)
{
    for (size_t r = 0; od->profiles.ranks && r < od->profiles.n_ranks; r++)
        pw_mpi_rank_profile_free(&od->profiles.ranks[r]);
    free(od->profiles.ranks);
    free(od->rank_loc);
    free(od->rank_of_location);
    free(od->fn_of_region);
}
