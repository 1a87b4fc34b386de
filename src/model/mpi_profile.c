/* mpi_profile.c — the rank profiles of mpi_profile.h. */
#include "model/mpi_profile.h"

#include <stdlib.h>
#include <string.h>

#include "model/mpi_call.h"

static const char *const send_names[] = {"MPI_Send", "MPI_Bsend", "MPI_Ssend", "MPI_Rsend", "MPI_Isend",
                                         "MPI_Ibsend", "MPI_Issend", "MPI_Irsend", "MPI_Sendrecv",
                                         "MPI_Sendrecv_replace", NULL};

static int named(const char *const *names, const char *s)
{
    for (; *names; names++)
        if (!strcmp(*names, s))
            return 1;
    return 0;
}

/* The field when it is (or is not) a list, else -1. */
static int16_t shaped(const pw_field *fields, int16_t field, int list)
{
    return field >= 0 && (fields[field].type == PW_T_LIST) == list ? field : -1;
}

/* The first of two fields a call has, or -1. */
static int16_t either(int16_t a, int16_t b) { return a >= 0 ? a : b; }

static uint8_t use_of(const char *name, const pw_mpi_call_view *v)
{
    static const uint8_t by_comm_op[] = {[PW_COMM_OP_NONE] = PW_MPI_USE_OTHER, [PW_COMM_DUP] = PW_MPI_USE_DUP,
                                         [PW_COMM_SPLIT] = PW_MPI_USE_SPLIT, [PW_COMM_FREE] = PW_MPI_USE_FREE};
    if (named(send_names, name))
        return PW_MPI_USE_SEND;
    if (v->op != PW_COLL_NONE)
        return PW_MPI_USE_COLLECTIVE;
    if (v->comm_op != PW_COMM_OP_NONE)
        return by_comm_op[v->comm_op];
    if (!strcmp(name, "MPI_Init") || !strcmp(name, "MPI_Init_thread"))
        return PW_MPI_USE_INIT;
    return v->finalize ? PW_MPI_USE_FINALIZE : PW_MPI_USE_OTHER;
}

void pw_mpi_fn_use_of(const char *name, const int16_t *mpi_fields, const pw_field *fields, pw_mpi_fn_use *u)
{
    pw_mpi_call_view v;
    pw_mpi_call_view_of(name, mpi_fields, &v);
    u->use = use_of(name, &v);
    u->count = either(v.f_count, shaped(fields, v.f_sendcount, 0));
    /* Reduce_scatter sends the sum of its recvcounts. */
    u->counts = either(shaped(fields, v.f_sendcount, 1),
                       strcmp(name, "MPI_Reduce_scatter") ? -1 : shaped(fields, v.f_recvcount, 1));
    u->datatype = either(v.f_datatype, v.f_sendtype);
    u->dest = v.f_dest;
    u->comm = v.f_on_comm;
    u->newcomm = v.f_new;
    u->color = v.f_color;
    u->key = v.f_key;
}

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
