/* mpi_profile.c — the rank profiles of mpi_profile.h. */
#include "model/mpi_profile.h"

#include <stdlib.h>
#include <string.h>

int pw_mpi_rank_profile_init(pw_mpi_rank_profile *p, int rank, size_t n_functions, int64_t world,
                             int64_t self, int64_t null, int64_t undefined_color)
{
    memset(p, 0, sizeof *p);
    p->rank = rank;
    p->clock = -1;
    p->t_min = INT64_MAX;
    p->t_max = INT64_MIN;
    pw_mpi_tracker_init(&p->tracker, world, self, null, undefined_color);
    p->fns = calloc(n_functions ? n_functions : 1, sizeof *p->fns);
    return p->fns != NULL;
}

void pw_mpi_rank_profile_free(pw_mpi_rank_profile *p)
{
    free(p->fns);
    p->fns = NULL;
    pw_mpi_tracker_free(&p->tracker);
    pw_pair_counts_free(&p->sends);
    pw_pair_counts_free(&p->coll_calls);
    pw_pair_counts_free(&p->coll_time);
}

void pw_mpi_rank_profile_put_span(pw_part_writer *w, const pw_mpi_rank_profile *p)
{
    uint64_t bounds[2] = {(uint64_t)p->t_min, (uint64_t)p->t_max};
    pw_part_put(w, bounds, sizeof bounds);
    pw_mpi_tracker_put(w, &p->tracker);
}

int pw_mpi_rank_profile_take_span(pw_part_reader *r, pw_mpi_rank_profile *p)
{
    p->t_min = (int64_t)pw_part_next(r);
    p->t_max = (int64_t)pw_part_next(r);
    return !r->bad && pw_mpi_tracker_take(r, &p->tracker);
}

int pw_mpi_size_bucket(uint64_t bytes)
{
    if (!bytes)
        return 0;
    int b = 1 + 63 - __builtin_clzll(bytes);
    return b < PW_MPI_SIZE_BUCKETS ? b : PW_MPI_SIZE_BUCKETS - 1;
}
