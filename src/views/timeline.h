/* timeline.h — turns the merged record stream of any dataset into what
 * timeline viewers draw: tracks (process, thread, child, counter) and
 * events on them (slice begin/end, instant, counter value) with flows.
 * The Perfetto and Chrome writers are thin encoders of this stream, so a
 * new input format converts with no per-format code.
 *
 * How records map, from their schema (timeline_schema.c):
 *   BEGIN / END   slices on a track per (location, group).  The group is the
 *                 type name without a trailing '[' or ']' ("6W[" -> "6W");
 *                 the empty group is the thread track itself.  An END with
 *                 no open slice in its group becomes an instant (counted).
 *   SPAN          a slice whose end is the field "end" (same clock) or
 *                 "duration"/"dur"; overlapping spans go to child lanes so
 *                 every track nests.  Ends are emitted in time order.
 *   INSTANT, MESSAGE   instants.  ovni: a lowercase/uppercase value pair of
 *                 one model category ("6Wt"/"6WT", not model 'O') is a
 *                 begin/end pair in that category's group.
 *   SAMPLE        one counter track per (location, schema, numeric field),
 *                 with the field's unit (PW_TL_COUNT_UNIT when it has
 *                 none); identifiers (integer fields named "...id": ROSS
 *                 peid, kpid, lpid) are not drawn.
 *   VALUE, META, untimed records   not representable: counted as lost.
 * Flows (MPI messages): a schema with a field "dest" sends, one with
 * "source" receives ("tag", "comm" optional; "request" on a receive posts
 * it, a schema with only "request" completes it) — see msgmatch.h.
 * A flow starts on the begin of the sending record's slice and ends where
 * its receive completes: on the END of the receiving (or completing)
 * SPAN's slice, so in time order every flow starts before it ends; other
 * records carry their receive ends on their own event.
 * A text field "name" (HPCToolkit frames, say) names the slice or instant
 * instead of the record type.  Virtual time is drawn as ns x
 * PW_TL_VT_SCALE. */
#ifndef PW_VIEWS_TIMELINE_H
#define PW_VIEWS_TIMELINE_H
#include "views/msgmatch.h"
#include "core/names.h"
#include "model/dataset.h"

#define PW_TL_VT_SCALE 1000.0
/* The unit of counters whose field has none: a plain count. */
#define PW_TL_COUNT_UNIT "count"
/* No request: a blocking call. */
#define PW_TL_NO_REQUEST INT64_MIN
/* bytes_in of a receive whose status gives no size. */
#define PW_TL_NO_BYTES UINT64_MAX

typedef enum pw_tl_track_kind { PW_TL_PROCESS, PW_TL_THREAD, PW_TL_CHILD, PW_TL_COUNTER_TRACK } pw_tl_track_kind;

typedef struct pw_tl_track {
    uint32_t id;     /* 1, 2, ... in declaration order */
    uint32_t parent; /* 0: none */
    pw_tl_track_kind kind;
    uint32_t location; /* dataset location it belongs to */
    uint32_t name;     /* name id */
    const char *unit;  /* counters: the field's unit, or PW_TL_COUNT_UNIT */
} pw_tl_track;

typedef enum pw_tl_kind { PW_TL_BEGIN, PW_TL_END, PW_TL_INSTANT, PW_TL_COUNTER } pw_tl_kind;

typedef struct pw_tl_event {
    pw_tl_kind kind;
    uint32_t track;
    uint32_t location; /* whose record it is */
    uint32_t name;     /* BEGIN and INSTANT: name id */
    int64_t t;         /* ns */
    double value;      /* COUNTER */
    uint64_t flow_out; /* 0: none */
    const pw_msg *msg_out; /* flow_out's message (comm, source, dest, tag) */
    const uint64_t *flows_in; /* flows ending here */
    const pw_msg *const *msgs_in; /* their messages */
    const uint64_t *bytes_in;     /* their received bytes (a status's "bytes"), or PW_TL_NO_BYTES */
    const int64_t *requests_in;   /* the requests that completed them, or PW_TL_NO_REQUEST (blocking) */
    size_t n_flows_in;
    int64_t request_out;          /* flow_out's request (MPI_Isend), or PW_TL_NO_REQUEST */
    int64_t request_posted;       /* a receive posted here (MPI_Irecv), or PW_TL_NO_REQUEST */
    const int64_t *sends_done;    /* requests of nonblocking sends completed here */
    size_t n_sends_done;
    const pw_record *rec; /* NULL for the ends of SPAN records */
} pw_tl_event;

/* A writer: told of each track before its first event.  Both return
 * PW_OK or an error (err set).  `names` resolves name ids. */
typedef struct pw_tl_sink {
    void *ctx;
    pw_status (*track)(void *ctx, const pw_names *names, const pw_tl_track *tr, pw_error *err);
    pw_status (*event)(void *ctx, const pw_names *names, const pw_tl_event *ev, pw_error *err);
    /* Called once after the last event, while names still live (writers
     * whose definitions come last); may be NULL. */
    pw_status (*finish)(void *ctx, const pw_names *names, pw_error *err);
    /* pw_timeline_run_by_location only: the locations drawn since the last
     * call have no more events (loc: the one location, or UINT32_MAX for a
     * pass over several); may be NULL. */
    pw_status (*location_done)(void *ctx, uint32_t loc, pw_error *err);
    /* pw_timeline_run_by_location only: how many locations the writer can
     * keep open at once (its memory budget), when cursors yield records of
     * many locations; 0: 16. */
    uint32_t pass_locations;
} pw_tl_sink;

/* The rest of a drawing, handed to a decoration: runs the timeline (and
 * the decorations after this one) into sink, once. */
typedef pw_status (*pw_tl_rest_fn)(void *rest_ctx, const pw_tl_sink *sink, pw_error *err);

/* What an analysis adds to a timeline (analysis.h, `decorate`): slices,
 * tracks or flows of its own among the records' (MPI wait states inside
 * their calls, the critical path), drawn by every timeline writer without
 * the writer naming the analysis.  The decoration puts a sink of its own
 * in front of the writer's and passes the rest of the drawing through it;
 * it keeps tracks declared before their first event and events in time
 * order. */
typedef struct pw_tl_decoration {
    /* 1 when it draws something on ds's timeline (its option is set). */
    int (*offers)(const pw_dataset *ds);
    /* Calls rest(rest_ctx, s, err) once, s being sink or a sink in front
     * of it; returns what that returns or an error of its own. */
    pw_status (*draw)(pw_dataset *ds, const pw_tl_sink *sink, pw_tl_rest_fn rest, void *rest_ctx,
                      pw_error *err);
} pw_tl_decoration;

/* d as an int64, saturated (NaN: 0): a cast out of range is undefined. */
static inline int64_t pw_tl_int64(double d)
{
    if (!(d == d))
        return 0;
    if (d >= 9.2e18)
        return INT64_MAX;
    if (d <= -9.2e18)
        return INT64_MIN;
    return (int64_t)d;
}

/* Tracks named across processes: slot * (locations + 1) + location + 1,
 * slot 0 for a process's track, 1 for a thread's, 2, 3 ... for a
 * location's other tracks in the order they are declared; a location's
 * tracks are declared in the order of its own records, so a process
 * drawing some locations names their tracks as a serial run does.  A
 * writer feeds every track it is told of to pw_tl_uuid_of. */
typedef struct pw_tl_uuids {
    size_t n_locs;
    uint32_t *n_children; /* per location: tracks in slots 2, 3 ... */
} pw_tl_uuids;
int pw_tl_uuids_init(pw_tl_uuids *u, const pw_dataset *ds); /* 0: out of memory */
void pw_tl_uuids_free(pw_tl_uuids *u);
uint64_t pw_tl_uuid_of(pw_tl_uuids *u, const pw_tl_track *tr);

/* A flow's name across processes: its message's channel (comm, source,
 * destination, tag) and its sequence number on the channel, mixed into 64
 * bits (never 0).  Sender and receiver compute it alike, whichever
 * process draws them; flow_id is the timeline's (flow_out, flows_in). */
uint64_t pw_tl_flow_uuid(const pw_msg *m, uint64_t flow_id);

/* The location drawn as loc's process: its nearest PROCESS ancestor (or
 * itself), else its top-level ancestor. */
uint32_t pw_tl_process_of(const pw_dataset *ds, uint32_t loc);

/* The MPI rank of loc: the id of its process location (its index when
 * the id is unknown). */
int64_t pw_tl_rank_of(const pw_dataset *ds, uint32_t loc);

/* Runs the whole dataset (merged in time order) through the timeline into
 * sink, and fills rep's counts and items (what could not be drawn, what
 * was drawn in another form). */
pw_status pw_timeline_run(pw_dataset *ds, const pw_tl_sink *sink, pw_convert_report *rep,
                          pw_error *err);

/* The same drawing, one location after the other (in location order, each
 * in its file order) instead of merged in time: for writers that keep
 * per-location state open (OTF2's buffers) and can close it when told
 * location_done, so memory stays flat in the number of locations too.
 * When cursors yield records of other locations (ROSS: a file's cursor
 * yields many LPs), every cursor is read once per pass and each pass draws
 * a bounded group of locations.  Message matching does not depend on the
 * order across locations.  (Damage met is then noted once per pass.)
 * Where every process can draw its share alone (timeline_share.h), only
 * this process's share is drawn, with the account summed over them. */
pw_status pw_timeline_run_by_location(pw_dataset *ds, const pw_tl_sink *sink, pw_convert_report *rep,
                                      pw_error *err);
#endif
