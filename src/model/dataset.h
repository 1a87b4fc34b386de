/* dataset.h — the inside of datasets and cursors, and the contract between
 * the model and the format folders (src/formats/<name>/).
 *
 * A format provides one pw_format_ops.  Its open() fills the dataset
 * (properties, locations, schemas) using the pw_ds_* builders below; its
 * cursor_open() sets up a pw_cursor whose ops yield records of one location.
 * Formats report damage they can read past as diagnostics (pw_ds_diag) and
 * damage that stops a cursor by returning PW_E_DATA from next(). */
#ifndef PW_MODEL_DATASET_H
#define PW_MODEL_DATASET_H
#include <pthread.h>
#include <stdatomic.h>

#include "core/arena.h"
#include "core/error.h"
#include "core/names.h"
#include "model/run.h"
#include "model/table.h"
#include "perfweave.h"

typedef struct pw_cursor_ops {
    /* Fill c->rec with the next record: PW_OK, PW_END, or an error with err
     * set (and c->err_code naming the kind of damage). */
    pw_status (*next)(pw_cursor *c, pw_error *err);
    /* Decode the fields of c->rec into values[0 .. schema n_fields), which
     * arrive with present = 0 and the schema's type, the rest unset (set
     * every member a present value uses).  Memory the values point to comes from
     * c->scratch or from the cursor's window (valid until the next call). */
    void (*decode)(pw_cursor *c, pw_value *values);
    void (*close)(pw_cursor *c);
    /* Optional pair, so that another thread can decode the record later
     * (the dump pipeline decodes on its formatting threads).  snapshot
     * copies what decode reads of c->rec to dst when that fits in cap
     * bytes, and returns its size either way.  decode_snapshot decodes
     * from such a copy as decode would from the cursor; what the values
     * point to comes from scratch or from the snapshot. */
    size_t (*snapshot)(const pw_cursor *c, void *dst, size_t cap);
    void (*decode_snapshot)(const pw_dataset *ds, const pw_record *rec, const void *snap, size_t n,
                            pw_arena *scratch, pw_value *values);
    /* Optional, for formats whose snapshot is the record's bytes as stored
     * (rec->size bytes at rec->offset of its location's file): rebuilds
     * from those bytes what next() set of rec besides location, offset and
     * size (schema, type, kind, clock, times), so that another thread can
     * read the bytes itself and only the place crosses.  Names it makes
     * come from scratch.  0 when the bytes cannot be such a record. */
    int (*reread)(const pw_dataset *ds, const uint8_t *bytes, size_t n, pw_record *rec,
                  pw_arena *scratch);
    /* Optional: field f of the current record as the cursor of location
     * loc decodes it, where loc is the cursor's own location or a sibling
     * whose file shares its rows (a power meter's channels): a reader of
     * a few fields decodes only those, and one cursor reads every channel
     * (the energy analysis's streams).  The caller gives v absent
     * (present = 0) with the field's type; no scratch memory is used. */
    void (*field_as)(pw_cursor *c, uint32_t loc, size_t f, pw_value *v);
    /* Optional: only the integer fields fields[0 .. n) of the current
     * record, each into view[fields[k]] as decode would set it (type
     * PW_T_I64), absent (present = 0) when the record lacks it or it is no
     * integer; the rest of view is left alone.  A reader of a few
     * integers per record (the MPI replay) skips decoding the others.
     * The list at one address must not change while the cursor is open:
     * a format may plan its reads by that address (DUMPI does). */
    void (*ints)(pw_cursor *c, const int16_t *fields, size_t n, pw_value *view);
    /* 1: decode and decode_snapshot set every field themselves, the
     * absent ones too (present = 0 and the field's type), so the values
     * arrive unset and are not blanked first (most of DUMPI's fields are
     * present: blanking them all cost as much as their decoding). */
    int sets_absent;
} pw_cursor_ops;

struct pw_cursor {
    const pw_cursor_ops *ops;
    pw_dataset *ds;
    uint32_t location;
    size_t window_cap;      /* buffer size the format should use for its window */
    pw_record rec;          /* the current record, filled by ops->next */
    const char *err_code;   /* diagnostic code of the last error */
    int decoded;            /* values hold rec's fields */
    pw_value *values;
    size_t values_cap;
    pw_arena scratch;       /* per-record decoding memory, reset per record */
    void *impl;             /* the format's cursor state */
    /* The dataset's filter when one is set (model/filter.h), else NULL;
     * an analysis's cursor has the filter's history instead. */
    const struct pw_filter_state *filter;
    /* The filter met a record at or after the window's end: what the
     * cursor gave is cut there, the location goes on. */
    int past_end;
    /* Set by a reader of the call arguments only (the MPI analyses read
     * rec->t): decode may leave the record's own copies of its times and
     * counters absent. */
    int args_only;
    /* Set by a reader of MPI calls (the MPI analyses) before its first
     * next: a format that records a call as several events (OTF2's Enter,
     * MPI events, Leave) yields each call as one SPAN record of its call
     * schema (pw_schema.mpi_fields) and nothing else; a format whose
     * records are calls already ignores it. */
    int mpi_calls;
};

typedef struct pw_format_ops {
    const char *name;
    const char *description;
    /* How sure the format is that `path` is its own: 0 = not at all, 100 =
     * certain (a magic number matched).  Must be cheap and never fail. */
    int (*probe)(const char *path);
    pw_status (*open)(pw_dataset *ds, pw_error *err);
    pw_status (*cursor_open)(pw_dataset *ds, pw_cursor *c, pw_error *err);
    /* NULL: the generic stats (records per type and per location). */
    pw_status (*stats)(pw_dataset *ds, pw_report *r, pw_error *err);
    /* Optional pair: the partial state of the record locations [first,
     * end) serialized (malloc'd, *part), and the report of the parts of all
     * shares joined in share order, the bytes stats writes.  Without stats,
     * pw_stats is part over all locations, then join of that one part. */
    pw_status (*stats_part)(pw_dataset *ds, size_t first, size_t end, void **part, size_t *size,
                            pw_error *err);
    pw_status (*stats_join)(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n,
                            pw_report *r, pw_error *err);
    /* Checks beyond reading every record (cross-file consistency), run by
     * pw_check after the read-through; may be NULL. */
    pw_status (*check)(pw_dataset *ds, pw_error *err);
    void (*close)(pw_dataset *ds);
    /* Options the format accepts, ended by a NULL key; may be NULL. */
    const pw_format_option *options;
    /* The tables its summary adds, NULL-ended (model/table.h); may be NULL. */
    const pw_table_decl *const *tables;
    /* The names of the analyses its datasets feed (what `help FORMAT`
     * lists the tables of), NULL-ended; may be NULL. */
    const char *const *analyses;
    /* Nonzero when stats() reads records through cursors, so that it
     * honours a filter; else a filtered pw_stats gives the generic counts. */
    int stats_filtered;
    /* Nonzero when the format's summary is what analyses report from what
     * it hands them (ds->mpi_profiles): no generic counts before them. */
    int summary_by_analyses;
    /* Optional pair, the two-step open (pw_open_share): open() saw
     * ds->run->opening_shares > 1 and read in full only share
     * ds->run->opening_share's files, leaving what the others' files hold
     * unknown; share_found serializes what the other shares need of its
     * files (malloc'd), share_complete takes every share's, in share
     * order, and ends the open as open() alone ends it. */
    pw_status (*share_found)(pw_dataset *ds, void **found, size_t *size, pw_error *err);
    pw_status (*share_complete)(pw_dataset *ds, const void *const *found, const size_t *sizes, size_t n,
                                pw_error *err);
} pw_format_ops;

typedef struct pw_prop {
    const char *key;
    const char *value;
} pw_prop;

struct pw_dataset {
    const pw_format_ops *fmt;
    const char *path;
    const char *version;
    int threads;
    pw_option_kv *kv;
    size_t n_kv;
    pw_arena arena;           /* everything that lives as long as the dataset */
    pw_prop *props;
    size_t n_props, cap_props;
    pw_names prop_keys;       /* props[id - 1] is the key's; a format sets
                               * properties per rank, so no scan per set */
    pw_location *locs;
    size_t n_locs, cap_locs;
    pw_schema **schemas;
    size_t n_schemas, cap_schemas;
    size_t max_fields;        /* the widest schema */
    pthread_mutex_t diag_lock;
    pw_diag *diags;
    size_t n_diags, cap_diags;
    uint64_t diags_dropped;
    int worst;
    int system_fault;         /* a finding came from an I/O or memory fault */
    _Atomic uint64_t progress_done;
    uint64_t progress_total;
    void *impl;               /* the format's dataset state */
    struct pw_filter_state *filter; /* pw_dataset_filter's, or NULL */
    /* Set by a format's open() where they hold, so that filters skip work:
     * time_ordered: each cursor yields its timed records in nondecreasing
     * time (a filtered cursor stops at the end of the window);
     * own_subtree: a cursor yields records of its location and the
     * locations under it only (a location filter leaves files unopened). */
    int time_ordered, own_subtree;
    /* Set by a format's open() when no record has a time (a profile
     * without its trace): a converter for timelines refuses it before it
     * creates its output, without reading the records to find out. */
    int untimed;
    /* Set by a format whose nodes' locations are replayed together (an
     * emulator runs a node's CPUs and threads as one): a share never cuts
     * between two consecutive record locations of one node. */
    int share_by_node;
    /* This process's run over the data: what the program wants of the
     * open, the share it reads, how it talks to the others, what its
     * analyses hold and who watches them (model/run.h); never NULL. */
    pw_run *run;
    /* Set by a format that gathers the MPI profile itself (model/mpi_profile.h). */
    struct pw_mpi_profiles *mpi_profiles;
    /* Set by a format that defines its communicators with their members
     * (model/mpi_comms.h: OTF2's Comm definitions), or NULL. */
    const struct pw_mpi_defined_comms *mpi_defined_comms;
    /* Set by a format whose records carry power (model/energy_layout.h). */
    const struct pw_energy_layout *energy;
};

/* The findings a dataset keeps: enough to describe any real damage; a
 * file with millions of bad records must not grow memory without bound,
 * so later findings are only counted (pw_dataset_diag_dropped). */
#define PW_MAX_DIAGS 1000

/* An empty dataset of format fmt (pw_open uses it; tests build datasets by
 * hand with it).  NULL when memory runs out. */
pw_dataset *pw_ds_new(const pw_format_ops *fmt, const char *path);

/* Builders for format open() functions.  Strings are copied. */
const char *pw_ds_strdup(pw_dataset *ds, const char *s);
const char *pw_ds_strndup(pw_dataset *ds, const char *s, size_t n);
void *pw_ds_alloc(pw_dataset *ds, size_t size); /* zeroed, lives with ds */
pw_status pw_ds_set_prop(pw_dataset *ds, const char *key, const char *value, pw_error *err);
pw_status pw_ds_set_propf(pw_dataset *ds, pw_error *err, const char *key, const char *fmt, ...)
    PW_PRINTF(4, 5);
pw_status pw_ds_set_version(pw_dataset *ds, const char *version, pw_error *err);
/* Adds a location under `parent` (-1: top level); its path is the parent's
 * path + "/" + name.  Returns its index, or -1 when memory runs out. */
int32_t pw_ds_add_location(pw_dataset *ds, int32_t parent, pw_location_kind kind, int64_t id,
                           const char *name, const char *file, int has_records);
/* Adds a schema whose fields array is borrowed (static tables) and must
 * outlive ds.  Returns its index, or -1 when memory runs out. */
int32_t pw_ds_add_schema(pw_dataset *ds, const char *name, const char *description,
                         pw_record_kind kind, const pw_field *fields, size_t n_fields);
/* Declares that INSTANT schema `s` opens (PW_REC_BEGIN) or closes
 * (PW_REC_END) a state of the group named by its first group_len chars. */
void pw_ds_schema_pairs(pw_dataset *ds, int32_t s, pw_record_kind as, size_t group_len);
/* Declares schema `s` an MPI call whose argument of role r is field
 * fields[r] (-1: none), for PW_N_MPI_ROLES roles; the table must outlive ds. */
void pw_ds_schema_mpi_fields(pw_dataset *ds, int32_t s, const int16_t *fields);

/* Records a finding; safe from any thread.  offset < 0: none. */
void pw_ds_diag(pw_dataset *ds, pw_severity sev, const char *code, const char *file,
                int64_t offset, const char *fmt, ...) PW_PRINTF(6, 7);
/* Records an error already in a pw_error (its message is reused). */
void pw_ds_diag_error(pw_dataset *ds, pw_severity sev, const char *code, const pw_error *e);
/* A finding made elsewhere (another process's share), added as it is. */
void pw_ds_diag_copy(pw_dataset *ds, const pw_diag *d);
/* The findings after the first n taken back (an analysis moves them into
 * its part, for the join to order them), with the dropped count and the
 * worst severity as they were then. */
void pw_ds_diag_take_back(pw_dataset *ds, size_t n, uint64_t dropped, int worst);

/* The format-specific option `key` (without prefix), or NULL. */
const char *pw_ds_option(const pw_dataset *ds, const char *key);
/* The value of an option every format may read (a key with no format
 * prefix, such as "analyses"), or NULL. */
const char *pw_ds_common_option(const pw_dataset *ds, const char *key);

/* pw_record_fields into the caller's values[0 .. n_fields) (a consumer that
 * keeps a copy decodes straight into it).  Pointers in the values are valid
 * until the cursor's next call, as with pw_record_fields. */
void pw_record_decode_into(const pw_record *rec, pw_value *values);

/* The record's snapshot (pw_cursor_ops.snapshot) into dst: its size (only
 * copied when it fits in cap), or 0 when the format has none. */
static inline size_t pw_record_snapshot(const pw_record *rec, void *dst, size_t cap)
{
    const pw_cursor *c = rec->cursor;
    return c->ops->snapshot ? c->ops->snapshot(c, dst, cap) : 0;
}

/* After next() gave a record a filter rejects: steps on to the next one it
 * keeps (filter.c), or PW_END past the window. */
pw_status pw_filter_skip(pw_cursor *c, pw_error *err);
/* Damage that stops a cursor becomes a finding of its dataset. */
void pw_cursor_note_damage(pw_cursor *c, const pw_error *err);
/* pw_cursor_next for the model's own loops, inline (the merge calls it
 * once per record): the record is c->rec when PW_OK; err is required. */
static inline pw_status pw_cursor_step(pw_cursor *c, pw_error *err)
{
    c->decoded = 0;
    c->err_code = NULL;
    pw_status s = c->ops->next(c, err);
    if (c->filter && s == PW_OK)
        s = pw_filter_skip(c, err);
    /* Every reader stops at an error; a system fault (a file cut while
     * read) is noted like damage so that no caller drops it silently. */
    if (s != PW_OK && s != PW_END)
        pw_cursor_note_damage(c, err);
    return s;
}
/* Decodes a snapshot taken of a record of schema sc by a cursor with ops
 * `ops` into values[0 .. sc->n_fields); what it allocates comes from
 * scratch (not reset here). */
void pw_snapshot_decode(const pw_dataset *ds, const pw_cursor_ops *ops, const pw_schema *sc,
                        const pw_record *rec, const void *snap, size_t n, pw_arena *scratch,
                        pw_value *values);

/* pw_cursor_open with a chosen window size (the merge opens many cursors
 * at once and gives each a smaller window). */
pw_status pw_cursor_open_sized(pw_dataset *ds, uint32_t loc, size_t window_cap, pw_cursor **out,
                               pw_error *err);

/* A cursor for an analysis (model/filter.h): every record of location
 * loc before the filter's window ends, whatever the filter selects. */
pw_status pw_cursor_open_history(pw_dataset *ds, uint32_t loc, size_t window_cap, pw_cursor **out,
                                 pw_error *err);

/* A cursor for an analysis that needs the whole run whatever the window
 * (the MPI critical path is walked back from the run's end): every
 * record of location loc. */
pw_status pw_cursor_open_whole_run(pw_dataset *ds, uint32_t loc, size_t window_cap, pw_cursor **out,
                                   pw_error *err);

/* A merge (pw_merge_next, pw_merge_close) of the locations locs[0 .. n)
 * only, each with records (a process's share); locs NULL: every location
 * with records, n of them (pw_merge_open). */
pw_status pw_merge_open_locations(pw_dataset *ds, const uint32_t *locs, size_t n, pw_merge **out,
                                  pw_error *err);
/* The window size each of n cursors read at once should use. */
size_t pw_merge_window_cap(size_t n_cursors);
/* pw_merge_open_locations of locs[0 .. n) for an analysis: its cursors
 * are pw_cursor_open_history's. */
pw_status pw_merge_open_history(pw_dataset *ds, const uint32_t *locs, size_t n, pw_merge **out,
                                pw_error *err);
/* After PW_END: 1 when some location went on past the filter's window
 * (what the merge gave is cut at the window's end), else 0. */
int pw_merge_past_end(const pw_merge *m);

/* How many locations have records. */
size_t pw_ds_count_record_locations(const pw_dataset *ds);
/* The indexes of the locations that have records (memory lives with ds). */
uint32_t *pw_ds_record_locations(pw_dataset *ds, size_t *n);

/* The registry: formats in probe order (generated from src/formats/). */
extern const pw_format_ops *const pw_formats[];
extern const size_t pw_n_formats;

/* Results computed by `by` (an analysis's ops) held in ds's run until
 * taken (pw_ds_take: NULL when none; the taker frees them) or until
 * pw_close (release(state)).  pw_ds_hold: 0 when memory runs out (release
 * called). */
int pw_ds_hold(pw_dataset *ds, const void *by, void *state, void (*release)(void *state));
void *pw_ds_take(pw_dataset *ds, const void *by);
/* Items [*first, *end) of the n record locations are this process's share
 * (all of them unless pw_dataset_set_share chose fewer). */
void pw_ds_share(const pw_dataset *ds, size_t n, size_t *first, size_t *end);
/* What reading a file costs a share: its size in bytes (1 when it has
 * none or cannot be stat'ed, so that file-less items still spread). */
uint64_t pw_ds_file_weight(const char *file);
/* The cut pw_dataset_set_share makes, over n items of weight[i] in order:
 * share `index` of `count` is items [*first, *end).  group (NULL: none)
 * keeps consecutive items of one group id >= 0 in one share.  A format
 * that opens in two steps cuts its files with it before the locations
 * exist, so that the share it scans is the share set later. */
void pw_share_cut(const uint64_t *weight, const int32_t *group, size_t n, unsigned index, unsigned count,
                  size_t *first, size_t *end);
/* Per location (malloc'd): 1 when this share writes what is drawn on it:
 * the share's record locations, and in share 0 the locations without
 * records (their records come from other locations' cursors: ROSS LPs).
 * NULL, with *whole set, when the share is every location; NULL with
 * *whole clear when memory runs out. */
uint8_t *pw_ds_share_owned(pw_dataset *ds, int *whole);
/* A digest of the location paths, that a stats part carries so that the
 * join refuses the part of another dataset. */
uint64_t pw_ds_locations_digest(const pw_dataset *ds);

/* Generic stats: record counts per type and per location. */
/* The index of sc's field called name, or -1 (analyses and formats find
 * the fields they use by name). */
int pw_field_index(const pw_schema *sc, const char *name);
/* The model's part of pw_check: every record of this process's share of
 * the locations read, then the format's cross-file checks (in share 0).
 * With collectives set, every process calls it: share 0's marks of the
 * locations its analyses read (read_to_end) go to all first.  PW_OK, or
 * a system fault (I/O, memory); damage is in the diagnostics. */
pw_status pw_check_records(pw_dataset *ds, pw_error *err);
/* Before the analyses' checks: the locations their merges read to the end
 * (their damage then noted already) are left out of pw_check_records. */
pw_status pw_check_note_reads(pw_dataset *ds, pw_error *err);
pw_status pw_stats_generic(pw_dataset *ds, pw_report *r, pw_error *err);
/* Whether the format's stats summary is made of parts of shares (its
 * stats_part, and no filter that calls for the generic counts instead). */
int pw_ds_summary_in_parts(const pw_dataset *ds);
/* The format's summary of this share's locations as a part (its
 * stats_part); an empty part when the summary is not made of parts.
 * pw_stats_part (src/drivers/stats.c) adds the analyses' parts to it. */
pw_status pw_ds_summary_part(pw_dataset *ds, void **part, size_t *size, pw_error *err);
#endif
