/* mpi_comm_replay.c — communicators from the records of any dataset (see
 * mpi_comm_replay.h). */
#include "views/mpi_comm_replay.h"

#include <stdlib.h>
#include <string.h>

#include "views/timeline.h"
#include "views/timeline_schema.h"

/* The predefined handles from some comm field's labels; 0 when world is
 * not named (small values are probed: handles are small constants). */
static int predefined_handles(pw_comm_replay *r)
{
    int found = 0;
    r->self = r->null = INT64_MIN;
    for (size_t i = 0; i < r->ds->n_schemas && !found; i++) {
        const pw_schema *sc = r->ds->schemas[i];
        int f = r->calls[i].f_on_comm;
        if (f < 0 || !sc->fields[f].label)
            continue;
        for (int64_t v = -64; v <= 64; v++) {
            const char *name = sc->fields[f].label(v);
            if (!name)
                continue;
            if (!strcmp(name, "MPI_COMM_WORLD"))
                r->world = v, found = 1;
            else if (!strcmp(name, "MPI_COMM_SELF"))
                r->self = v;
            else if (!strcmp(name, "MPI_COMM_NULL"))
                r->null = v;
        }
    }
    return found;
}

static int classify(pw_comm_replay *r)
{
    int any = 0;
    for (size_t i = 0; i < r->ds->n_schemas; i++) {
        const pw_schema *sc = r->ds->schemas[i];
        pw_mpi_call_view_of(sc->name, sc->mpi_fields, &r->calls[i]);
        any |= r->calls[i].comm_op == PW_COMM_DUP || r->calls[i].comm_op == PW_COMM_SPLIT;
    }
    return any;
}

static int64_t int_field(const pw_value *v, int i)
{
    if (i < 0 || !v[i].present)
        return 0;
    return v[i].type == PW_T_U64 ? (int64_t)v[i].v.u : v[i].type == PW_T_I64 ? v[i].v.i : 0;
}

/* Feeds one record into trackers[rank of its location]. */
static void feed(pw_comm_replay *r, pw_mpi_tracker *trackers, const pw_record *rec)
{
    const pw_mpi_call_view *c = &r->calls[rec->schema];
    if (c->comm_op == PW_COMM_OP_NONE)
        return;
    int64_t rank = pw_tl_rank_of(r->ds, rec->location);
    if (rank < 0 || (uint64_t)rank >= r->n_ranks)
        return;
    const pw_value *v = pw_record_fields(rec);
    pw_mpi_tracker *t = &trackers[rank];
    if (c->comm_op == PW_COMM_DUP)
        pw_mpi_tracker_dup(t, int_field(v, c->f_on_comm), int_field(v, c->f_new));
    else if (c->comm_op == PW_COMM_SPLIT)
        pw_mpi_tracker_split(t, int_field(v, c->f_on_comm), int_field(v, c->f_color), int_field(v, c->f_key),
                             int_field(v, c->f_new));
    else
        pw_mpi_tracker_release(t, int_field(v, c->f_on_comm));
}

/* Trackers for every rank, with the communicators the format defines
 * already made (model/mpi_comms.h). */
static pw_mpi_tracker *new_trackers(const pw_comm_replay *r)
{
    pw_mpi_tracker *t = calloc(r->n_ranks ? r->n_ranks : 1, sizeof *t);
    for (size_t i = 0; t && i < r->n_ranks; i++) { /* MPI_UNDEFINED colors: their newcomm is MPI_COMM_NULL */
        pw_mpi_tracker_init(&t[i], r->world, r->self, r->null, r->undefined_color);
        if (r->ds->mpi_defined_comms)
            pw_mpi_tracker_define(&t[i], r->ds->mpi_defined_comms, (int64_t)i);
    }
    return t;
}

/* The predefined handles of a format that defines its communicators. */
static int defined_handles(pw_comm_replay *r)
{
    const pw_mpi_defined_comms *d = r->ds->mpi_defined_comms;
    if (!d)
        return 0;
    r->world = d->world;
    r->self = d->self;
    r->null = d->null;
    return 1;
}

static void free_trackers(pw_mpi_tracker *t, size_t n)
{
    for (size_t i = 0; t && i < n; i++)
        pw_mpi_tracker_free(&t[i]);
    free(t);
}

/* Every location's creations, in each cursor's order, then resolved. */
static pw_status census(pw_comm_replay *r, pw_error *err)
{
    pw_mpi_tracker *t = new_trackers(r);
    pw_mpi_tracker **ptrs = calloc(r->n_ranks ? r->n_ranks : 1, sizeof *ptrs);
    pw_status s = t && ptrs ? PW_OK : pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; s == PW_OK && i < r->ds->n_locs; i++) {
        pw_cursor *c;
        if (!r->ds->locs[i].has_records || pw_cursor_open(r->ds, (uint32_t)i, &c, err) != PW_OK)
            continue; /* damage is the drawing's to report */
        const pw_record *rec;
        pw_error e;
        while (pw_cursor_next(c, &rec, &e) == PW_OK)
            feed(r, t, rec);
        pw_cursor_close(c);
    }
    for (size_t i = 0; s == PW_OK && i < r->n_ranks; i++)
        ptrs[i] = &t[i];
    if (s == PW_OK && pw_mpi_comms_resolve(&r->comms, ptrs, r->n_ranks) != 0)
        s = pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    r->resolved = s == PW_OK;
    free_trackers(t, r->n_ranks);
    free(ptrs);
    return s;
}

/* The classification and live trackers; with census, every creation read
 * and resolved now. */
static pw_status replay_init(pw_comm_replay *r, pw_dataset *ds, int with_census, pw_error *err)
{
    memset(r, 0, sizeof *r);
    r->ds = ds;
    r->undefined_color = INT64_MIN;
    r->calls = calloc(ds->n_schemas ? ds->n_schemas : 1, sizeof *r->calls);
    if (!r->calls)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    int creates = classify(r);
    if (!defined_handles(r) && (!creates || !predefined_handles(r)))
        return PW_OK;
    for (size_t i = 0; i < ds->n_locs; i++) { /* ranks: 0 .. highest + 1 */
        int64_t rank = ds->locs[i].kind == PW_LOC_PROCESS ? ds->locs[i].id : -1;
        if (rank >= 0 && rank < (1 << 20) && (size_t)rank + 1 > r->n_ranks)
            r->n_ranks = (size_t)rank + 1;
    }
    pw_status s = with_census ? census(r, err) : PW_OK;
    if (s == PW_OK && !(r->live = new_trackers(r)))
        s = pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    return s;
}

pw_status pw_comm_replay_init(pw_comm_replay *r, pw_dataset *ds, pw_error *err)
{
    return replay_init(r, ds, 1, err);
}

pw_status pw_comm_replay_init_fed(pw_comm_replay *r, pw_dataset *ds, pw_error *err)
{
    return replay_init(r, ds, 0, err);
}

pw_status pw_comm_replay_resolve_fed(pw_comm_replay *r, pw_error *err)
{
    if (!r->live)
        return PW_OK;
    pw_mpi_tracker **ptrs = calloc(r->n_ranks ? r->n_ranks : 1, sizeof *ptrs);
    for (size_t i = 0; ptrs && i < r->n_ranks; i++)
        ptrs[i] = &r->live[i];
    int ok = ptrs && pw_mpi_comms_resolve(&r->comms, ptrs, r->n_ranks) == 0;
    free(ptrs);
    r->resolved = ok && pw_comm_replay_restart(r);
    return r->resolved ? PW_OK : pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
}

pw_status pw_comm_replay_resolve_from(pw_comm_replay *r, pw_mpi_tracker *const *trackers, pw_error *err)
{
    if (!r->live)
        return PW_OK;
    if (r->n_ranks)
        r->undefined_color = trackers[0]->undefined_color;
    int ok = pw_mpi_comms_resolve(&r->comms, trackers, r->n_ranks) == 0;
    r->resolved = ok && pw_comm_replay_restart(r);
    return r->resolved ? PW_OK : pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
}

int pw_comm_replay_restart(pw_comm_replay *r)
{
    free_trackers(r->live, r->n_ranks);
    r->live = new_trackers(r);
    return r->live != NULL;
}

void pw_comm_replay_free(pw_comm_replay *r)
{
    free_trackers(r->live, r->n_ranks);
    pw_mpi_comms_free(&r->comms);
    free(r->calls);
    memset(r, 0, sizeof *r);
}

/* Most calls neither create nor free a communicator: they are told
 * apart here, where the caller can inline the test, before feed's call. */
void pw_comm_replay_feed(pw_comm_replay *r, const pw_record *rec)
{
    if (r->live && r->calls[rec->schema].comm_op != PW_COMM_OP_NONE)
        feed(r, r->live, rec);
}

uint32_t pw_comm_replay_lookup(pw_comm_replay *r, uint32_t location, int64_t handle)
{
    int64_t rank = pw_tl_rank_of(r->ds, location);
    if (!r->live || rank < 0 || (uint64_t)rank >= r->n_ranks)
        return PW_MPI_UNKNOWN;
    return pw_mpi_comm_of(&r->comms, (size_t)rank, pw_mpi_tracker_lookup(&r->live[rank], handle));
}
