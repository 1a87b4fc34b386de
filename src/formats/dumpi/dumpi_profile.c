/* dumpi_profile.c — the per-rank pass of `stats`: call counts and times
 * per function, the rank's MPI span, sends and collectives under their
 * communicator instance, message sizes.  Records are walked, not decoded
 * into values: only the few arguments the profile needs are read. */
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/error.h"
#include "formats/dumpi/dumpi_profile.h"
#include "model/mpi_call.h"

#define DUMPI_COMM_NULL 1
#define DUMPI_COMM_WORLD 2
#define DUMPI_COMM_SELF 3
#define DUMPI_PROC_NULL (-2)      /* Open MPI's value; not translated by the tracer */
#define DUMPI_UNDEFINED (-32766)

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

/* The argument a field of fn is (its index among the arguments), or -1. */
static int8_t arg_of(int16_t field) { return (int8_t)(field >= 0 ? field - DUMPI_PREFIX_FIELDS : -1); }

/* The same, when the argument is (or is not) an array. */
static int8_t arg_shaped(const dumpi_function *fn, int16_t field, int array)
{
    return field >= 0 && (fn->fields[field].type == PW_T_LIST) == array ? arg_of(field) : -1;
}

/* The first of two arguments fn has, or -1. */
static int8_t either(int8_t a, int8_t b) { return a >= 0 ? a : b; }

static uint8_t use_of(const dumpi_function *fn, const pw_mpi_call_view *v)
{
    static const uint8_t by_comm_op[] = {[PW_COMM_OP_NONE] = DUMPI_USE_OTHER, [PW_COMM_DUP] = DUMPI_USE_DUP,
                                         [PW_COMM_SPLIT] = DUMPI_USE_SPLIT, [PW_COMM_FREE] = DUMPI_USE_FREE};
    if (named(send_names, fn->name))
        return DUMPI_USE_SEND;
    if (v->op != PW_COLL_NONE)
        return DUMPI_USE_COLLECTIVE;
    if (v->comm_op != PW_COMM_OP_NONE)
        return by_comm_op[v->comm_op];
    if (!strcmp(fn->name, "MPI_Init") || !strcmp(fn->name, "MPI_Init_thread"))
        return DUMPI_USE_INIT;
    return v->finalize ? DUMPI_USE_FINALIZE : DUMPI_USE_OTHER;
}

void dumpi_uses_init(dumpi_fn_use uses[DUMPI_N_LABELS])
{
    for (int l = 0; l < DUMPI_N_LABELS; l++) {
        const dumpi_function *fn = &dumpi_functions[l];
        dumpi_fn_use *u = &uses[l];
        pw_mpi_call_view v;
        pw_mpi_call_view_of(fn->name, fn->mpi_fields, &v);
        u->use = use_of(fn, &v);
        u->count = either(arg_of(v.f_count), arg_shaped(fn, v.f_sendcount, 0));
        /* Reduce_scatter sends the sum of its recvcounts. */
        u->counts = either(arg_shaped(fn, v.f_sendcount, 1),
                           strcmp(fn->name, "MPI_Reduce_scatter") ? -1 : arg_shaped(fn, v.f_recvcount, 1));
        u->datatype = either(arg_of(v.f_datatype), arg_of(v.f_sendtype));
        u->dest = arg_of(v.f_dest);
        u->comm = arg_of(v.f_on_comm);
        u->newcomm = arg_of(v.f_new);
        u->color = arg_of(v.f_color);
        u->key = arg_of(v.f_key);
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

/* A collective: counted with its bytes where it enters (counted), its
 * time (clipped to a window) wherever it lies. */
static void on_collective(const dumpi_rank *r, pw_mpi_rank_profile *p, const dumpi_stream *s,
                          const dumpi_fn_use *u, uint64_t ns, int counted)
{
    uint64_t bytes = 0;
    if (counted && u->datatype >= 0 &&
        dumpi_arg_off(&s->rec, &dumpi_functions[s->rec.label], u->datatype) != UINT32_MAX)
        bytes = send_elements(s, u) * type_size(r, p, dumpi_arg_int(&s->rec, s->p, u->datatype));
    uint32_t inst = pw_mpi_tracker_lookup(&p->tracker, dumpi_arg_int(&s->rec, s->p, u->comm));
    uint64_t key = pw_pair_key(s->rec.label, inst);
    if (counted)
        pw_pair_counts_add(&p->coll_calls, key, 1, bytes);
    pw_pair_counts_add(&p->coll_time, key, ns, 0);
}

/* A call that entered before the window: its time inside it only. */
static void add_time_only(pw_mpi_rank_profile *p, const dumpi_rank *r, const dumpi_stream *s,
                          const dumpi_fn_use *uses, uint64_t ns)
{
    uint16_t l = s->rec.label;
    p->fns[l].time_ns += ns;
    if (l < DUMPI_ALL_FUNCTIONS)
        p->mpi_ns += ns;
    if (uses[l].use == DUMPI_USE_COLLECTIVE)
        on_collective(r, p, s, &uses[l], ns, 0);
    else
        dumpi_profile_track(p, s, uses);
}

void dumpi_profile_call(const dumpi_rank *r, pw_mpi_rank_profile *p, const dumpi_stream *s,
                        const dumpi_fn_use *uses, const int64_t *window)
{
    const dumpi_rec *rec = &s->rec;
    int which = rec->mask & DUMPI_MASK_WALL ? 1 : rec->mask & DUMPI_MASK_CPU ? 0 : -1;
    uint64_t ns = 0; /* the call's duration on the clock it has */
    int counted = 1;
    if (which > p->clock)
        p->clock = which;
    if (which >= 0) { /* the times dumpi_stream_record gives the record */
        int64_t t = (int64_t)(s->sec[which][0] * 1000000000u + s->nsec[which][0]);
        int64_t end = (int64_t)(s->sec[which][1] * 1000000000u + s->nsec[which][1]);
        end = end > t ? end : t;
        if (window) { /* counted where it enters; its time inside the window */
            counted = t >= window[0] && t < window[1];
            t = t > window[0] ? t : window[0];
            end = end < window[1] ? end : window[1];
            end = end > t ? end : t;
        }
        ns = (uint64_t)(end - t);
        p->t_min = t < p->t_min ? t : p->t_min;
        p->t_max = end > p->t_max ? end : p->t_max;
    }
    if (!counted) {
        add_time_only(p, r, s, uses, ns);
        return;
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
    case DUMPI_USE_INIT:
        p->has_init = which >= 0;
        p->init_ns = which >= 0 ? s->sec[which][0] * 1000000000u + s->nsec[which][0] : 0;
        break;
    case DUMPI_USE_FINALIZE:
        p->has_finalize = which >= 0;
        p->finalize_ns = which >= 0 ? s->sec[which][1] * 1000000000u + s->nsec[which][1] : 0;
        break;
    case DUMPI_USE_SEND: on_send(r, p, s, u); break;
    case DUMPI_USE_COLLECTIVE: on_collective(r, p, s, u, ns, 1); break;
    default: /* most calls (DUMPI_USE_OTHER): counted and timed above, nothing more */
        if (u->use != DUMPI_USE_OTHER) /* a communicator's dup, split or free */
            dumpi_profile_track(p, s, uses);
        break;
    }
}

void dumpi_profile_track(pw_mpi_rank_profile *p, const dumpi_stream *s, const dumpi_fn_use *uses)
{
    const dumpi_rec *rec = &s->rec;
    const dumpi_fn_use *u = &uses[rec->label];
    const uint8_t *q = s->p;
    switch (u->use) {
    case DUMPI_USE_DUP:
        pw_mpi_tracker_dup(&p->tracker, dumpi_arg_int(rec, q, u->comm), dumpi_arg_int(rec, q, u->newcomm));
        break;
    case DUMPI_USE_SPLIT:
        pw_mpi_tracker_split(&p->tracker, dumpi_arg_int(rec, q, u->comm), dumpi_arg_int(rec, q, u->color),
                             dumpi_arg_int(rec, q, u->key), dumpi_arg_int(rec, q, u->newcomm));
        break;
    case DUMPI_USE_FREE: pw_mpi_tracker_release(&p->tracker, dumpi_arg_int(rec, q, u->comm)); break;
    default: break;
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
                                      .function_name = function_name,
                                      .refilter = dumpi_profiles_filter};
    ds->mpi_profiles = &dd->published;
}
