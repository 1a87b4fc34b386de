/* dumpi_profile.c — the per-rank pass of `stats`: call counts and times
 * per function, the rank's MPI span, sends and collectives under their
 * communicator instance, message sizes.  Records are walked, not decoded
 * into values: only the few arguments the profile needs are read. */
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/error.h"
#include "formats/dumpi/dumpi_profile.h"

#define DUMPI_COMM_NULL 1
#define DUMPI_COMM_WORLD 2
#define DUMPI_COMM_SELF 3
#define DUMPI_PROC_NULL (-2)      /* Open MPI's value; not translated by the tracer */
#define DUMPI_UNDEFINED (-32766)

/* A field index as the index of its argument (-1 stays). */
static int8_t arg_of(int16_t field) { return (int8_t)(field >= 0 ? field - DUMPI_PREFIX_FIELDS : -1); }

void dumpi_uses_init(dumpi_fn_use uses[DUMPI_N_LABELS])
{
    for (int l = 0; l < DUMPI_N_LABELS; l++) {
        const dumpi_function *fn = &dumpi_functions[l];
        pw_mpi_fn_use f;
        pw_mpi_fn_use_of(fn->name, fn->mpi_fields, fn->fields, &f);
        uses[l] = (dumpi_fn_use){f.use,           arg_of(f.count),   arg_of(f.counts), arg_of(f.datatype),
                                 arg_of(f.dest),  arg_of(f.comm),    arg_of(f.newcomm), arg_of(f.color),
                                 arg_of(f.key)};
    }
}

static uint64_t type_size(const dumpi_rank *r, pw_mpi_rank_profile *p, int64_t type)
{
    if (type >= 0 && type < r->n_sizes)
        return r->sizes[type];
    p->unknown_type++;
    return 0;
}

/* Elements in the send buffer: the count, or the sum of an int array. */
static uint64_t send_elements(const dumpi_stream *s, const dumpi_fn_use *u)
{
    if (u->count >= 0) {
        int64_t n = dumpi_arg_int(&s->rec, s->p, u->count);
        return n > 0 ? (uint64_t)n : 0;
    }
    const dumpi_function *fn = &dumpi_functions[s->rec.label];
    if (u->counts < 0 || dumpi_arg_off(&s->rec, fn, u->counts) == UINT32_MAX)
        return 0;
    const uint8_t *a = s->p + dumpi_arg_off(&s->rec, fn, u->counts);
    uint32_t n = pw_be32(a);
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        int32_t v = (int32_t)pw_be32(a + 4 + 4 * (size_t)i);
        sum += v > 0 ? (uint64_t)v : 0;
    }
    return sum;
}

static void on_send(const dumpi_rank *r, pw_mpi_rank_profile *p, const dumpi_stream *s, const dumpi_fn_use *u)
{
    int64_t dest = dumpi_arg_int(&s->rec, s->p, u->dest);
    if (dest == DUMPI_PROC_NULL) {
        p->proc_null++;
        return;
    }
    uint64_t bytes = send_elements(s, u) * type_size(r, p, dumpi_arg_int(&s->rec, s->p, u->datatype));
    uint32_t inst = pw_mpi_tracker_lookup(&p->tracker, dumpi_arg_int(&s->rec, s->p, u->comm));
    pw_pair_counts_add(&p->sends, pw_pair_key(inst, (uint32_t)dest), 1, bytes);
    int b = pw_mpi_size_bucket(bytes);
    p->size_msgs[b]++;
    p->size_bytes[b] += bytes;
}

/* A collective: counted with its bytes under its communicator instance. */
static void on_collective(const dumpi_rank *r, pw_mpi_rank_profile *p, const dumpi_stream *s,
                          const dumpi_fn_use *u, uint64_t ns)
{
    uint64_t bytes = 0;
    if (u->datatype >= 0 && dumpi_arg_off(&s->rec, &dumpi_functions[s->rec.label], u->datatype) != UINT32_MAX)
        bytes = send_elements(s, u) * type_size(r, p, dumpi_arg_int(&s->rec, s->p, u->datatype));
    uint32_t inst = pw_mpi_tracker_lookup(&p->tracker, dumpi_arg_int(&s->rec, s->p, u->comm));
    uint64_t key = pw_pair_key(s->rec.label, inst);
    pw_pair_counts_add(&p->coll_calls, key, 1, bytes);
    pw_pair_counts_add(&p->coll_time, key, ns, 0);
}

/* The communicators a call creates or frees. */
static void track(pw_mpi_rank_profile *p, const dumpi_stream *s, const dumpi_fn_use *u)
{
    const dumpi_rec *rec = &s->rec;
    const uint8_t *q = s->p;
    switch (u->use) {
    case PW_MPI_USE_DUP:
        pw_mpi_tracker_dup(&p->tracker, dumpi_arg_int(rec, q, u->comm), dumpi_arg_int(rec, q, u->newcomm));
        break;
    case PW_MPI_USE_SPLIT:
        pw_mpi_tracker_split(&p->tracker, dumpi_arg_int(rec, q, u->comm), dumpi_arg_int(rec, q, u->color),
                             dumpi_arg_int(rec, q, u->key), dumpi_arg_int(rec, q, u->newcomm));
        break;
    case PW_MPI_USE_FREE: pw_mpi_tracker_release(&p->tracker, dumpi_arg_int(rec, q, u->comm)); break;
    default: break;
    }
}

void dumpi_profile_call(const dumpi_rank *r, pw_mpi_rank_profile *p, const dumpi_stream *s,
                        const dumpi_fn_use *uses)
{
    const dumpi_rec *rec = &s->rec;
    int which = rec->mask & DUMPI_MASK_WALL ? 1 : rec->mask & DUMPI_MASK_CPU ? 0 : -1;
    uint64_t ns = 0; /* the call's duration on the clock it has */
    if (which > p->clock)
        p->clock = which;
    if (which >= 0) { /* the times dumpi_stream_record gives the record */
        int64_t t = (int64_t)(s->sec[which][0] * 1000000000u + s->nsec[which][0]);
        int64_t end = (int64_t)(s->sec[which][1] * 1000000000u + s->nsec[which][1]);
        end = end > t ? end : t;
        ns = (uint64_t)(end - t);
        p->t_min = t < p->t_min ? t : p->t_min;
        p->t_max = end > p->t_max ? end : p->t_max;
    }
    uint16_t l = rec->label;
    pw_mpi_fn_time *f = &p->fns[l];
    if (!f->calls++ || ns < f->min_ns)
        f->min_ns = ns;
    if (ns > f->max_ns)
        f->max_ns = ns;
    f->time_ns += ns;
    if (l < DUMPI_ALL_FUNCTIONS)
        p->mpi_ns += ns;
    const dumpi_fn_use *u = &uses[l];
    switch (u->use) {
    case PW_MPI_USE_INIT:
        p->has_init = which >= 0;
        p->init_ns = which >= 0 ? s->sec[which][0] * 1000000000u + s->nsec[which][0] : 0;
        break;
    case PW_MPI_USE_FINALIZE:
        p->has_finalize = which >= 0;
        p->finalize_ns = which >= 0 ? s->sec[which][1] * 1000000000u + s->nsec[which][1] : 0;
        break;
    case PW_MPI_USE_SEND: on_send(r, p, s, u); break;
    case PW_MPI_USE_COLLECTIVE: on_collective(r, p, s, u, ns); break;
    default: track(p, s, u); break; /* a communicator's dup, split or free; nothing for most calls */
    }
}

int dumpi_profile_init(pw_mpi_rank_profile *p, int rank)
{
    return pw_mpi_rank_profile_init(p, rank, DUMPI_N_LABELS, DUMPI_COMM_WORLD, DUMPI_COMM_SELF, DUMPI_COMM_NULL,
                                    DUMPI_UNDEFINED);
}

static const char *function_name(uint32_t fn) { return dumpi_functions[fn].name; }

void dumpi_profiles_publish(pw_dataset *ds, dumpi_dataset *dd)
{
    dd->published = (pw_mpi_profiles){.ranks = dd->profiles,
                                      .n_ranks = dd->n_ranks,
                                      .n_functions = DUMPI_N_LABELS,
                                      .n_mpi_functions = DUMPI_ALL_FUNCTIONS,
                                      .function_name = function_name};
    ds->mpi_profiles = &dd->published;
}
