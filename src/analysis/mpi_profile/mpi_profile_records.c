/* mpi_profile_records.c — the rank profiles of what the selection reports,
 * made from the records (model/filter.h: a filter selects what is
 * reported, never what the analysis sees).  A format's own profile, made
 * while opening, is of every call: without a filter it is the report as
 * is.  Otherwise every rank's history (every record before the window's
 * end, of every type and location) is profiled here:
 *   - a call of the selected locations and functions that reaches into
 *     the window [start, end) counts (with its messages, bytes and
 *     collective) where it enters; its time is its part inside the window
 *     (a call that entered before it adds only that time);
 *   - every call, reported or not, keeps the communicators it creates or
 *     frees, so that a later call's communicator is known.
 * Calls come in one of two shapes, told apart by their schemas:
 *   span     one record per call (DUMPI): its fields by MPI role
 *            (model/mpi_roles.h) give destination, counts, datatype and
 *            communicator; bytes are count x the datatype's size
 *            (views/mpi_coll.h: the process's datatype_sizes);
 *   events   a region's BEGIN and END records named by their "name" field
 *            (OTF2's Enter and Leave), a MESSAGE with "receiver", "comm" and
 *            "bytes" inside it (a send), an INSTANT with "sent" (the end of
 *            a collective: its bytes, and its "comm"). */
#include <stdlib.h>
#include <string.h>

#include "analysis/mpi_profile/mpi_profile.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/window.h"
#include "model/filter.h"
#include "views/mpi_coll.h"
#include "views/timeline.h"

typedef enum mr_role { MR_NONE, MR_CALL, MR_ENTER, MR_LEAVE, MR_SEND, MR_COLL_END } mr_role;

/* How a schema's records are profiled, decided once. */
typedef struct mr_schema {
    uint8_t role;
    int32_t fn;          /* MR_CALL: its function index, -1: none of the profile's */
    pw_mpi_fn_use use;   /* MR_CALL */
    int whole;           /* MR_CALL: a list among its fields: decoded whole */
    int16_t ints[8];     /* MR_CALL: the integer fields read (the cursor's ints op) */
    uint8_t n_ints;
    int16_t f_name, f_receiver, f_comm, f_bytes, f_sent; /* the events' fields */
} mr_schema;

typedef struct mr_run {
    pw_dataset *ds;
    const pw_mpi_profiles *mp;
    mr_schema *schemas;
    pw_mpi_rank_profile *ranks; /* made here, per rank of mp */
    const uint8_t *want;        /* per rank: made (NULL: all) */
    uint8_t *failed;            /* per rank: memory ran out while making it */
    uint32_t **locs;            /* per rank: its record locations */
    size_t *n_locs;
    int events;                 /* calls are region events: they have wall-clock times */
    uint8_t *event_use;         /* events: per function, its pw_mpi_use (by its name) */
    int64_t w0, w1;             /* the report window, or the whole line */
} mr_run;

/* A region entered and not left yet (events). */
typedef struct mr_open {
    int32_t fn;
    int64_t enter;
    uint64_t coll_bytes;
    int64_t coll_comm; /* the collective end's communicator, -1: none */
} mr_open;

/* One rank's walk. */
typedef struct mr_walk {
    mr_run *run;
    pw_mpi_rank_profile *p;
    pw_type_sizes sizes;
    int sizes_loaded;
    int clock;        /* spans: the rank's clock once a timed call was decoded, -2 before */
    pw_value *view;   /* the integer view, by field index */
    mr_open *stack;
    size_t depth, cap;
    int failed;
} mr_walk;

/* The profile's index of function `name` (n bytes), or -1. */
static int32_t function_of(const pw_mpi_profiles *mp, const char *name, size_t n)
{
    for (size_t f = 0; f < mp->n_functions; f++) {
        const char *s = mp->function_name((uint32_t)f);
        if (!strncmp(s, name, n) && !s[n])
            return (int32_t)f;
    }
    return -1;
}

/* The index of field `name` in schema sc, or -1. */
static int16_t field_of(const pw_schema *sc, const char *name)
{
    for (size_t i = 0; i < sc->n_fields && i < INT16_MAX; i++)
        if (!strcmp(sc->fields[i].name, name))
            return (int16_t)i;
    return -1;
}

/* The integer fields a call's use reads; 0 when one is a list (decoded whole). */
static void call_ints(const pw_schema *sc, mr_schema *m)
{
    const pw_mpi_fn_use *u = &m->use;
    int16_t want[] = {u->count, u->datatype, u->dest, u->comm, u->newcomm, u->color, u->key};
    m->whole = u->counts >= 0;
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        if (want[i] < 0)
            continue;
        if (sc->fields[want[i]].type == PW_T_LIST)
            m->whole = 1;
        m->ints[m->n_ints++] = want[i];
    }
}

static void classify(mr_run *run, const pw_schema *sc, mr_schema *m)
{
    memset(m, 0, sizeof *m);
    m->fn = -1;
    m->f_name = field_of(sc, "name");
    m->f_receiver = field_of(sc, "receiver");
    m->f_comm = field_of(sc, "comm");
    m->f_bytes = field_of(sc, "bytes");
    m->f_sent = field_of(sc, "sent");
    if (sc->kind == PW_REC_SPAN && sc->mpi_fields) {
        m->role = MR_CALL;
        m->fn = function_of(run->mp, sc->name, strlen(sc->name));
        pw_mpi_fn_use_of(sc->name, sc->mpi_fields, sc->fields, &m->use);
        call_ints(sc, m);
    } else if ((sc->kind == PW_REC_BEGIN || sc->kind == PW_REC_END) && m->f_name >= 0) {
        m->role = sc->kind == PW_REC_BEGIN ? MR_ENTER : MR_LEAVE;
        run->events = 1;
    } else if (sc->kind == PW_REC_MESSAGE && m->f_receiver >= 0 && m->f_comm >= 0 && m->f_bytes >= 0) {
        m->role = MR_SEND;
    } else if (sc->kind == PW_REC_INSTANT && m->f_sent >= 0) {
        m->role = MR_COLL_END;
    }
}

/* A value as an integer (0 when absent or no number). */
static int64_t int_of(const pw_value *v)
{
    if (!v->present)
        return 0;
    switch (v->type) {
    case PW_T_I64: return v->v.i;
    case PW_T_U64: return (int64_t)v->v.u;
    case PW_T_BOOL: return v->v.b;
    default: return 0;
    }
}

static int64_t field_int(const pw_value *v, int16_t f) { return f >= 0 ? int_of(&v[f]) : 0; }

/* The size of datatype id `type` on the rank (unknown ids counted). */
static uint64_t type_size(mr_walk *w, const pw_record *rec, int64_t type)
{
    if (!w->sizes_loaded) {
        w->sizes_loaded = 1;
        if (!pw_type_sizes_load(&w->sizes, w->run->ds, pw_tl_process_of(w->run->ds, rec->location)))
            w->failed = 1;
    }
    if (type >= 0 && (uint64_t)type < w->sizes.n)
        return w->sizes.bytes[type];
    w->p->unknown_type++;
    return 0;
}

/* Elements in the send buffer: the count, or the sum of an integer list. */
static uint64_t send_elements(const pw_value *v, const pw_mpi_fn_use *u)
{
    if (u->count >= 0) {
        int64_t n = int_of(&v[u->count]);
        return n > 0 ? (uint64_t)n : 0;
    }
    if (u->counts < 0 || !v[u->counts].present || v[u->counts].type != PW_T_LIST)
        return 0;
    uint64_t sum = 0;
    for (size_t i = 0; i < v[u->counts].v.list.n; i++) {
        int64_t x = int_of(&v[u->counts].v.list.items[i]);
        sum += x > 0 ? (uint64_t)x : 0;
    }
    return sum;
}

/* A message of `bytes` to comm-relative `dest` on communicator `comm`. */
static void add_send(pw_mpi_rank_profile *p, int64_t comm, int64_t dest, uint64_t bytes)
{
    uint32_t inst = pw_mpi_tracker_lookup(&p->tracker, comm);
    pw_pair_counts_add(&p->sends, pw_pair_key(inst, (uint32_t)dest), 1, bytes);
    int b = pw_mpi_size_bucket(bytes);
    p->size_msgs[b]++;
    p->size_bytes[b] += bytes;
}

/* MPI_PROC_NULL as the call records hold it (Open MPI's value, which the
 * DUMPI tracer keeps): a send to it is counted apart, with no message. */
#define MR_PROC_NULL (-2)

static void on_send(mr_walk *w, const pw_record *rec, const pw_value *v, const pw_mpi_fn_use *u)
{
    int64_t dest = field_int(v, u->dest);
    if (dest == MR_PROC_NULL) {
        w->p->proc_null++;
        return;
    }
    uint64_t bytes = send_elements(v, u) * type_size(w, rec, field_int(v, u->datatype));
    add_send(w->p, field_int(v, u->comm), dest, bytes);
}

/* A collective's time (and, counted, its call and bytes) under its
 * communicator instance. */
static void on_collective(mr_walk *w, const pw_record *rec, const pw_value *v, const pw_mpi_fn_use *u,
                          uint32_t fn, uint64_t ns, int counted)
{
    uint64_t bytes = 0;
    if (counted && u->datatype >= 0 && v[u->datatype].present)
        bytes = send_elements(v, u) * type_size(w, rec, int_of(&v[u->datatype]));
    uint64_t key = pw_pair_key(fn, pw_mpi_tracker_lookup(&w->p->tracker, field_int(v, u->comm)));
    if (counted)
        pw_pair_counts_add(&w->p->coll_calls, key, 1, bytes);
    pw_pair_counts_add(&w->p->coll_time, key, ns, 0);
}

/* The communicators a call creates or frees. */
static void track(pw_mpi_rank_profile *p, const pw_value *v, const pw_mpi_fn_use *u)
{
    switch (u->use) {
    case PW_MPI_USE_DUP: pw_mpi_tracker_dup(&p->tracker, field_int(v, u->comm), field_int(v, u->newcomm)); break;
    case PW_MPI_USE_SPLIT:
        pw_mpi_tracker_split(&p->tracker, field_int(v, u->comm), field_int(v, u->color), field_int(v, u->key),
                             field_int(v, u->newcomm));
        break;
    case PW_MPI_USE_FREE: pw_mpi_tracker_release(&p->tracker, field_int(v, u->comm)); break;
    default: break;
    }
}

/* Does the report keep a call of function fn at location loc entered at t
 * and left at end (timed: t and end hold)?  It reaches into the window. */
static int reported(const mr_run *run, uint32_t loc, int32_t fn, int timed, int64_t t, int64_t end)
{
    if (!pw_selection_keeps_location(run->ds, loc) ||
        !pw_selection_keeps_type(run->ds, run->mp->function_name((uint32_t)fn)))
        return 0;
    return !timed || (t < run->w1 && (end > run->w0 || t >= run->w0));
}

/* A call of function fn [t, end] (timed) into the counts: counted where
 * it enters, its time clipped to the window.  Returns the clipped time. */
static uint64_t add_call(mr_walk *w, int32_t fn, int timed, int64_t t, int64_t end, int *counted)
{
    pw_mpi_rank_profile *p = w->p;
    uint64_t ns = 0;
    *counted = 1;
    if (timed) {
        *counted = t >= w->run->w0 && t < w->run->w1;
        t = t > w->run->w0 ? t : w->run->w0;
        end = end < w->run->w1 ? end : w->run->w1;
        end = end > t ? end : t;
        ns = (uint64_t)(end - t);
        p->t_min = t < p->t_min ? t : p->t_min;
        p->t_max = end > p->t_max ? end : p->t_max;
    }
    pw_mpi_fn_time *f = &p->fns[fn];
    if (*counted) {
        if (!f->calls++ || ns < f->min_ns)
            f->min_ns = ns;
        if (ns > f->max_ns)
            f->max_ns = ns;
    }
    f->time_ns += ns;
    if ((size_t)fn < w->run->mp->n_mpi_functions)
        p->mpi_ns += ns;
    return ns;
}

/* The clock of the rank's timed calls: wall when the call carries a
 * "wall" time, else cpu (read once per rank: a tracer times every call
 * alike). */
static int span_clock(mr_walk *w, const pw_record *rec)
{
    if (w->clock == -2) {
        int16_t f = field_of(w->run->ds->schemas[rec->schema], "wall");
        w->clock = f >= 0 && pw_record_fields(rec)[f].present ? 1 : 0;
    }
    return w->clock;
}

/* One call record (span shape). */
static void on_call(mr_walk *w, const mr_schema *m, const pw_record *rec)
{
    const pw_value *v = NULL;
    if (m->use.use != PW_MPI_USE_OTHER && m->use.use != PW_MPI_USE_INIT && m->use.use != PW_MPI_USE_FINALIZE) {
        pw_cursor *c = rec->cursor;
        if (m->whole || !c->ops->ints) {
            v = pw_record_fields(rec);
        } else {
            c->ops->ints(c, m->ints, m->n_ints, w->view);
            v = w->view;
        }
    }
    int timed = rec->clock == PW_CLOCK_NS && rec->has_end;
    int64_t t = rec->t, end = timed && rec->t_end > rec->t ? rec->t_end : rec->t;
    if (m->fn >= 0 && reported(w->run, rec->location, m->fn, timed, t, end)) {
        pw_mpi_rank_profile *p = w->p;
        int which = timed ? span_clock(w, rec) : -1, counted;
        p->clock = which > p->clock ? which : p->clock;
        uint64_t ns = add_call(w, m->fn, timed, t, end, &counted);
        if (m->use.use == PW_MPI_USE_COLLECTIVE)
            on_collective(w, rec, v, &m->use, (uint32_t)m->fn, ns, counted);
        else if (counted && m->use.use == PW_MPI_USE_SEND)
            on_send(w, rec, v, &m->use);
        else if (counted && m->use.use == PW_MPI_USE_INIT) {
            p->has_init = timed;
            p->init_ns = timed ? (uint64_t)rec->t : 0;
        } else if (counted && m->use.use == PW_MPI_USE_FINALIZE) {
            p->has_finalize = timed;
            p->finalize_ns = timed ? (uint64_t)rec->t_end : 0;
        }
    }
    if (v)
        track(w->p, v, &m->use);
}

/* The region of an event record (events shape): its function, or -1. */
static int32_t region_fn(const mr_walk *w, const mr_schema *m, const pw_record *rec)
{
    const pw_value *name = &pw_record_fields(rec)[m->f_name];
    if (!name->present || name->type != PW_T_STR)
        return -1;
    return function_of(w->run->mp, name->v.s.p, name->v.s.n);
}

/* The call on top of the stack left at t (events shape). */
static void leave_call(mr_walk *w, uint32_t loc, int64_t t)
{
    mr_open *o = &w->stack[--w->depth];
    pw_mpi_rank_profile *p = w->p;
    if (!reported(w->run, loc, o->fn, 1, o->enter, t))
        return;
    int counted;
    uint64_t ns = add_call(w, o->fn, 1, o->enter, t > o->enter ? t : o->enter, &counted);
    uint8_t use = w->run->event_use[o->fn];
    if (counted && use == PW_MPI_USE_INIT) {
        p->has_init = 1;
        p->init_ns = (uint64_t)o->enter;
    } else if (counted && use == PW_MPI_USE_FINALIZE) {
        p->has_finalize = 1;
        p->finalize_ns = (uint64_t)t;
    } else if (use == PW_MPI_USE_COLLECTIVE) {
        uint32_t inst = o->coll_comm < 0 ? PW_MPI_INST_WORLD : pw_mpi_tracker_lookup(&p->tracker, o->coll_comm);
        uint64_t key = pw_pair_key((uint32_t)o->fn, inst);
        if (counted)
            pw_pair_counts_add(&p->coll_calls, key, 1, o->coll_bytes);
        pw_pair_counts_add(&p->coll_time, key, ns, 0);
    }
}

/* One event record (events shape). */
static void on_event(mr_walk *w, const mr_schema *m, const pw_record *rec)
{
    if (m->role == MR_ENTER) {
        int32_t fn = region_fn(w, m, rec);
        if (fn < 0)
            return;
        if (w->depth == w->cap) {
            size_t cap = w->cap ? w->cap * 2 : 16;
            mr_open *s = realloc(w->stack, cap * sizeof *s);
            if (!s) {
                w->failed = 1;
                return;
            }
            w->stack = s;
            w->cap = cap;
        }
        w->stack[w->depth++] = (mr_open){fn, rec->t, 0, -1};
    } else if (m->role == MR_LEAVE) {
        if (w->depth && region_fn(w, m, rec) == w->stack[w->depth - 1].fn)
            leave_call(w, rec->location, rec->t);
    } else if (m->role == MR_SEND) {
        /* counted with the call it is made in: where it happens, by that call's function */
        int32_t fn = w->depth ? w->stack[w->depth - 1].fn : -1;
        const pw_value *v = pw_record_fields(rec);
        if (rec->t >= w->run->w0 && rec->t < w->run->w1 && pw_selection_keeps_location(w->run->ds, rec->location) &&
            (fn < 0 || pw_selection_keeps_type(w->run->ds, w->run->mp->function_name((uint32_t)fn))))
            add_send(w->p, int_of(&v[m->f_comm]), int_of(&v[m->f_receiver]), (uint64_t)int_of(&v[m->f_bytes]));
    } else if (m->role == MR_COLL_END && w->depth) {
        const pw_value *v = pw_record_fields(rec);
        w->stack[w->depth - 1].coll_bytes += (uint64_t)int_of(&v[m->f_sent]);
        const pw_value *comm = m->f_comm >= 0 ? &v[m->f_comm] : NULL;
        if (comm && comm->present && (comm->type == PW_T_I64 || comm->type == PW_T_U64)) /* a handle, not a name */
            w->stack[w->depth - 1].coll_comm = int_of(comm);
    }
}

/* One location's history into the rank's profile.  Regions still open
 * where the history was cut at the window's end are left after it. */
static void walk_location(mr_walk *w, uint32_t loc)
{
    pw_cursor *c;
    pw_error err;
    w->depth = 0;
    if (pw_cursor_open_history(w->run->ds, loc, PW_WINDOW_DEFAULT_CAP, &c, &err) != PW_OK)
        return; /* damage is the reader's to report */
    const pw_record *rec;
    while (!w->failed && pw_cursor_next(c, &rec, &err) == PW_OK) {
        const mr_schema *m = &w->run->schemas[rec->schema];
        if (m->role == MR_CALL)
            on_call(w, m, rec);
        else if (m->role != MR_NONE)
            on_event(w, m, rec);
    }
    while (c->past_end && w->depth)
        leave_call(w, loc, w->run->w1);
    pw_cursor_close(c);
}

static void walk_rank(void *ctx, size_t r, int worker)
{
    (void)worker;
    mr_run *run = ctx;
    if (run->want && !run->want[r])
        return;
    mr_walk w = {.run = run, .p = &run->ranks[r], .clock = -2};
    w.view = calloc(run->ds->max_fields ? run->ds->max_fields : 1, sizeof *w.view);
    w.failed = !w.view;
    for (size_t i = 0; !w.failed && i < run->n_locs[r]; i++)
        walk_location(&w, run->locs[r][i]);
    run->failed[r] = (uint8_t)w.failed;
    free(w.view);
    free(w.stack);
    pw_type_sizes_free(&w.sizes);
}

/* Each rank's record locations, as the format assigns them. */
static int gather_locations(mr_run *run)
{
    const pw_mpi_profiles *mp = run->mp;
    for (uint32_t l = 0; mp->rank_of_location && l < run->ds->n_locs; l++) {
        int32_t r = mp->rank_of_location[l];
        if (r < 0 || (size_t)r >= mp->n_ranks || !pw_ds_history_has_records(run->ds, l))
            continue;
        uint32_t *p = realloc(run->locs[r], (run->n_locs[r] + 1) * sizeof *p);
        if (!p)
            return 0;
        run->locs[r] = p;
        run->locs[r][run->n_locs[r]++] = l;
    }
    return 1;
}

/* Events: each function's use by its name alone (no field has a role). */
static int event_uses(mr_run *run)
{
    int16_t no_roles[PW_N_MPI_ROLES];
    for (int k = 0; k < PW_N_MPI_ROLES; k++)
        no_roles[k] = -1;
    run->event_use = calloc(run->mp->n_functions ? run->mp->n_functions : 1, 1);
    for (size_t f = 0; run->event_use && f < run->mp->n_functions; f++) {
        pw_mpi_fn_use u;
        pw_mpi_fn_use_of(run->mp->function_name((uint32_t)f), no_roles, NULL, &u);
        run->event_use[f] = u.use;
    }
    return run->event_use != NULL;
}

/* Empty profiles with the format's rank numbers and handles. */
static int init_ranks(mr_run *run)
{
    const pw_mpi_profiles *mp = run->mp;
    const pw_mpi_tracker *t = &mp->ranks[0].tracker;
    int ok = 1;
    for (size_t r = 0; r < mp->n_ranks; r++) {
        ok &= pw_mpi_rank_profile_init(&run->ranks[r], mp->ranks[r].rank, mp->n_functions, t->world, t->self, t->null,
                                       t->undefined_color);
        run->ranks[r].clock = run->events ? 1 : -1;
        if (run->ds->mpi_defined_comms) /* communicators the dataset defines: messages on them reach world ranks */
            pw_mpi_tracker_define(&run->ranks[r].tracker, run->ds->mpi_defined_comms, mp->ranks[r].rank);
    }
    return ok;
}

static pw_status profile_records(mr_run *run, pw_error *err)
{
    pw_dataset *ds = run->ds;
    size_t n = run->mp->n_ranks ? run->mp->n_ranks : 1;
    run->schemas = calloc(ds->n_schemas ? ds->n_schemas : 1, sizeof *run->schemas);
    run->locs = calloc(n, sizeof *run->locs);
    run->n_locs = calloc(n, sizeof *run->n_locs);
    run->failed = calloc(n, 1);
    int ok = run->schemas && run->locs && run->n_locs && run->failed;
    for (size_t s = 0; ok && s < ds->n_schemas; s++)
        classify(run, ds->schemas[s], &run->schemas[s]);
    ok = ok && (!run->events || event_uses(run)) && init_ranks(run) && gather_locations(run);
    if (!pw_selection_window_ns(ds, &run->w0, &run->w1)) {
        run->w0 = INT64_MIN;
        run->w1 = INT64_MAX;
    }
    if (ok)
        pw_parallel_for(run->mp->n_ranks, ds->threads, walk_rank, run);
    for (size_t r = 0; ok && r < run->mp->n_ranks; r++)
        ok = !run->failed[r];
    for (size_t r = 0; run->locs && r < run->mp->n_ranks; r++)
        free(run->locs[r]);
    free(run->locs);
    free(run->n_locs);
    free(run->failed);
    free(run->schemas);
    free(run->event_use);
    return ok ? PW_OK : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
}

pw_status pw_mpi_profiles_ready(pw_dataset *ds, const uint8_t *want, pw_mpi_profiles *out, pw_error *err)
{
    const pw_mpi_profiles *mp = ds->mpi_profiles;
    *out = *mp;
    if (mp->complete)
        return PW_OK;
    out->ranks = calloc(mp->n_ranks ? mp->n_ranks : 1, sizeof *out->ranks);
    if (!out->ranks)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    out->complete = 1;
    mr_run run = {.ds = ds, .mp = mp, .ranks = out->ranks, .want = want};
    pw_status st = profile_records(&run, err);
    if (st != PW_OK)
        pw_mpi_profiles_release(ds, out);
    return st;
}

void pw_mpi_profiles_release(const pw_dataset *ds, pw_mpi_profiles *made)
{
    if (!made->ranks || made->ranks == ds->mpi_profiles->ranks)
        return;
    for (size_t r = 0; r < made->n_ranks; r++)
        pw_mpi_rank_profile_free(&made->ranks[r]);
    free(made->ranks);
    made->ranks = NULL;
}
