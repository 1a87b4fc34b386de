/* otf2_cursor.c — the cursor over one location's events.  Each cursor
 * has its own libotf2 reader (libotf2 readers are not shared between
 * threads): it reads the location's local definitions (Score-P's id
 * mappings and clock offsets, which libotf2 then applies to the events)
 * and its event file, a batch of events at a time into an array the
 * callbacks fill, one callback per event type generated from
 * otf2_events.def. */
#include <stdlib.h>
#include <string.h>

#include "formats/otf2/otf2.h"
#include "formats/otf2/otf2_power_track.h"

#define OT_BATCH 512

typedef struct ot_cursor {
    OTF2_Reader *rd;
    OTF2_EvtReader *er;
    const char *file;
    ot_event batch[OT_BATCH];
    uint32_t n, pos;
    int64_t self_rank;
    OTF2_ErrorCode failed; /* the read after the batch failed */
    int ended, nomem;
    ot_calls *calls; /* the MPI calls being assembled (mpi_calls), or NULL */
    int on_call;     /* the current record is a call, not an event */
    ot_power_state power; /* the power of POWER records (otf2_power_track.h) */
    int on_power;         /* the current record is one */
    /* Metric values and program arguments of the batch's events. */
    uint64_t *pool;
    uint8_t *pool_types;
    uint32_t pool_n, pool_cap;
} ot_cursor;

static OTF2_CallbackCode push(ot_cursor *k, int type, uint64_t time, uint64_t pos, const uint64_t *raw, size_t n)
{
    if (k->n == OT_BATCH)
        return OTF2_CALLBACK_INTERRUPT;
    ot_event *e = &k->batch[k->n++];
    e->type = (uint16_t)type;
    e->time = time;
    e->position = pos;
    if (n) /* Unknown events have no fields, and no array */
        memcpy(e->a, raw, (n < OT_MAX_ARGS ? n : OT_MAX_ARGS) * sizeof *raw);
    e->self_rank = k->self_rank;
    e->n_extra = 0;
    e->extra_off = k->pool_n;
    return OTF2_CALLBACK_SUCCESS;
}

/* Room for n more values in the pool; 0 when memory runs out. */
static int pool_room(ot_cursor *k, uint32_t n)
{
    if (k->pool_n + n <= k->pool_cap)
        return 1;
    uint32_t cap = k->pool_cap ? k->pool_cap : 256;
    while (cap < k->pool_n + n)
        cap *= 2;
    uint64_t *p = realloc(k->pool, cap * sizeof *p);
    if (p)
        k->pool = p;
    uint8_t *t = p ? realloc(k->pool_types, cap) : NULL;
    if (!t) {
        k->nomem = 1;
        return 0;
    }
    k->pool_types = t;
    k->pool_cap = cap;
    return 1;
}

#define OT_UNPAREN(...) __VA_ARGS__
#define OT_EVX(...)
#define OT_EV(Name, label, kind, desc, fields, params, ...)                                                  \
    static OTF2_CallbackCode cb_##Name(OTF2_LocationRef ot_loc_, OTF2_TimeStamp ot_time_, uint64_t ot_pos_,  \
                                       void *ot_user_, OTF2_AttributeList *ot_attrs_ OT_UNPAREN params)       \
    {                                                                                                         \
        (void)ot_loc_, (void)ot_attrs_;                                                                       \
        const uint64_t raw[] = {0, __VA_ARGS__};                                                              \
        return push(ot_user_, OT_EV_##Name, ot_time_, ot_pos_, raw + 1, sizeof raw / sizeof *raw - 1);       \
    }
#include "formats/otf2/otf2_events.def"
#undef OT_EV
#undef OT_EVX

static OTF2_CallbackCode cb_Metric(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *user,
                                   OTF2_AttributeList *attrs, OTF2_MetricRef metric, uint8_t n,
                                   const OTF2_Type *types, const OTF2_MetricValue *values)
{
    ot_cursor *k = user;
    (void)loc, (void)attrs;
    uint64_t raw = metric;
    if (!pool_room(k, n))
        return OTF2_CALLBACK_INTERRUPT;
    OTF2_CallbackCode cc = push(k, OT_EV_Metric, time, pos, &raw, 1);
    if (cc != OTF2_CALLBACK_SUCCESS)
        return cc;
    for (uint8_t i = 0; i < n; i++) {
        k->pool[k->pool_n + i] = values[i].unsigned_int; /* the union's bits */
        k->pool_types[k->pool_n + i] = types[i];
    }
    k->pool_n += n;
    k->batch[k->n - 1].n_extra = n;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode cb_ProgramBegin(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *user,
                                         OTF2_AttributeList *attrs, OTF2_StringRef name, uint32_t n,
                                         const OTF2_StringRef *args)
{
    ot_cursor *k = user;
    (void)loc, (void)attrs;
    uint64_t raw = name;
    if (!pool_room(k, n))
        return OTF2_CALLBACK_INTERRUPT;
    OTF2_CallbackCode cc = push(k, OT_EV_ProgramBegin, time, pos, &raw, 1);
    if (cc != OTF2_CALLBACK_SUCCESS)
        return cc;
    for (uint32_t i = 0; i < n; i++) {
        k->pool[k->pool_n + i] = args[i];
        k->pool_types[k->pool_n + i] = OTF2_TYPE_STRING;
    }
    k->pool_n += n;
    k->batch[k->n - 1].n_extra = n;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode cb_Unknown(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *user,
                                    OTF2_AttributeList *attrs)
{
    (void)loc, (void)attrs;
    return push(user, OT_EV_Unknown, time, pos, NULL, 0);
}

static OTF2_EvtReaderCallbacks *event_callbacks(void)
{
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    if (!cb)
        return NULL;
#define OT_EV(Name, ...) OTF2_EvtReaderCallbacks_Set##Name##Callback(cb, cb_##Name);
#include "formats/otf2/otf2_events.def"
#undef OT_EV
    return cb;
}

/* The location's local definitions, so that libotf2 maps its ids and
 * corrects its clock; an archive without them (many producers write
 * none) reads as it is. */
static void read_local_defs(pw_dataset *ds, ot_cursor *k, uint64_t id)
{
    OTF2_DefReader *dr = OTF2_Reader_GetDefReader(k->rd, id);
    if (!dr)
        return;
    uint64_t n = 0;
    OTF2_ErrorCode rc = OTF2_Reader_ReadAllLocalDefinitions(k->rd, dr, &n);
    if (rc != OTF2_SUCCESS) {
        pw_error e = {0};
        ot_fail(&e, PW_E_DATA, k->file, rc, "whole local definitions expected");
        pw_ds_diag_error(ds, PW_SEV_WARNING, "otf2.local-definitions", &e);
    }
    OTF2_Reader_CloseDefReader(k->rd, dr);
}

static pw_status cursor_setup(pw_dataset *ds, ot_cursor *k, const ot_location *l, pw_error *err)
{
    const ot_dataset *od = ds->impl;
    k->rd = ot_reader_open(od->anchor, err);
    if (!k->rd)
        return PW_E_DATA;
    OTF2_ErrorCode rc = OTF2_Reader_SelectLocation(k->rd, l->id);
    if (rc == OTF2_SUCCESS && OTF2_Reader_OpenDefFiles(k->rd) == OTF2_SUCCESS) {
        read_local_defs(ds, k, l->id);
        OTF2_Reader_CloseDefFiles(k->rd);
    }
    if (rc == OTF2_SUCCESS)
        rc = OTF2_Reader_OpenEvtFiles(k->rd);
    k->er = rc == OTF2_SUCCESS ? OTF2_Reader_GetEvtReader(k->rd, l->id) : NULL;
    if (!k->er)
        return ot_fail(err, PW_E_DATA, k->file, rc == OTF2_SUCCESS ? OTF2_ERROR_INVALID : rc,
                       "a readable event file expected");
    OTF2_EvtReaderCallbacks *cb = event_callbacks();
    if (!cb)
        return pw_fail(err, PW_E_NOMEM, k->file, PW_NO_OFFSET, "out of memory");
    rc = OTF2_Reader_RegisterEvtCallbacks(k->rd, k->er, cb, k);
    OTF2_EvtReaderCallbacks_Delete(cb);
    return rc == OTF2_SUCCESS ? PW_OK : ot_fail(err, PW_E_DATA, k->file, rc, "event callbacks accepted");
}

/* The next batch; a failure after some events is kept for after them. */
static pw_status refill(pw_cursor *c, ot_cursor *k, pw_error *err)
{
    if (k->failed || k->nomem) {
        c->err_code = "otf2.damaged-events";
        if (k->nomem)
            return pw_fail(err, PW_E_NOMEM, k->file, PW_NO_OFFSET, "out of memory");
        return ot_fail(err, PW_E_DATA, k->file, k->failed, "whole events expected");
    }
    if (k->ended)
        return PW_END;
    k->n = k->pos = k->pool_n = 0;
    uint64_t got = 0;
    OTF2_ErrorCode rc = OTF2_EvtReader_ReadEvents(k->er, OT_BATCH, &got);
    if (rc != OTF2_SUCCESS)
        k->failed = rc;
    else if (got < OT_BATCH && !k->nomem)
        k->ended = 1;
    return k->n ? PW_OK : refill(c, k, err);
}

/* The next raw event, its extra values placed. */
static pw_status next_event(pw_cursor *c, ot_cursor *k, ot_event **out, pw_error *err)
{
    if (k->pos == k->n) {
        pw_status st = refill(c, k, err);
        if (st != PW_OK)
            return st;
    }
    ot_event *e = &k->batch[k->pos++];
    /* The pool is NULL until an event with extra fields needs it, and
     * NULL + 0 is undefined. */
    e->extra = k->pool ? k->pool + e->extra_off : NULL;
    e->extra_types = k->pool_types ? k->pool_types + e->extra_off : NULL;
    *out = e;
    return PW_OK;
}

static void set_record(pw_cursor *c, const pw_schema *sc)
{
    c->rec.schema = sc->index;
    c->rec.type = sc->name;
    c->rec.kind = sc->kind;
    c->rec.clock = PW_CLOCK_NS;
    c->rec.location = c->location;
    c->rec.size = 0;
}

/* The next MPI call of the location (otf2_calls.c), its events skipped. */
static pw_status next_call(pw_cursor *c, ot_cursor *k, pw_error *err)
{
    const ot_dataset *od = c->ds->impl;
    if (!od->call_schema_of_region)
        return PW_END;
    if (!k->calls && !(k->calls = ot_calls_new()))
        return pw_fail(err, PW_E_NOMEM, k->file, PW_NO_OFFSET, "out of memory");
    for (;;) {
        ot_event *e;
        pw_status st = next_event(c, k, &e, err);
        if (st != PW_OK)
            return st;
        int done = ot_calls_feed(k->calls, od, e, ot_ns(od, e->time), &c->rec);
        if (done < 0)
            return pw_fail(err, PW_E_NOMEM, k->file, PW_NO_OFFSET, "out of memory");
        if (done) {
            set_record(c, c->ds->schemas[c->rec.schema]);
            k->on_call = 1;
            return PW_OK;
        }
    }
}

static pw_status ot_cursor_next(pw_cursor *c, pw_error *err)
{
    ot_cursor *k = c->impl;
    if (c->mpi_calls)
        return next_call(c, k, err);
    ot_event *e;
    pw_status st = next_event(c, k, &e, err);
    if (st != PW_OK)
        return st;
    const ot_dataset *od = c->ds->impl;
    k->on_power = ot_power_track_carries(od, e);
    set_record(c, c->ds->schemas[k->on_power ? od->power_schema : od->schema_of[e->type]]);
    c->rec.t = ot_ns(od, e->time);
    c->rec.has_end = 0;
    c->rec.offset = e->position; /* OTF2 gives event positions, not bytes */
    k->on_call = 0;
    if (k->on_power) { /* still a METRIC record, for filters and listings */
        c->rec.type = c->ds->schemas[od->schema_of[e->type]]->name;
        if (!ot_power_track_feed(&k->power, od, e, c->rec.t))
            return pw_fail(err, PW_E_NOMEM, k->file, PW_NO_OFFSET, "out of memory");
    }
    return PW_OK;
}

static void ot_cursor_decode(pw_cursor *c, pw_value *values)
{
    ot_cursor *k = c->impl;
    if (k->on_call)
        ot_calls_decode(k->calls, &c->scratch, values);
    else
        ot_decode(c->ds, &k->batch[k->pos - 1], &c->scratch, values);
    if (k->on_power)
        ot_power_track_decode(&k->power, c->ds->impl, &k->batch[k->pos - 1], values);
}

const ot_event *ot_cursor_event(const pw_cursor *c)
{
    const ot_cursor *k = c->impl;
    return &k->batch[k->pos - 1];
}

static void cursor_free(ot_cursor *k)
{
    if (k->rd)
        OTF2_Reader_Close(k->rd); /* closes its event readers too */
    free(k->pool);
    free(k->pool_types);
    ot_calls_delete(k->calls);
    ot_power_state_free(&k->power);
    free(k);
}

static void ot_cursor_close(pw_cursor *c)
{
    if (c->impl)
        cursor_free(c->impl);
    c->impl = NULL;
}

static const pw_cursor_ops ot_cursor_ops = {
    .next = ot_cursor_next,
    .decode = ot_cursor_decode,
    .close = ot_cursor_close,
};

pw_status ot_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err)
{
    const ot_dataset *od = ds->impl;
    int32_t i = c->location < ds->n_locs ? od->ot_of_loc[c->location] : -1;
    if (i < 0)
        return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET, "location %u is not an OTF2 location", c->location);
    ot_cursor *k = calloc(1, sizeof *k);
    if (!k)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    k->file = ds->locs[c->location].file;
    k->self_rank = od->locs[i].world_rank;
    pw_status st = cursor_setup(ds, k, &od->locs[i], err);
    if (st != PW_OK) {
        cursor_free(k);
        return st;
    }
    c->impl = k;
    c->ops = &ot_cursor_ops;
    return PW_OK;
}
