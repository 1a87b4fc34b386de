/* otf2_write.c — the timeline as an OTF2 archive, through libotf2:
 * <out>/traces.otf2 (the anchor), traces.def and traces/ (event files).
 *
 * Thread and child tracks are OTF2 locations (CPU threads) grouped by
 * their process track; slices are Enter/Leave of a region per name, an
 * instant an Enter and Leave at one time (a zero-length region), a sample
 * a Metric event on its thread's location (one metric class per counter
 * track, with its unit).  MPI messages and collective calls add their
 * events inside their call's region (otf2_mpi.c).  Definitions are written
 * at the end, when every name, region and event count is known; event
 * buffers are flushed to disk as they fill, so memory stays flat.  Times that go back on a location
 * (which OTF2 forbids) are raised to the location's last time and counted.
 *
 * Several processes write one archive together (a share set, collectives
 * given: pw_dataset_set_collectives): libotf2's collective callbacks are
 * the program's.  Where the timeline draws each share alone, a process
 * draws and writes its share's locations with refs of its own, unified
 * with the others' at the end (otf2_unify.h: event files renamed to the
 * archive's location refs, mapping tables in their local definitions).
 * Elsewhere every process draws the whole timeline, so regions,
 * communicators and location refs are the same everywhere, but writes
 * only its share's event and local definition files (otf2_shard.h); the
 * event counts are summed.  Share 0 (libotf2's master) writes the global
 * definitions. */
#include <errno.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/grow.h"
#include "sinks/convert/convert.h"

#ifdef PW_HAVE_OTF2
#include <otf2/otf2.h>

#include "views/timeline.h"
#include "sinks/otf2/otf2_call_metrics.h"
#include "sinks/otf2/otf2_mpi.h"
#include "sinks/otf2/otf2_shard.h"
#include "sinks/otf2/otf2_unify.h"
#include "sinks/otf2/otf2_writer.h"

/* The archive's name in its directory: OT_ARCHIVE.otf2 (the anchor),
 * OT_ARCHIVE.def and OT_ARCHIVE/ (the event files libotf2 names by
 * location ref, which the renames below rely on). */
#define OT_ARCHIVE "traces"

/* Does this process write the files of what it draws on dataset location
 * ds_loc?  A share drawn alone draws its own only (records of locations
 * without a file of their own included: a rank's threads). */
static int ot_mine(const ot_writer *w, uint32_t ds_loc) { return w->alone || !w->owned || w->owned[ds_loc]; }

/* An event writer for OTF2 location ref of dataset location ds_loc, when
 * this process writes it; NULL (with *failed clear) when another does. */
static OTF2_EvtWriter *ot_evt_writer(ot_writer *w, uint32_t ds_loc, uint32_t ref, int *failed)
{
    int mine = ot_mine(w, ds_loc);
    OTF2_EvtWriter *ew = mine ? OTF2_Archive_GetEvtWriter(w->archive, w->ref_base + ref) : NULL;
    *failed = mine && !ew;
    return ew;
}

/* A flush of an event buffer while events are still written leaves a
 * BufferFlush event in the location's stream (libotf2): it counts in the
 * location's number of events, which readers check against what they
 * read.  Location refs are indexes into ot_writer.locs, from ref_base. */
static OTF2_FlushType ot_pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller, bool final)
{
    (void)caller;
    ot_writer *w = user;
    if (type == OTF2_FILETYPE_EVENTS && !final && loc - w->ref_base < w->n_locs)
        w->locs[loc - w->ref_base].events++;
    return OTF2_FLUSH;
}

/* The flush's end time: the location's last one (0 would end it before it began). */
static OTF2_TimeStamp ot_post_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc)
{
    ot_writer *w = user;
    return type == OTF2_FILETYPE_EVENTS && loc - w->ref_base < w->n_locs ? (OTF2_TimeStamp)w->locs[loc - w->ref_base].last_t : 0;
}

static const OTF2_FlushCallbacks ot_flush = {.otf2_pre_flush = ot_pre_flush, .otf2_post_flush = ot_post_flush};

/* Chunk memory with a budget per buffer: when a buffer holds
 * OT_CHUNKS_PER_BUFFER chunks, refusing the next one makes libotf2 flush
 * it to disk and free them, so memory stays flat however long the trace
 * (the default allocator keeps every chunk until the writer closes). */
#define OT_CHUNKS_PER_BUFFER 2
#define OT_EVENT_CHUNK (256 * 1024) /* libotf2's smallest */
/* Definition chunks as small: libotf2 clears a whole chunk when it closes a
 * location's (empty) local definition writer, and 4 MiB per location made
 * that the most of a 1300-LP conversion. */
#define OT_DEF_CHUNK (256 * 1024)

/* Event buffers of the locations open at once (when a pass draws many
 * locations, ROSS LPs): within the 128 MB peak RSS target with the rest. */
#define OT_OPEN_BUFFERS_BUDGET (64u * 1024 * 1024)

typedef struct ot_chunk {
    struct ot_chunk *next;
} ot_chunk;

typedef struct ot_chunks {
    ot_chunk *head;
    int n;
} ot_chunks;

static void *ot_allocate(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer, uint64_t size)
{
    (void)user, (void)type, (void)loc;
    ot_chunks *c = *per_buffer;
    if (!c && !(c = *per_buffer = calloc(1, sizeof *c)))
        return NULL;
    if (type == OTF2_FILETYPE_EVENTS && c->n >= OT_CHUNKS_PER_BUFFER)
        return NULL;
    /* a header before the chunk links it; chunks are handed out aligned */
    ot_chunk *k = malloc(sizeof(max_align_t) + (size_t)size);
    if (!k)
        return NULL;
    k->next = c->head;
    c->head = k;
    c->n++;
    return (char *)k + sizeof(max_align_t);
}

static void ot_free_all(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer, bool final)
{
    (void)user, (void)type, (void)loc;
    ot_chunks *c = *per_buffer;
    if (!c)
        return;
    while (c->head) {
        ot_chunk *k = c->head;
        c->head = k->next;
        free(k);
    }
    c->n = 0;
    if (final) {
        free(c);
        *per_buffer = NULL;
    }
}

static const OTF2_MemoryCallbacks ot_memory = {.otf2_allocate = ot_allocate, .otf2_free_all = ot_free_all};

/* libotf2 prints its errors unless told otherwise, and the library must not
 * print: the text of its last error is kept here for our own messages.
 * Many libotf2 calls report a failed write only there (definition writes,
 * closing files), so any error met means the archive is not whole.
 * (Process-wide, like libotf2's callback; conversions are single-threaded.) */
static char ot_last_error[512];
static int ot_any_error;

static OTF2_ErrorCode ot_error_callback(void *user, const char *file, uint64_t line, const char *function,
                                        OTF2_ErrorCode code, const char *fmt, va_list va) PW_PRINTF(6, 0);
static OTF2_ErrorCode ot_error_callback(void *user, const char *file, uint64_t line, const char *function,
                                        OTF2_ErrorCode code, const char *fmt, va_list va)
{
    (void)user, (void)file, (void)line, (void)function;
    if (ot_any_error++) /* the first error is the cause; later ones follow from it */
        return code;
    int n = snprintf(ot_last_error, sizeof ot_last_error, "%s: ", OTF2_Error_GetDescription(code));
    if (n > 0 && (size_t)n < sizeof ot_last_error && fmt)
        vsnprintf(ot_last_error + n, sizeof ot_last_error - (size_t)n, fmt, va);
    return code;
}

static pw_status ot_nomem(pw_error *err) { return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory"); }

static pw_status ot_track(void *ctx, const pw_names *nm, const pw_tl_track *tr, pw_error *err)
{
    (void)nm;
    ot_writer *w = ctx;
    if (!pw_grow_zeroed((void **)&w->tracks, &w->cap_tracks, tr->id, sizeof *w->tracks))
        return ot_nomem(err);
    struct ot_track *t = &w->tracks[tr->id];
    t->name = tr->name;
    t->kind = tr->kind;
    t->unit = tr->unit;
    if (tr->kind == PW_TL_PROCESS) { /* a location group, refs dense */
        t->owner = tr->id;
        t->loc = w->n_groups++;
        return PW_OK;
    }
    t->owner = w->tracks[tr->parent].owner; /* process track, for locations */
    if (tr->kind == PW_TL_COUNTER_TRACK) {
        t->owner = tr->parent;
        t->loc = ++w->n_metrics;
        return PW_OK;
    }
    if (!pw_grow_zeroed((void **)&w->locs, &w->cap_locs, w->n_locs, sizeof *w->locs))
        return ot_nomem(err);
    w->drawn[tr->location] = 1;
    ot_loc *l = &w->locs[w->n_locs];
    l->track = tr->id;
    l->ds_loc = tr->location;
    l->group = t->owner;
    int failed;
    l->w = ot_evt_writer(w, tr->location, w->n_locs, &failed);
    if (failed)
        return pw_fail(err, PW_E_IO, w->path, PW_NO_OFFSET, "otf2: cannot open an event writer: %s", ot_last_error);
    /* a thread of an MPI rank (a PROCESS location) speaks for that rank */
    int rank_thread = tr->kind == PW_TL_THREAD &&
                      w->ds->locs[pw_tl_process_of(w->ds, tr->location)].kind == PW_LOC_PROCESS;
    if (rank_thread && !ot_mpi_location(&w->mpi, pw_tl_rank_of(w->ds, tr->location), w->n_locs))
        return ot_nomem(err);
    t->loc = ++w->n_locs;
    return PW_OK;
}

/* The location's time for t: never before its last one. */
static OTF2_TimeStamp ot_time(ot_writer *w, ot_loc *l, int64_t t)
{
    if (t < 0) /* OTF2 times are unsigned */
        t = 0;
    if (l->events && t < l->last_t) {
        t = l->last_t;
        w->raised++;
    }
    l->last_t = t;
    if (!w->any_time || t < w->t_min)
        w->t_min = t;
    if (!w->any_time || t > w->t_max)
        w->t_max = t;
    w->any_time = 1;
    return (OTF2_TimeStamp)t;
}

static int ot_push(ot_loc *l, uint32_t region, const pw_mpi_call *call, const ot_metric_values *end)
{
    if (!pw_grow((void **)&l->stack, l->n_stack, &l->cap_stack, sizeof *l->stack))
        return 0;
    l->stack[l->n_stack++] = (struct ot_open){region, *call, *end};
    return 1;
}

/* The region of a name, defined on first use (refs must be dense), its
 * paradigm and role from its first call. */
static int region_ref(ot_writer *w, const pw_names *nm, uint32_t name, const pw_mpi_call *call, uint32_t *ref)
{
    if (!pw_grow_zeroed((void **)&w->region_of, &w->cap_regions, name, sizeof *w->region_of))
        return 0;
    if (!w->region_of[name]) {
        if (!pw_grow_zeroed((void **)&w->region_names, &w->cap_region_names, w->n_regions, sizeof *w->region_names) ||
            !pw_grow_zeroed((void **)&w->region_kinds, &w->cap_region_kinds, w->n_regions, sizeof *w->region_kinds))
            return 0;
        struct ot_region_kind *k = &w->region_kinds[w->n_regions];
        ot_mpi_region_kind(pw_names_str(nm, name, NULL), call, &k->paradigm, &k->role);
        w->region_names[w->n_regions] = name;
        w->region_of[name] = ++w->n_regions;
    }
    *ref = w->region_of[name] - 1;
    return 1;
}

/* The OTF2 location drawing track `id`.  Its writer was closed when its
 * dataset location was done; should a record of another location's cursor
 * (ROSS files hold many LPs) still come for it, it goes on in a new OTF2
 * location of the same name, with the open slices carried over. */
static ot_loc *ot_loc_of(ot_writer *w, uint32_t id)
{
    struct ot_track *t = &w->tracks[id];
    if (!w->locs[t->loc - 1].done)
        return &w->locs[t->loc - 1];
    if (!pw_grow_zeroed((void **)&w->locs, &w->cap_locs, w->n_locs, sizeof *w->locs))
        return NULL;
    ot_loc *old = &w->locs[t->loc - 1], *l = &w->locs[w->n_locs];
    *l = *old;
    old->stack = NULL;
    old->n_stack = old->cap_stack = 0;
    l->events = 0;
    l->done = 0;
    int failed;
    l->w = ot_evt_writer(w, l->ds_loc, w->n_locs, &failed);
    if (failed)
        return NULL;
    t->loc = ++w->n_locs;
    return l;
}

/* Enter, the MPI events, Leave: a slice begin writes the first two, its
 * end the last two (a collective's end and the Leave's metrics come from
 * the stack).  Call metrics follow the Enter and precede the Leave. */
static OTF2_ErrorCode ot_region_events(ot_writer *w, ot_loc *l, OTF2_TimeStamp ts, const pw_tl_event *ev,
                                       uint32_t region, const pw_mpi_call *call, const ot_metric_values *metrics)
{
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    const ot_metric_values *leave_metrics = &metrics[1];
    if (ev->kind != PW_TL_END) {
        rc = OT_WRITE(l->w, OTF2_EvtWriter_Enter(l->w, NULL, ts, region));
        l->events++;
        if (rc == OTF2_SUCCESS)
            rc = ot_call_metrics_write(l->w, ts, &metrics[0], &l->events);
        if (rc == OTF2_SUCCESS && call->op != PW_COLL_NONE)
            rc = ot_mpi_collective(&w->mpi, l->w, ts, ev->location, call, 0, &l->events);
    }
    if (ev->kind == PW_TL_END) { /* a receive ending here: its length is the call's */
        const struct ot_open *o = &l->stack[l->n_stack - 1];
        region = o->region;
        call = &o->call;
        leave_metrics = &o->end;
    }
    if (rc == OTF2_SUCCESS)
        rc = ot_mpi_events(&w->mpi, l->w, ts, ev, call, &l->events);
    if (ev->kind == PW_TL_BEGIN || rc != OTF2_SUCCESS)
        return rc;
    if (ev->kind == PW_TL_END)
        l->n_stack--;
    if (call->op != PW_COLL_NONE)
        rc = ot_mpi_collective(&w->mpi, l->w, ts, ev->location, call, 1, &l->events);
    if (rc == OTF2_SUCCESS)
        rc = ot_call_metrics_write(l->w, ts, leave_metrics, &l->events);
    if (rc == OTF2_SUCCESS)
        rc = OT_WRITE(l->w, OTF2_EvtWriter_Leave(l->w, NULL, ts, region));
    l->events++;
    return rc;
}

static pw_status ot_event(void *ctx, const pw_names *nm, const pw_tl_event *ev, pw_error *err)
{
    ot_writer *w = ctx;
    const struct ot_track *t = &w->tracks[ev->track];
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    ot_loc *l = ot_loc_of(w, ev->kind == PW_TL_COUNTER ? t->owner : ev->track);
    if (!l)
        return pw_fail(err, PW_E_IO, w->path, PW_NO_OFFSET, "otf2: cannot open an event writer: %s", ot_last_error);
    if (ev->kind == PW_TL_COUNTER) {
        OTF2_Type type = OTF2_TYPE_DOUBLE;
        OTF2_MetricValue v = {.floating_point = ev->value};
        OTF2_TimeStamp ts = ot_time(w, l, ev->t);
        rc = OT_WRITE(l->w, OTF2_EvtWriter_Metric(l->w, NULL, ts, t->loc - 1, 1, &type, &v));
        l->events++;
    } else {
        OTF2_TimeStamp ts = ot_time(w, l, ev->t);
        uint32_t region = 0;
        pw_mpi_call call;
        ot_metric_values metrics[2]; /* at Enter, at Leave */
        if (!pw_mpi_calls_read(&w->calls, ev->rec, &call) || (ev->kind != PW_TL_END && !region_ref(w, nm, ev->name, &call, &region)) ||
            !ot_call_metrics_read(&w->call_metrics, ev->kind != PW_TL_END ? ev->rec : NULL, &w->n_metrics,
                                  &metrics[0], &metrics[1]))
            return ot_nomem(err);
        /* messages go inside their region: after Enter, before Leave */
        if (ev->kind == PW_TL_BEGIN && !ot_push(l, region, &call, &metrics[1]))
            return ot_nomem(err);
        rc = ot_region_events(w, l, ts, ev, region, &call, metrics);
        if (ev->rec && ev->kind != PW_TL_END)
            pw_comm_replay_feed(&w->mpi.replay, ev->rec); /* after its own events: they name the old handles */
    }
    if (rc != OTF2_SUCCESS)
        return pw_fail(err, PW_E_IO, w->path, PW_NO_OFFSET, "otf2: %s", ot_last_error[0] ? ot_last_error : OTF2_Error_GetDescription(rc));
    return PW_OK;
}

/* Locations whose records were all lost (or that had none) still are
 * locations of the trace: they get an (empty) event file now, and are
 * defined in a group of their own.  ot_loc.track 0 marks them. */
static pw_status ot_add_empty_locations(ot_writer *w, pw_error *err)
{
    for (size_t i = 0; i < w->ds->n_locs; i++) {
        if (!w->ds->locs[i].has_records || w->drawn[i] || (w->alone && w->owned && !w->owned[i]))
            continue; /* drawn alone: another share's are its own */
        if (!pw_grow_zeroed((void **)&w->locs, &w->cap_locs, w->n_locs, sizeof *w->locs))
            return ot_nomem(err);
        ot_loc *l = &w->locs[w->n_locs];
        l->ds_loc = (uint32_t)i;
        int failed;
        l->w = ot_evt_writer(w, l->ds_loc, w->n_locs++, &failed);
        if (failed)
            return pw_fail(err, PW_E_IO, w->path, PW_NO_OFFSET, "otf2: cannot open an event writer: %s", ot_last_error);
    }
    return PW_OK;
}

static void ot_define_empty_locations(ot_writer *w, OTF2_GlobalDefWriter *g, OTF2_StringRef *next_string)
{
    OTF2_LocationGroupRef group = w->n_groups;
    int any = 0;
    for (uint32_t i = 0; i < w->n_locs; i++) {
        if (w->locs[i].track)
            continue;
        if (!any++) {
            OTF2_GlobalDefWriter_WriteString(g, *next_string, "locations without events");
            OTF2_GlobalDefWriter_WriteLocationGroup(g, group, (*next_string)++, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                    OTF2_UNDEFINED_LOCATION_GROUP);
        }
        OTF2_GlobalDefWriter_WriteString(g, *next_string, w->ds->locs[w->locs[i].ds_loc].path);
        OTF2_GlobalDefWriter_WriteLocation(g, i, (*next_string)++, OTF2_LOCATION_TYPE_CPU_THREAD, 0, group);
    }
}

/* Strings are name ids - 1; extra strings follow the names. */
pw_status ot_definitions(ot_writer *w, const pw_names *nm, pw_error *err)
{
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(w->archive);
    if (!g)
        return pw_fail(err, PW_E_IO, w->path, PW_NO_OFFSET, "otf2: cannot write definitions: %s", ot_last_error);
    uint32_t n = nm->n_items;
    OTF2_StringRef s_empty = n, s_root = n + 1, s_class = n + 2, next_string = n + 3;
    int64_t t0 = w->any_time ? w->t_min : 0;
    OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, (uint64_t)t0,
                                              (uint64_t)(w->t_max - t0) + 1, OTF2_UNDEFINED_TIMESTAMP);
    for (uint32_t id = 1; id <= n; id++)
        OTF2_GlobalDefWriter_WriteString(g, id - 1, pw_names_str(nm, id, NULL));
    OTF2_GlobalDefWriter_WriteString(g, s_empty, "");
    OTF2_GlobalDefWriter_WriteString(g, s_root, "dataset");
    OTF2_GlobalDefWriter_WriteString(g, s_class, "perfweave");
    for (uint32_t r = 0; r < w->n_regions; r++) {
        OTF2_StringRef name = w->region_names[r] - 1;
        OTF2_GlobalDefWriter_WriteRegion(g, r, name, name, s_empty, w->region_kinds[r].role,
                                         w->region_kinds[r].paradigm, OTF2_REGION_FLAG_NONE, s_empty, 0, 0);
    }
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, s_root, s_class, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (uint32_t id = 1; id <= w->n_tracks_seen; id++) {
        const struct ot_track *t = &w->tracks[id];
        if (t->kind == PW_TL_PROCESS)
            OTF2_GlobalDefWriter_WriteLocationGroup(g, t->loc, t->name - 1, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                    OTF2_UNDEFINED_LOCATION_GROUP);
    }
    for (uint32_t i = 0; i < w->n_locs; i++)
        if (w->locs[i].track)
            OTF2_GlobalDefWriter_WriteLocation(g, i, w->tracks[w->locs[i].track].name - 1, OTF2_LOCATION_TYPE_CPU_THREAD,
                                           w->locs[i].events, w->tracks[w->locs[i].group].loc);
    for (uint32_t id = 1; id <= w->n_tracks_seen; id++) {
        const struct ot_track *t = &w->tracks[id];
        if (t->kind != PW_TL_COUNTER_TRACK)
            continue;
        OTF2_StringRef unit = next_string++;
        OTF2_GlobalDefWriter_WriteString(g, unit, t->unit ? t->unit : "");
        OTF2_MetricMemberRef member = t->loc - 1;
        OTF2_GlobalDefWriter_WriteMetricMember(g, member, t->name - 1, s_empty, OTF2_METRIC_TYPE_OTHER,
                                               OTF2_METRIC_ABSOLUTE_POINT, OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0,
                                               unit);
        OTF2_GlobalDefWriter_WriteMetricClass(g, member, 1, &member, OTF2_METRIC_ASYNCHRONOUS,
                                              OTF2_RECORDER_KIND_ABSTRACT);
    }
    ot_call_metrics_define(&w->call_metrics, g, &next_string, s_empty);
    ot_define_empty_locations(w, g, &next_string);
    ot_mpi_definitions(&w->mpi, g, &next_string);
    return PW_OK;
}

/* Whether every process of an archive written together got this far
 * (each calls it once, failed or not); then each location's event count
 * from the process that wrote it (the others drew it without its flushes). */
static int ot_agree(ot_writer *w, int failed)
{
    w->agreed = 1;
    const pw_collectives *c = w->together;
    if (!c)
        return !failed;
    uint64_t any = failed != 0, counts[1024];
    c->sum(c->ctx, &any, 1);
    for (uint32_t from = 0; !any && !w->alone && from < w->n_locs; from += 1024) {
        uint32_t n = w->n_locs - from < 1024 ? w->n_locs - from : 1024;
        for (uint32_t i = 0; i < n; i++)
            counts[i] = !w->owned || w->owned[w->locs[from + i].ds_loc] ? w->locs[from + i].events : 0;
        c->sum(c->ctx, counts, n);
        for (uint32_t i = 0; i < n; i++)
            w->locs[from + i].events = counts[i];
    }
    return !any;
}

/* Once the timeline has begun, how it draws is known (every process
 * alike): a share drawn alone writes under temporary location refs (its
 * own, until unified) and feeds its communicator replay without a census
 * of every location. */
static void ot_drawing_known(ot_writer *w)
{
    w->alone = w->together && w->ds->run->timeline_alone;
    w->ref_base = w->alone ? ((uint64_t)w->ds->run->share_index + 1) << 40 : 0;
    w->mpi.fed = w->alone;
}

/* The communicator replay, before the first event (or at the end, for a
 * share that drew nothing: the unification needs its rank count). */
static pw_status ot_replay_begin(ot_writer *w, pw_error *err)
{
    if (w->replay_begun++)
        return PW_OK;
    ot_drawing_known(w);
    return w->alone ? pw_comm_replay_init_fed(&w->mpi.replay, w->ds, err) : pw_comm_replay_init(&w->mpi.replay, w->ds, err);
}

/* A mapping table of a location's local definitions: refs 0 .. n-1 of
 * this process to map[ref] (none when every ref is the archive's). */
static int ot_mapping(OTF2_DefWriter *d, OTF2_MappingType type, const uint32_t *map, uint32_t n)
{
    uint32_t same = 0;
    while (same < n && map[same] == same)
        same++;
    if (same == n)
        return 1;
    OTF2_IdMap *m = OTF2_IdMap_CreateFromUint32Array(n, map, false);
    int ok = m && OTF2_DefWriter_WriteMappingTable(d, type, m) == OTF2_SUCCESS;
    if (m)
        OTF2_IdMap_Free(m);
    return ok;
}

/* The local definition files of this process's locations: empty, or for a
 * share drawn alone (u) the maps of its regions, metrics and
 * communicators to the archive's, under the locations' archive refs.
 * Every process calls it once (libotf2's collectives). */
static pw_status ot_local_definitions(ot_writer *w, const ot_unified *u, pw_error *err)
{
    w->defs_written = 1;
    int ok = 1;
    OTF2_Archive_OpenDefFiles(w->archive);
    for (uint32_t i = 0; i < w->n_locs; i++) {
        OTF2_DefWriter *d = ot_mine(w, w->locs[i].ds_loc)
                                ? OTF2_Archive_GetDefWriter(w->archive, u ? u->locs[i] : w->ref_base + i)
                                : NULL;
        if (d && u)
            ok = ok && ot_mapping(d, OTF2_MAPPING_REGION, u->regions, w->n_regions) &&
                 ot_mapping(d, OTF2_MAPPING_METRIC, u->metrics, w->n_metrics) &&
                 ot_mapping(d, OTF2_MAPPING_COMM, u->comms, w->mpi.n_comms);
        if (d)
            OTF2_Archive_CloseDefWriter(w->archive, d);
    }
    OTF2_Archive_CloseDefFiles(w->archive);
    return ok ? PW_OK : pw_fail(err, PW_E_IO, w->path, PW_NO_OFFSET, "otf2: cannot write mapping tables: %s", ot_last_error);
}

/* The event files of this process's locations under their archive refs:
 * libotf2 names a location's file by its ref, which the file does not
 * hold, so a file written under a temporary ref is the location's once
 * renamed.  Every location drawn here had its writer, so a file missing
 * is an error too (the archive would lack the location's events). */
static pw_status ot_rename_events(const ot_writer *w, const ot_unified *u, pw_error *err)
{
    char from[4200], to[4200];
    for (uint32_t i = 0; i < w->n_locs; i++) {
        snprintf(from, sizeof from, "%s/" OT_ARCHIVE "/%llu.evt", w->path, (unsigned long long)(w->ref_base + i));
        snprintf(to, sizeof to, "%s/" OT_ARCHIVE "/%llu.evt", w->path, (unsigned long long)u->locs[i]);
        if (rename(from, to) != 0)
            return pw_fail_errno(err, from, "cannot rename an OTF2 event file");
    }
    return PW_OK;
}

/* A share drawn alone: the definitions of every process unified
 * (otf2_unify.h), its files under the archive's refs with their maps, and
 * share 0 writes the global definitions. */
static pw_status ot_finish_alone(ot_writer *w, pw_error *err)
{
    ot_unified u;
    if (!ot_unify(w, w->names, &u))
        return pw_fail(err, PW_E_NOMEM, w->path, PW_NO_OFFSET, "otf2: the processes could not unify their definitions (out of memory)");
    pw_status s = ot_rename_events(w, &u, err);
    pw_status d = ot_local_definitions(w, &u, s == PW_OK ? err : NULL);
    s = s != PW_OK ? s : d;
    if (s == PW_OK && w->ds->run->share_index == 0)
        s = ot_definitions(&u.g, &u.names, err);
    ot_unified_free(&u);
    return s;
}

/* At the end of the run, while the names live: events closed, then the
 * definitions (by share 0 alone when processes write together: libotf2's
 * master). */
static pw_status ot_close_events(ot_writer *w, pw_error *err);
static pw_status ot_finish(void *ctx, const pw_names *nm, pw_error *err)
{
    ot_writer *w = ctx;
    pw_status s = ot_replay_begin(w, err);
    if (s == PW_OK)
        s = ot_close_events(w, err);
    if (!ot_agree(w, s != PW_OK))
        return s != PW_OK ? s : pw_fail(err, PW_E_IO, w->path, PW_NO_OFFSET, "otf2: another process failed");
    w->names = nm;
    if (w->alone)
        return ot_finish_alone(w, err);
    s = ot_local_definitions(w, NULL, err);
    return s == PW_OK && (!w->together || w->ds->run->share_index == 0) ? ot_definitions(w, nm, err) : s;
}

/* A location is drawn (run by location): its writers are closed now, so
 * only one location's buffers are in memory at a time. */
static pw_status ot_location_done(void *ctx, uint32_t loc, pw_error *err)
{
    ot_writer *w = ctx;
    (void)loc;
    for (; w->open_from < w->n_locs; w->open_from++) {
        ot_loc *l = &w->locs[w->open_from];
        OTF2_EvtWriter *ew = l->w;
        l->w = NULL; /* gone even when its last flush failed; its stack stays: ot_loc_of may carry it over */
        l->done = 1;
        if (ew && OTF2_Archive_CloseEvtWriter(w->archive, ew) != OTF2_SUCCESS) {
            w->open_from++;
            return pw_fail(err, PW_E_IO, w->path, PW_NO_OFFSET, "otf2: cannot write events: %s", ot_last_error);
        }
    }
    return PW_OK;
}

static pw_status ot_track_seen(void *ctx, const pw_names *nm, const pw_tl_track *tr, pw_error *err)
{
    ot_writer *w = ctx;
    pw_status s = ot_replay_begin(w, err);
    w->n_tracks_seen = tr->id;
    return s == PW_OK ? ot_track(ctx, nm, tr, err) : s;
}

/* Closes the event writers and files. */
static pw_status ot_close_events(ot_writer *w, pw_error *err)
{
    pw_status s = ot_add_empty_locations(w, err);
    w->closed = 1;
    for (uint32_t i = 0; i < w->n_locs; i++) {
        free(w->locs[i].stack);
        w->locs[i].stack = NULL;
        OTF2_EvtWriter *ew = w->locs[i].w;
        w->locs[i].w = NULL; /* closed once, whatever the outcome */
        if (ew && OTF2_Archive_CloseEvtWriter(w->archive, ew) != OTF2_SUCCESS && s == PW_OK)
            s = pw_fail(err, PW_E_IO, w->path, PW_NO_OFFSET, "otf2: cannot write events: %s", ot_last_error);
    }
    OTF2_Archive_CloseEvtFiles(w->archive);
    return s;
}

static pw_status ot_write_archive(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);

/* Shares drawn alone count their own: the notes are the sums. */
static void ot_sum_notes(ot_writer *w)
{
    if (!w->alone)
        return;
    uint64_t v[3] = {w->raised, w->call_metrics.calls, w->call_metrics.left_out};
    w->together->sum(w->together->ctx, v, 3);
    w->raised = v[0];
    w->call_metrics.calls = v[1];
    w->call_metrics.left_out = v[2];
}

/* out ready for a new archive: a directory that holds none.  Processes
 * writing together check in share 0 only (the others would see its files). */
static pw_status ot_prepare(pw_dataset *ds, const char *out, pw_error *err)
{
    if (mkdir(out, 0777) != 0 && errno != EEXIST)
        return pw_fail_errno(err, out, "cannot create directory");
    char anchor[4096];
    struct stat st;
    for (int i = 0; i < 2 && (!ds->run->collectives || ds->run->share_index == 0); i++) { /* the anchor, or an earlier run's events */
        snprintf(anchor, sizeof anchor, "%s/%s", out, i ? OT_ARCHIVE : OT_ARCHIVE ".otf2");
        if (stat(anchor, &st) == 0)
            return pw_fail(err, PW_E_USAGE, anchor, PW_NO_OFFSET, "an OTF2 archive is already there: remove it first");
    }
    return PW_OK;
}

/* Processes writing together go on only if all can: s, or a failure when
 * another process failed. */
static pw_status ot_all_ok(const pw_dataset *ds, pw_status s, const char *out, pw_error *err)
{
    const pw_collectives *c = ds->run->collectives;
    uint64_t failed = s != PW_OK;
    if (c)
        c->sum(c->ctx, &failed, 1);
    if (s == PW_OK && failed)
        s = pw_fail(err, PW_E_IO, out, PW_NO_OFFSET, "otf2: another process could not start the archive");
    return s;
}

pw_status pw_convert_otf2(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err)
{
    pw_status s = ot_all_ok(ds, ot_prepare(ds, out, err), out, err);
    if (s != PW_OK)
        return s;
    ot_last_error[0] = '\0';
    ot_any_error = 0;
    OTF2_ErrorCallback previous = OTF2_Error_RegisterCallback(ot_error_callback, NULL);
    s = ot_write_archive(ds, out, rep, err);
    OTF2_Error_RegisterCallback(previous, NULL);
    return s;
}

/* The timeline drawn into the archive.  A share is drawn alone only
 * with the unification's gather and scatter (otf2_unify.c): collectives
 * without them (another program's) hide their exchange from the
 * timeline, which then draws every location in every process, each
 * writing its share's files, as before shares were drawn alone. */
static pw_status ot_draw(pw_dataset *ds, const pw_tl_sink *sink, pw_convert_report *rep, pw_error *err)
{
    const pw_collectives *c = ds->run->collectives;
    if (!c || (c->gatherv && c->scatterv))
        return pw_timeline_run_by_location(ds, sink, rep, err);
    pw_collectives no_exchange = *c;
    no_exchange.alltoallv = NULL;
    ds->run->collectives = &no_exchange;
    pw_status s = pw_timeline_run_by_location(ds, sink, rep, err);
    ds->run->collectives = c;
    return s;
}

/* The archive at out (a directory that holds no archive yet). */
static pw_status ot_write_archive(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err)
{
    ot_writer w;
    memset(&w, 0, sizeof w);
    w.path = out;
    w.ds = ds;
    w.drawn = calloc(ds->n_locs ? ds->n_locs : 1, 1);
    int whole = 1;
    if (ds->run->collectives) {
        w.together = ds->run->collectives;
        w.owned = pw_ds_share_owned(ds, &whole);
    }
    pw_status s = w.drawn && (whole || w.owned) && pw_mpi_calls_init(&w.calls, ds) ? PW_OK : ot_nomem(err);
    if (s == PW_OK) {
        w.archive = OTF2_Archive_Open(out, OT_ARCHIVE, OTF2_FILEMODE_WRITE, OT_EVENT_CHUNK, OT_DEF_CHUNK,
                                      OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
        if (!w.archive)
            s = pw_fail(err, PW_E_IO, out, PW_NO_OFFSET, "otf2: cannot create the archive: %s", ot_last_error);
    }
    s = ot_all_ok(ds, s, out, err);
    if (s != PW_OK) {
        if (w.archive)
            OTF2_Archive_Close(w.archive);
        free(w.drawn);
        free(w.owned);
        pw_mpi_calls_free(&w.calls);
        return s;
    }
    OTF2_Archive_SetFlushCallbacks(w.archive, &ot_flush, &w);
    OTF2_Archive_SetMemoryCallbacks(w.archive, &ot_memory, NULL);
    if (w.together)
        w.together->otf2_archive(w.together->ctx, w.archive);
    else
        OTF2_Archive_SetSerialCollectiveCallbacks(w.archive);
    OTF2_Archive_OpenEvtFiles(w.archive);
    pw_tl_sink sink = {&w, ot_track_seen, ot_event, ot_finish, ot_location_done,
                       OT_OPEN_BUFFERS_BUDGET / (OT_CHUNKS_PER_BUFFER * OT_EVENT_CHUNK)};
    s = ot_draw(ds, &sink, rep, err);
    ot_drawing_known(&w);
    if (!w.closed)
        ot_close_events(&w, NULL);
    if (!w.agreed) /* the run failed before its end: the other processes learn it */
        ot_agree(&w, 1);
    if (!w.defs_written)
        ot_local_definitions(&w, NULL, NULL);
    ot_sum_notes(&w);
    if (OTF2_Archive_Close(w.archive) != OTF2_SUCCESS && s == PW_OK)
        s = pw_fail(err, PW_E_IO, out, PW_NO_OFFSET, "otf2: cannot close the archive: %s", ot_last_error);
    if (ot_any_error && s == PW_OK)
        s = pw_fail(err, PW_E_IO, out, PW_NO_OFFSET, "otf2: %s", ot_last_error);
    pw_convert_note(rep, "times that went back on a location, raised to keep OTF2's order", w.raised, 0);
    pw_convert_note(rep, "calls' CPU times and hardware counters, written as metrics at their Enter and Leave",
                    w.call_metrics.calls, 0);
    pw_convert_note(rep, "call metrics beyond 8 per call, left out", w.call_metrics.left_out, 0);
    ot_call_metrics_free(&w.call_metrics);
    ot_mpi_free(&w.mpi);
    pw_mpi_calls_free(&w.calls);
    free(w.tracks);
    free(w.drawn);
    free(w.owned);
    free(w.locs);
    free(w.region_of);
    free(w.region_names);
    free(w.region_kinds);
    return s;
}
#else
pw_status pw_convert_otf2(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err)
{
    (void)ds;
    (void)rep;
    return pw_fail(err, PW_E_USAGE, out, PW_NO_OFFSET, "this build has no OTF2 (libotf2-trace-dev)");
}
#endif
