/* otf2.h — the OTF2 reader's shared state: the archive's global
 * definitions as tables indexed by their OTF2 reference, the event types
 * as data (otf2_events.def), and the cursor over one location's events.
 * Everything goes through Debian's libotf2; its own messages are kept
 * (otf2_errors.c), never printed. */
#ifndef PW_FORMATS_OTF2_H
#define PW_FORMATS_OTF2_H
#include <otf2/otf2.h>
#include <stdint.h>

#include "model/dataset.h"
#include "model/mpi_comms.h"
#include "model/mpi_profile.h"

/* A definition table: elements of `size` bytes indexed by reference,
 * grown on demand; an index never defined reads as zeros. */
typedef struct ot_table {
    void *items;
    uint32_t n, cap;
    size_t size;
} ot_table;

/* Names are string references, resolved when used (ot_string): a
 * definition may name a string defined after it. */
typedef struct ot_region {
    uint32_t name;
    uint32_t role, paradigm;
} ot_region;

typedef struct ot_node { /* system tree node */
    uint32_t name, cls;
    uint32_t parent; /* OTF2_UNDEFINED_SYSTEM_TREE_NODE: none */
    int32_t loc;     /* its pw location, -1 before it is added */
    int defined;
} ot_node;

typedef struct ot_lgroup {
    uint32_t name;
    uint32_t type, parent;
    int32_t loc;
    int defined;
} ot_lgroup;

typedef struct ot_group {
    uint32_t name;
    uint32_t type, paradigm;
    uint64_t *members;
    uint32_t n_members;
} ot_group;

typedef struct ot_comm {
    uint32_t name;
    uint32_t group, parent;
    int defined;
} ot_comm;

typedef struct ot_metric_member {
    uint32_t name, unit;
    int defined;
    uint8_t type, mode, value_type, base;
    int64_t exponent;
} ot_metric_member;

/* A metric class, or an instance (same reference space) pointing to one. */
typedef struct ot_metric {
    uint32_t *members;
    uint8_t n_members;
    uint32_t cls;       /* instance: its class; class: itself */
    uint64_t recorder;  /* instance: the recording location (an OTF2 location id), else UINT64_MAX */
    uint32_t scope_type;
    uint64_t scope;
    int defined, is_instance;
} ot_metric;

typedef struct ot_named { /* parameters, RMA windows, I/O handles, attributes */
    uint32_t name;
    int defined;
} ot_named;

/* One OTF2 location (a record location of the dataset). */
typedef struct ot_location {
    uint64_t id;
    uint32_t name, type, group;
    uint64_t n_events;
    int32_t loc;        /* its pw location */
    int32_t world_rank; /* position in the MPI locations group, -1: none */
} ot_location;

/* How a field of an event is stored and shown (otf2_events.def). */
typedef enum ot_enc {
    OT_U64 = 'u', OT_I64 = 'i', OT_BYTES = 'b', /* a size in bytes */
    OT_TIME = 't',                             /* a timestamp, shown in ns */
    OT_REGION = 'r', OT_STRING = 's', OT_COMM = 'c', OT_WIN = 'w', OT_PARAM = 'p',
    OT_GROUP = 'g', OT_HANDLE = 'h', OT_REF = 'x', /* another reference, as a number */
    OT_RANK = 'k',                              /* a rank in the event's communicator */
    OT_WORLD = 'W',                             /* that rank in MPI_COMM_WORLD */
    OT_COMM_REF = 'C',                          /* a communicator as its reference number,
                                                   as messages carry it: the MPI analyses
                                                   key communicators by reference */
    OT_METRIC = 'm', OT_VALUES = 'v',           /* Metric's reference and values */
    OT_ARGS = 'a'                               /* ProgramBegin's arguments */
} ot_enc;

#define OT_MAX_ARGS 8
/* One event as the callbacks leave it: its type and raw fields. */
typedef struct ot_event {
    uint16_t type;
    uint64_t time, position;
    uint64_t a[OT_MAX_ARGS];
    int64_t self_rank; /* the location's world rank, -1: none */
    /* Metric values and program arguments: n_extra of them, from
     * extra_off of the cursor's pool until next() points extra there. */
    uint32_t n_extra, extra_off;
    const uint64_t *extra;
    const uint8_t *extra_types; /* Metric: each value's OTF2_Type */
} ot_event;

/* The event types, from otf2_events.def. */
enum {
#define OT_EV(Name, ...) OT_EV_##Name,
#include "formats/otf2/otf2_events.def"
#undef OT_EV
    OT_N_EVENTS
};

typedef struct ot_event_type {
    const char *name; /* otf2-print's */
    pw_record_kind kind;
    const char *description;
    const char *fields; /* "name:enc name:enc ..." */
} ot_event_type;
extern const ot_event_type ot_event_types[OT_N_EVENTS];

typedef struct ot_dataset {
    char *anchor;
    char *dir; /* the archive's directory (the anchor's) */
    uint64_t resolution, offset, length; /* ClockProperties */
    ot_table strings, regions, nodes, lgroups, groups, comms, members, metrics, params, wins, handles,
        attrs;
    ot_location *locs;
    uint32_t n_locs, cap_locs;
    int32_t *ot_of_loc; /* pw location -> index in locs, -1: none */
    uint32_t mpi_paradigm_group; /* the MPI COMM_LOCATIONS group, UINT32_MAX: none */
    /* Per event type: its schema, and per field its encoding. */
    int32_t schema_of[OT_N_EVENTS];
    char *encs[OT_N_EVENTS];
    /* The MPI profile handed to the analyses (otf2_mpi_profile.c): one
     * rank per location of the MPI locations group. */
    pw_mpi_profiles profiles;
    uint32_t *rank_loc;   /* world rank -> index in locs */
    int32_t *rank_of_location; /* pw location -> world rank whose calls it holds, -1 */
    int32_t *fn_of_region; /* region -> MPI function index, -1: not MPI */
    int64_t world_comm, self_comm;
    /* The MPI calls (otf2_calls.c): per region its call schema, -1: not
     * MPI; the communicators handed to the analyses. */
    int32_t *call_schema_of_region;
    pw_mpi_defined_comms defined;
    int64_t *comm_handles;
    pw_mpi_comm *comm_groups;
    /* The power metrics (otf2_power_track.c) and the schema of their
     * Metric events, -1: none. */
    struct ot_power_specs *power;
    int32_t power_schema;
} ot_dataset;

/* otf2_defs.c */
void *ot_table_at(ot_table *t, uint64_t ref);           /* grows; NULL when out of memory or absurd */
const void *ot_table_get(const ot_table *t, uint64_t ref); /* NULL when never defined */
void ot_tables_free(ot_dataset *od);
pw_status ot_read_global_defs(pw_dataset *ds, ot_dataset *od, OTF2_Reader *rd, pw_error *err);
const char *ot_string(const ot_dataset *od, uint32_t ref);
const char *ot_region_name(const ot_dataset *od, uint32_t ref);
/* The world rank of `rank` in communicator `comm` (self: the world rank
 * of the event's location, for MPI_COMM_SELF), or -1. */
int64_t ot_world_rank(const ot_dataset *od, uint32_t comm, uint64_t rank, int64_t self);

/* otf2_locations.c */
pw_status ot_locations_build(pw_dataset *ds, ot_dataset *od, pw_error *err);

/* otf2_schemas.c */
pw_status ot_schemas_build(pw_dataset *ds, ot_dataset *od, pw_error *err);
void ot_decode(const pw_dataset *ds, const ot_event *e, pw_arena *scratch, pw_value *values);
/* The metric members of metric reference `ref` (a class or an instance), n in *n. */
const uint32_t *ot_metric_members(const ot_dataset *od, uint32_t ref, uint8_t *n);
int64_t ot_ns(const ot_dataset *od, uint64_t ticks);

/* otf2_errors.c: libotf2 silenced; its last message on this thread. */
void ot_errors_quiet(void);
pw_status ot_fail(pw_error *err, pw_status st, const char *file, OTF2_ErrorCode code, const char *what);
/* An archive reader set up for serial reading, or NULL (err set). */
OTF2_Reader *ot_reader_open(const char *anchor, pw_error *err);

/* otf2_cursor.c */
pw_status ot_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err);
/* The raw event of an OTF2 cursor's current record. */
const ot_event *ot_cursor_event(const pw_cursor *c);

/* otf2_mpi_profile.c: hands ds->mpi_profiles when the archive has MPI ranks. */
pw_status ot_mpi_profiles_offer(pw_dataset *ds, ot_dataset *od, pw_error *err);
void ot_mpi_profiles_free(ot_dataset *od);

/* otf2_calls.c: the call schemas and the communicators, when the
 * archive has MPI ranks; a cursor's MPI calls assembled from its events. */
pw_status ot_calls_offer(pw_dataset *ds, ot_dataset *od, pw_error *err);
void ot_calls_free(ot_dataset *od);
typedef struct ot_calls ot_calls;
ot_calls *ot_calls_new(void); /* NULL when memory runs out */
void ot_calls_delete(ot_calls *k);
/* Event e at t (ns): 1 when it ends a call (rec's schema, times and
 * offset set), 0 when not, -1 when memory runs out. */
int ot_calls_feed(ot_calls *k, const ot_dataset *od, const ot_event *e, int64_t t, pw_record *rec);
/* The fields of the call the latest 1 of ot_calls_feed ended. */
void ot_calls_decode(const ot_calls *k, pw_arena *scratch, pw_value *values);

/* The tables of the summary (otf2_tables.c). */
extern const pw_table_decl *const ot_table_decls[];

/* otf2_stats.c, otf2_check.c */
pw_status ot_stats(pw_dataset *ds, pw_report *r, pw_error *err);
pw_status ot_check(pw_dataset *ds, pw_error *err);
#endif
