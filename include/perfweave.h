/*
 * perfweave.h — the one public header of libperfweave.
 *
 * perfweave reads the performance data that HPC tools write (ovni runtime
 * traces, SST DUMPI MPI traces, HPCToolkit databases, ROSS instrumentation,
 * GPU power benchmark trees), checks it, summarises it and converts it.
 *
 * The model, in one paragraph:
 *   A DATASET is what one path holds.  It has a format and format version,
 *   properties (key -> value strings), LOCATIONS (a tree: loom/process/thread,
 *   rank, PE/KP/LP, GPU, ...) and SCHEMAS (record types described as data:
 *   a name and typed fields).  A CURSOR walks the RECORDS of one location in
 *   file order; cursors are independent, so locations can be read in
 *   parallel.  A MERGE walks every location at once in time order.  Fields of
 *   a record are decoded only when asked for (pw_record_fields).
 *
 * Rules the library keeps:
 *   - It never prints, exits or aborts.  Every call that can fail returns a
 *     pw_status and fills a pw_error whose message names the file, the byte
 *     offset and what was expected.
 *   - Every read of input bytes is bounds-checked; damaged input yields
 *     PW_E_DATA, never a crash.  What could be read before the damage is
 *     returned.
 *   - Memory stays flat as input grows: files are read through windows.
 *
 * Thread safety: distinct cursors of one dataset may be used from distinct
 * threads at the same time.  Everything else on one dataset is single-threaded.
 */
#ifndef PERFWEAVE_H
#define PERFWEAVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* PW_API marks what the shared library exports: the library is built with
 * hidden visibility, so every other symbol stays inside it. */
#if defined(__GNUC__)
#define PW_API __attribute__((visibility("default")))
#else
#define PW_API
#endif

#define PW_VERSION_MAJOR 0
#define PW_VERSION_MINOR 1
#define PW_VERSION_PATCH 0
#define PW_VERSION_STRING "0.1.0"

/* ------------------------------------------------------------------------ */
/* Status and errors                                                         */
/* ------------------------------------------------------------------------ */

/* Every fallible call returns one of these.  Negative values are errors. */
typedef enum pw_status {
    PW_OK = 0,         /* success */
    PW_END = 1,        /* a cursor or merge has no more records (not an error) */
    PW_E_DATA = -1,    /* the input is damaged or not what its format says */
    PW_E_FORMAT = -2,  /* no known format recognises the path */
    PW_E_USAGE = -3,   /* an argument or option is invalid */
    PW_E_IO = -4,      /* the operating system refused (open, read, write) */
    PW_E_NOMEM = -5    /* out of memory */
} pw_status;

/* The short name of a status: "ok", "end", "data", "format", "usage", "io",
 * "nomem". */
PW_API const char *pw_status_name(pw_status s);

/* What went wrong.  `message` is complete and ready to show a person, e.g.
 * "trace/thread.12/stream.obs: offset 4096: truncated event: 28 bytes
 * expected, 5 left".  `file` and `offset` repeat its parts for programs;
 * has_offset is 0 when no byte offset applies (a missing file, say). */
typedef struct pw_error {
    pw_status status;
    int has_offset;
    uint64_t offset;
    char file[1024];
    char message[2048];
} pw_error;

/* ------------------------------------------------------------------------ */
/* Options                                                                   */
/* ------------------------------------------------------------------------ */

/* Options that apply to opening and reading a dataset.  Zero-initialise, then
 * set what you need.  Format-specific options are key/value strings named
 * "<format>.<option>" (for example "ross.lp_layout" = "36"); a format reads
 * the keys it knows and rejects unknown keys that carry its own prefix. */
typedef struct pw_option_kv {
    const char *key;
    const char *value;
} pw_option_kv;

/* What a program will ask of the dataset it opens (pw_options.wants, a
 * set of these bits), so that formats gather and shape at open what it
 * needs only.  0 (not said) is PW_WANT_STATS | PW_WANT_RECORDS: anything
 * may be asked, records keep their own shape.  Asking for more than was
 * said still works: it is read later, at its cost, to the same bytes. */
enum {
    /* pw_stats without a filter: formats gather while opening what it
     * reports (DUMPI: its profile; without this bit stats profiles later) */
    PW_WANT_STATS = 1u << 0,
    /* records through cursors, dump, check */
    PW_WANT_RECORDS = 1u << 1,
    /* records shaped for timeline viewers (pw_convert; HPCToolkit:
     * call-stack frames instead of samples, unless hpctoolkit.frames says) */
    PW_WANT_TIMELINE = 1u << 2,
};

typedef struct pw_options {
    const char *format;        /* force this format (NULL: detect) */
    int threads;               /* worker threads for stats/check; <= 0: all cores */
    /* Options: "FORMAT.KEY" for one format's own, or a bare KEY that
     * every format may read: "analyses" = "0" leaves the registered
     * analyses (MPI wait states, the ovni emulator) out of pw_stats and
     * pw_check: the format's own summary at its full speed.  (The bare
     * keys "timeline" and "stats" of earlier versions are now bits of
     * `wants` and no longer read.) */
    size_t n_kv;
    const pw_option_kv *kv;
    /* PW_WANT_* bits: what the program will ask (the CLI's convert says
     * PW_WANT_TIMELINE, its dump PW_WANT_RECORDS); 0: not said. */
    unsigned wants;
} pw_options;

/* The value of option `key`, or NULL when it is not set. */
PW_API const char *pw_options_get(const pw_options *opt, const char *key);

/* ------------------------------------------------------------------------ */
/* Formats                                                                   */
/* ------------------------------------------------------------------------ */

/* The formats this build knows, in probe order. */
PW_API size_t pw_format_count(void);
PW_API const char *pw_format_name(size_t i);        /* "ovni", "dumpi", ... */
PW_API const char *pw_format_description(size_t i); /* one line for --help */

/* An option a format accepts.  Programs set it as pw_options.kv key
 * "<format>.<key>"; the perfweave CLI offers it as --<flag> [ARG]. */
typedef struct pw_format_option {
    const char *key;   /* "lp_layout" */
    const char *flag;  /* "ross-lp-layout" */
    const char *arg;   /* "48|36", or NULL for a switch (value "1") */
    const char *help;  /* one line */
} pw_format_option;

/* Format i's options, ended by an entry whose key is NULL; NULL when none. */
PW_API const pw_format_option *pw_format_options(size_t i);

/* ------------------------------------------------------------------------ */
/* Datasets, locations, schemas                                              */
/* ------------------------------------------------------------------------ */

typedef struct pw_dataset pw_dataset;

/* Open what `path` holds (a file or a directory).  The format is detected
 * unless opt->format names it.  opt may be NULL.  On success *out must be
 * released with pw_close().  Damage found while opening metadata is an error
 * only when nothing can be read; otherwise it is recorded as a diagnostic
 * (see pw_dataset_diag) and the dataset opens. */
PW_API pw_status pw_open(const char *path, const pw_options *opt, pw_dataset **out, pw_error *err);
PW_API void pw_close(pw_dataset *ds);

PW_API const char *pw_dataset_path(const pw_dataset *ds);
PW_API const char *pw_dataset_format(const pw_dataset *ds);  /* "ovni" */
PW_API const char *pw_dataset_version(const pw_dataset *ds); /* "v3 (libovni 1.14.0)" */

/* Dataset properties: metadata as key -> value strings, in a stable order. */
PW_API size_t pw_dataset_prop_count(const pw_dataset *ds);
PW_API void pw_dataset_prop(const pw_dataset *ds, size_t i, const char **key, const char **value);
/* The value of property `key`, or NULL. */
PW_API const char *pw_dataset_prop_get(const pw_dataset *ds, const char *key);

typedef enum pw_location_kind {
    PW_LOC_ROOT = 0,   /* the dataset itself */
    PW_LOC_NODE,       /* a machine: ovni loom, host */
    PW_LOC_PROCESS,    /* a process or MPI rank */
    PW_LOC_THREAD,     /* a thread (ovni stream, DUMPI thread) */
    PW_LOC_PE,         /* ROSS processing element */
    PW_LOC_KP,         /* ROSS kernel process */
    PW_LOC_LP,         /* ROSS logical process */
    PW_LOC_GPU,        /* a GPU */
    PW_LOC_METER,      /* a power meter channel */
    PW_LOC_PROFILE,    /* an HPCToolkit profile */
    PW_LOC_OTHER
} pw_location_kind;

PW_API const char *pw_location_kind_name(pw_location_kind k); /* "thread" */

/* A node of the system tree.  `path` is the location's full name, its
 * ancestors' names joined by '/', e.g. "loom.nodeA/proc.6289/thread.6289".
 * Only locations with has_records != 0 yield records through a cursor. */
typedef struct pw_location {
    uint32_t index;       /* position in the dataset's location list */
    int32_t parent;       /* index of the parent, -1 for top-level locations */
    pw_location_kind kind;
    int64_t id;           /* the tool's own number (tid, pid, rank...) or -1 */
    const char *name;     /* "thread.6289" */
    const char *path;     /* "loom.nodeA/proc.6289/thread.6289" */
    const char *file;     /* the file its records come from, or NULL */
    int has_records;
} pw_location;

PW_API size_t pw_location_count(const pw_dataset *ds);
PW_API const pw_location *pw_location_get(const pw_dataset *ds, size_t i);

/* Field types.  LIST and OBJECT nest other values (DUMPI arrays, statuses). */
typedef enum pw_type {
    PW_T_BOOL = 0,
    PW_T_I64,
    PW_T_U64,
    PW_T_F64,
    PW_T_STR,     /* text; not NUL-terminated: use v.s.n */
    PW_T_BYTES,   /* raw bytes, printed as ovnidump does: ":hh:hh..." */
    PW_T_LIST,    /* v.list.items[0 .. v.list.n) */
    PW_T_OBJECT,  /* v.list.items named by v.list.fields */
    /* An exact decimal, v.dec.units * 10^-v.dec.scale (0 <= scale <= 18):
     * times a format stores as whole seconds and nanoseconds (DUMPI).
     * Written as the double nearest to it would be (pw_value_number). */
    PW_T_DECIMAL
} pw_type;

/* The part a field plays in an MPI call, as the MPI standard names the
 * argument: the analyses (message sizes, collectives, communicator replay)
 * find a call's count, datatype or communicator by role (pw_schema's
 * mpi_fields), never by a format's field names. */
typedef enum pw_mpi_role {
    PW_ROLE_NONE = 0,   /* not an MPI argument the analyses read */
    PW_ROLE_COUNT,      /* elements of the one buffer (MPI_Send, MPI_Bcast ...) */
    PW_ROLE_SEND_COUNT, /* elements of the send buffer; a list: one per peer */
    PW_ROLE_RECV_COUNT, /* elements of the receive buffer; a list: one per peer */
    PW_ROLE_DATATYPE,   /* the one buffer's datatype */
    PW_ROLE_SEND_TYPE,
    PW_ROLE_RECV_TYPE,
    PW_ROLE_ROOT,
    PW_ROLE_DEST,       /* a send's destination, comm-relative */
    PW_ROLE_COMM,       /* the communicator the call is made on */
    PW_ROLE_OLD_COMM,   /* the communicator a dup or split is made on */
    PW_ROLE_NEW_COMM,   /* the communicator it creates */
    PW_ROLE_COLOR,
    PW_ROLE_KEY,
    PW_ROLE_COMM_SIZE,  /* the communicator's size, when the trace records it */
    PW_ROLE_SOURCE,     /* a receive's source, comm-relative */
    PW_ROLE_TAG,
    PW_ROLE_SEND_TAG,   /* MPI_Sendrecv's two tags */
    PW_ROLE_RECV_TAG,
    PW_ROLE_REQUEST,    /* one request, or a list of them */
    PW_ROLE_STATUS,     /* one status, or a list of them */
    PW_ROLE_INDEX,      /* which request of a list completed (MPI_Waitany) */
    PW_ROLE_FLAG,       /* whether a test completed it */
    PW_ROLE_INDICES,    /* which requests of a list completed (MPI_Waitsome) */
    PW_ROLE_OUTCOUNT,   /* how many of them */
    PW_N_MPI_ROLES
} pw_mpi_role;

typedef struct pw_field {
    const char *name;   /* as the format's spec names it */
    pw_type type;
    const char *unit;   /* "ns", "s", "B", "W"..., or NULL */
    /* For integer fields that hold named constants (MPI_COMM_WORLD, MPI_INT):
     * the name of value v, or NULL when v has none.  Text output uses it;
     * JSON Lines keeps raw integers.  NULL when the field has no names. */
    const char *(*label)(int64_t v);
} pw_field;

typedef enum pw_record_kind {
    PW_REC_INSTANT = 0, /* something happened at t */
    PW_REC_SPAN,        /* something lasted: t is the begin (fields hold the end) */
    PW_REC_BEGIN,       /* a span begins */
    PW_REC_END,         /* a span ends */
    PW_REC_SAMPLE,      /* a vector of metric values at t */
    PW_REC_MESSAGE,     /* a message sent or received: its peers are the
                         * fields named "dest" and "source" */
    PW_REC_VALUE,       /* a profile value (context x metric x profile) */
    PW_REC_META         /* a definition (context, label) */
} pw_record_kind;

typedef struct pw_schema {
    uint32_t index;
    const char *name;        /* the record type, e.g. "OHx" or "MPI_Send" */
    const char *description; /* one line, or NULL */
    pw_record_kind kind;
    size_t n_fields;
    const pw_field *fields;
    /* An INSTANT that opens or closes a state by a convention of its
     * format (ovni's "6Wt" enters, "6WT" leaves the state group "6W"):
     * PW_REC_BEGIN or PW_REC_END, and the length of the name's prefix that
     * names the group; PW_REC_INSTANT and 0 for every other schema. */
    pw_record_kind pairs_as;
    size_t group_len;
    /* The record of an MPI call: per pw_mpi_role, the index of the field
     * that holds that argument, or -1.  NULL for every other schema. */
    const int16_t *mpi_fields;
} pw_schema;

PW_API size_t pw_schema_count(const pw_dataset *ds);
PW_API const pw_schema *pw_schema_get(const pw_dataset *ds, size_t i);

/* ------------------------------------------------------------------------ */
/* Records, values, cursors                                                  */
/* ------------------------------------------------------------------------ */

typedef enum pw_clock {
    PW_CLOCK_NONE = 0, /* the record has no time */
    PW_CLOCK_NS,       /* t: integer nanoseconds of the tool's clock */
    PW_CLOCK_VIRTUAL   /* vt: simulation virtual time (ROSS) */
} pw_clock;

typedef struct pw_value {
    pw_type type;
    int present;          /* 0: the record does not carry this field */
    union {
        int b;
        int64_t i;
        uint64_t u;
        double f;
        struct { const char *p; size_t n; } s;
        struct { const uint8_t *p; size_t n; } bytes;
        struct {
            const struct pw_value *items;
            size_t n;
            const pw_field *fields; /* OBJECT only: names of items */
        } list;
        struct { int64_t units; int scale; } dec;
    } v;
} pw_value;

/* A number value (BOOL, I64, U64, F64, DECIMAL) as a double: a DECIMAL
 * becomes the double nearest to it.  NaN for the other types. */
PW_API double pw_value_number(const pw_value *v);

typedef struct pw_cursor pw_cursor;

/* One record.  Owned by its cursor; valid until the cursor's next call. */
typedef struct pw_record {
    uint32_t schema;      /* index into the dataset's schemas */
    uint32_t location;    /* index into the dataset's locations */
    /* The record's type name: its schema's name, or more specific where one
     * schema serves many types (an ovni event of an unknown model keeps its
     * own MCV here, e.g. "XPa"). */
    const char *type;
    pw_record_kind kind;
    pw_clock clock;
    int64_t t;            /* time when clock == PW_CLOCK_NS */
    double vt;            /* time when clock == PW_CLOCK_VIRTUAL */
    /* PW_REC_SPAN records whose format knows the end (an MPI call's exit):
     * has_end != 0 and the end in the same clock as the begin. */
    int has_end;
    int64_t t_end;
    double vt_end;
    uint64_t offset;      /* byte offset of the record in its file */
    size_t size;          /* bytes the record occupies in its file */
    pw_cursor *cursor;    /* the cursor that produced it */
} pw_record;

/* Open a cursor over the records of location `loc` (which must have
 * has_records).  Release with pw_cursor_close(). */
PW_API pw_status pw_cursor_open(pw_dataset *ds, uint32_t loc, pw_cursor **out, pw_error *err);

/* The next record: PW_OK with *rec set, PW_END when there is none, or an
 * error (PW_E_DATA for damage: the records before it were good, and the
 * damage is also recorded as a diagnostic of the dataset). */
PW_API pw_status pw_cursor_next(pw_cursor *c, const pw_record **rec, pw_error *err);
PW_API void pw_cursor_close(pw_cursor *c);

/* The decoded fields of `rec`, one value per field of its schema, in schema
 * order.  Decoding is lazy (done on first call for each record) and cannot
 * fail: fields the record lacks have present == 0. */
PW_API const pw_value *pw_record_fields(const pw_record *rec);

/* All locations merged in time order (ties: location order; within one
 * location: file order).  A location whose cursor fails is recorded as a
 * diagnostic and left out from then on; the merge goes on with the others. */
typedef struct pw_merge pw_merge;
PW_API pw_status pw_merge_open(pw_dataset *ds, pw_merge **out, pw_error *err);
PW_API pw_status pw_merge_next(pw_merge *m, const pw_record **rec, pw_error *err);
PW_API void pw_merge_close(pw_merge *m);

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                               */
/* ------------------------------------------------------------------------ */

typedef enum pw_severity {
    PW_SEV_NOTE = 0,
    PW_SEV_WARNING,
    PW_SEV_ERROR    /* the data is damaged */
} pw_severity;

/* A finding about the data: damage met while reading (errors) or oddities
 * that do not stop reading (warnings).  `code` is a stable short name such as
 * "ovni.truncated-event", for programs and tests. */
typedef struct pw_diag {
    pw_severity severity;
    const char *code;
    const char *file;     /* NULL when not about one file */
    int has_offset;
    uint64_t offset;
    const char *message;  /* complete, like pw_error.message */
} pw_diag;

PW_API size_t pw_dataset_diag_count(const pw_dataset *ds);
PW_API const pw_diag *pw_dataset_diag(const pw_dataset *ds, size_t i);
/* Diagnostics beyond the stored limit are counted, not kept. */
PW_API uint64_t pw_dataset_diag_dropped(const pw_dataset *ds);
/* The most severe diagnostic so far, or -1 when there is none. */
PW_API int pw_dataset_worst_severity(const pw_dataset *ds);
/* 1 when a finding came from a system fault (a file that cannot be opened,
 * is not a regular file, changed while read, a failed read, no memory):
 * callers report it as such (the CLI exits 3), not as damage. */
PW_API int pw_dataset_system_fault(const pw_dataset *ds);

/* Deep validation: read every record of every location (in parallel) and
 * run the format's own consistency checks.  Findings become diagnostics.
 * Returns PW_OK when no error-level diagnostic exists, PW_E_DATA otherwise. */
PW_API pw_status pw_check(pw_dataset *ds, pw_error *err);

/* Record count and time span over all locations (one parallel pass that
 * reads record headers only).  Damage becomes diagnostics. */
typedef struct pw_summary {
    uint64_t records;
    uint64_t locations_read;  /* locations with records that could be read */
    int has_ns;               /* t_min/t_max are set */
    int64_t t_min, t_max;
    int has_virtual;          /* vt_min/vt_max are set */
    double vt_min, vt_max;
    uint64_t record_types;    /* schemas with at least one record */
} pw_summary;
PW_API pw_status pw_summarize(pw_dataset *ds, pw_summary *out, pw_error *err);

/* Bytes read so far and the total to read, for progress display.  Safe to
 * call from another thread while stats/check/dump run. */
PW_API void pw_dataset_progress(const pw_dataset *ds, uint64_t *done, uint64_t *total);

/* ------------------------------------------------------------------------ */
/* Reports (stats)                                                           */
/* ------------------------------------------------------------------------ */

/* A report is a tree of objects, arrays and scalars, like a JSON document.
 * Formats fill it; pw_report_write renders it as text tables, JSON or CSV,
 * so that no format needs printing code. */
typedef struct pw_report pw_report;
typedef struct pw_rnode pw_rnode;

PW_API pw_report *pw_report_new(void);
PW_API void pw_report_free(pw_report *r);
PW_API pw_rnode *pw_report_root(pw_report *r); /* an object */

/* Add a child to `parent`.  When parent is an object, `key` names the child
 * (adding an existing key replaces it); when it is an array, key is ignored.
 * The add functions return NULL only when memory runs out, and then the
 * report remembers it (pw_report_write fails with PW_E_NOMEM). */
PW_API pw_rnode *pw_rnode_object(pw_rnode *parent, const char *key);
PW_API pw_rnode *pw_rnode_array(pw_rnode *parent, const char *key);
PW_API void pw_rnode_int(pw_rnode *parent, const char *key, int64_t v);
PW_API void pw_rnode_uint(pw_rnode *parent, const char *key, uint64_t v);
PW_API void pw_rnode_num(pw_rnode *parent, const char *key, double v);
PW_API void pw_rnode_str(pw_rnode *parent, const char *key, const char *v);
PW_API void pw_rnode_strn(pw_rnode *parent, const char *key, const char *v, size_t n);
PW_API void pw_rnode_bool(pw_rnode *parent, const char *key, int v);
/* A value the report does not know (a rank without MPI calls has no
 * span): JSON null, an empty CSV cell, a blank text cell. */
PW_API void pw_rnode_null(pw_rnode *parent, const char *key);

typedef enum pw_report_style {
    PW_REPORT_TEXT = 0, /* aligned tables and "key: value" lines */
    PW_REPORT_JSON,     /* one JSON document */
    PW_REPORT_CSV       /* one CSV table per array of objects, "# name" before each */
} pw_report_style;

PW_API pw_status pw_report_write(const pw_report *r, FILE *out, pw_report_style style, pw_error *err);

/* What text and CSV renderings show: at most top_rows rows per text table
 * (0: all; the rest counted in a "... N more" line), only the table named
 * `table` (its key, or its path "section / key"; NULL: all), and text
 * tables cut to `width` characters (a terminal's; 0: no limit), the
 * columns left out counted.  JSON always holds everything.  0 when memory
 * runs out. */
PW_API int pw_report_set_view(pw_report *r, size_t top_rows, const char *table, size_t width);

/* The report's tables: the members of its root that are arrays of rows
 * or objects (one row), in order (on a report opened for JSON, those not
 * yet written out).  Each is declared once by the format or analysis that
 * adds it (title, description, columns with units), see docs/tables.md. */
PW_API size_t pw_report_table_count(const pw_report *r);
PW_API const char *pw_report_table_name(const pw_report *r, size_t i);
/* Lists the tables (stats --tables): name, rows and description; with
 * json, [{"name", "title", "description", "rows", "columns": [{"name",
 * "unit", "key"}]}]. */
PW_API pw_status pw_report_write_tables(const pw_report *r, FILE *out, int json, pw_error *err);
/* The i-th table format f's summary declares (NULL past the last), with
 * its one-line description. */
PW_API const char *pw_format_table(size_t f, size_t i, const char **description);
/* The i-th table the analyses format f feeds may add after its own (when
 * the data has what they need), with its description and the analysis's
 * name; NULL past the last. */
PW_API const char *pw_format_analysis_table(size_t f, size_t i, const char **description, const char **analysis);

/* Streaming, for reports whose arrays grow with the input (one row per
 * repetition, per event...): memory stays flat in the number of rows.
 *
 * pw_report_open makes a report that knows its output and style up front.
 * pw_report_stream adds to its root an array whose rows are rendered as
 * they are finished: a row (added with pw_rnode_object(stream, NULL), or a
 * scalar) is finished when the next row is added, and the stream ends when
 * the root gains another member or the report is finished.  A finished row
 * is freed: do not touch it (or its children) after adding the next one.
 * Root members added before a stream are rendered and freed when it
 * starts (JSON), so they must be complete by then; members added after it
 * are rendered by pw_report_finish.  A report is filled from one thread at
 * a time.
 *
 * The rendering is byte for byte what pw_report_write gives for the same
 * tree.  JSON rows go to `out` at once.  Text and CSV tables need every row
 * first (CSV columns are the union of the rows' keys, text columns are as
 * wide as their widest cell), so their rows wait in an anonymous temporary
 * file (tmpfile(3)), not in memory, until pw_report_finish renders them.
 *
 * On a report from pw_report_new, pw_report_stream gives an ordinary array,
 * so a format can always stream its large arrays.  pw_report_finish writes
 * what is not yet out and must be called once on an opened report (instead
 * of pw_report_write); pw_report_free still frees it. */
PW_API pw_report *pw_report_open(FILE *out, pw_report_style style);
PW_API pw_rnode *pw_report_stream(pw_report *r, const char *key);
PW_API pw_status pw_report_finish(pw_report *r, pw_error *err);

/* The summary a user of the dataset's format wants (see each format's
 * documentation), computed in parallel over locations.  Damage met on the
 * way is recorded as diagnostics; the report covers what could be read. */
PW_API pw_status pw_stats(pw_dataset *ds, pw_report *r, pw_error *err);

/* What `perfweave info` shows, as a report tree under r's root: path,
 * format, version, the pw_summarize figures (reads every record once),
 * location counts per kind and the dataset's properties; with
 * with_locations, the full location list and the per-location properties
 * too. */
PW_API pw_status pw_info(pw_dataset *ds, pw_report *r, int with_locations, pw_error *err);

/* The differences between two reports (pw_stats of two runs of one
 * format), into `out` (a report from pw_report_new).  For each table of
 * the reports (an array of objects; an object of scalars is a one-row
 * table; the root's own numbers are the table "summary"), rows are matched
 * by their key columns: text columns and numbering columns (rank, pe,
 * source, dest...); a column of indented names is a tree (a calling
 * context tree) whose rows are matched by their path from the root.  Keys
 * are made to hold across runs: process and thread ids in paths
 * ("proc.<pid>", "thread.<tid>") become their order, paths under name_a /
 * name_b (the datasets' roots) become relative.  Identifiers of one run
 * and absolute clocks (pid, tid, min_rank, max_rank, index and id where a
 * text names the row, first_clock, t0_s...) are left out.  Nested objects
 * are columns "outer.inner", objects of an array in a row columns
 * "array.<first text>.inner".  For every numeric column: A's value, B's,
 * and B - A (absent: 0).  Rows with
 * no difference are left out; the others come largest relative change
 * first.  out's root: {"a": name_a, "b": name_b, "tables": {NAME: [{"key":
 * {...}, "a": {...}|null, "b": {...}|null, "delta": {...}}]}}; with flat,
 * the tables are members of the root and each row is one level, the key
 * columns then "COL A", "COL B", "COL B-A" for each column that changed in
 * the table (for text and CSV). */
PW_API pw_status pw_diff_reports(const pw_report *a, const pw_report *b, const char *name_a, const char *name_b,
                          int flat, pw_report *out, pw_error *err);

/* What a report page keeps of a pw_stats run beyond its report (the
 * power samples over time of GPU power data): begun on ds before pw_stats,
 * handed to pw_html_report, freed after.  NULL when ds has nothing to
 * keep (or memory ran out: the page then draws without it). */
typedef struct pw_html_watch pw_html_watch;
PW_API pw_html_watch *pw_html_watch_begin(pw_dataset *ds);
PW_API void pw_html_watch_free(pw_html_watch *w);
/* The stats of ds whole in memory for a report page (`perfweave report`,
 * src/drivers/report_page.c): *w is the page's watch begun on ds (NULL
 * when there is nothing to keep), r gets the report of pw_stats, and when
 * that pass did not replay the states into the watch, they are replayed
 * for the page's strips (the replay's findings taken back: stats reported
 * them).  Free *w with pw_html_watch_free, also when this fails. */
PW_API pw_status pw_report_page_stats(pw_dataset *ds, pw_report *r, pw_html_watch **w, pw_error *err);
/* One self-contained HTML page (no URL, inline SVG figures, deterministic
 * bytes) of r, the pw_stats report of ds (w: what pw_stats handed to the
 * watch, or NULL; pw_report_page_stats makes both): a verdict, the figures
 * its tables allow, the states over time that ds's analyses derive (what
 * w kept of their replay), its tables, and r as `stats --json` prints it in
 * <script type="application/json" id="perfweave-stats">. */
PW_API pw_status pw_html_report(pw_dataset *ds, const pw_report *r, const pw_html_watch *w, FILE *out,
                                pw_error *err);
/* The page of a comparison: diff is pw_diff_reports(ra, rb, ..., flat 0)
 * (embedded as `diff --json` prints it), then both runs side by side. */
PW_API pw_status pw_html_compare(pw_dataset *da, const pw_report *ra, const pw_html_watch *wa, pw_dataset *db,
                                 const pw_report *rb, const pw_html_watch *wb, const pw_report *diff, FILE *out,
                                 pw_error *err);

/* ------------------------------------------------------------------------ */
/* Record writers (dump)                                                     */
/* ------------------------------------------------------------------------ */

typedef enum pw_dump_style {
    PW_DUMP_TEXT = 0, /* one line per record for people; named constants */
    PW_DUMP_JSONL     /* one JSON object per line: "loc", "t", "type", fields */
} pw_dump_style;

/* Every record of the dataset, merged in time order (as pw_merge gives
 * them), written to `out`, a line each in the style: records are decoded
 * and formatted on the dataset's worker threads while this thread merges
 * and writes.  Damage met is recorded as
 * diagnostics, as with pw_merge. */
PW_API pw_status pw_dump_all(pw_dataset *ds, FILE *out, pw_dump_style style, pw_error *err);

/* ------------------------------------------------------------------------ */
/* Converters                                                                */
/* ------------------------------------------------------------------------ */

/* Output formats for pw_convert, by name: "perfetto" (.pftrace), "chrome"
 * (.json, .json.gz), "otf2" (a directory with traces.otf2), "paraver"
 * (.prv + .pcf + .row), "csv" (a directory, one file per record type),
 * "sqlite" (.sqlite, .db).  A target missing from this build (no libotf2)
 * is still listed; converting to it fails with PW_E_USAGE. */
PW_API size_t pw_convert_target_count(void);
/* The target an output path's extension implies, or NULL. */
PW_API const char *pw_convert_target_for_path(const char *out);

/* One line of a conversion's account: records a target could not hold
 * (lost = 1: not written) or wrote in another form (lost = 0), e.g. "span
 * ends with no open span, written as instants". */
typedef struct pw_convert_item {
    const char *what; /* static text */
    uint64_t count;
    int lost;
} pw_convert_item;

#define PW_CONVERT_MAX_ITEMS 32

/* The account of a conversion: records_in = records_out + the counts of
 * the lost items.  Nothing is dropped without an item saying so. */
typedef struct pw_convert_report {
    const char *target;
    uint64_t records_in;
    uint64_t records_out;
    uint64_t bytes_out;    /* size of what was written (files summed) */
    size_t n_items;
    pw_convert_item items[PW_CONVERT_MAX_ITEMS];
} pw_convert_report;

/* Streams every record of ds, merged in time order, into `out` as
 * `target` (NULL: from out's extension), replacing an existing output
 * whole once the new one is complete (see "Outputs" below).  Memory stays flat in the record
 * count.  Damage met while reading becomes diagnostics of ds; what could
 * be read is written.  rep may be NULL. */
PW_API pw_status pw_convert(pw_dataset *ds, const char *out, const char *target, pw_convert_report *rep,
                     pw_error *err);

/* ------------------------------------------------------------------------ */
/* Columnar batches (for bindings: numpy, Arrow...)                          */
/* ------------------------------------------------------------------------ */

/* Records in columns, up to a capacity per call, so that a binding makes
 * one call per batch instead of several per record.  A batch reader walks
 * the merge of all locations (time order, the records and order of
 * pw_dump_all) or the cursor of one location (file order).
 *
 * Per record r < n: location[r], schema[r], type[r] (schema indices when
 * the record's type is its schema's name; ids with bit 31 set name other
 * types, see pw_batch_type_name), clock[r] (a pw_clock) with t[r]
 * (PW_CLOCK_NS) or vt[r] (PW_CLOCK_VIRTUAL), kind[r] (a pw_record_kind)
 * and, for spans whose end is known (has_end[r] != 0), t_end[r] or
 * vt_end[r] in the same clock.
 *
 * Fields are in COLUMNS, one per distinct field name over the dataset's
 * schemas (pw_batch_column_name; a name shared by several schemas is one
 * column): column_kind[c][r] says what column[c][r] holds for record r
 * (pw_cell_kind; PW_CELL_ABSENT when its schema has no such field or the
 * record does not carry it).  column_used[c] is 0 when no record of the
 * batch has a value in column c; its arrays may then be NULL (a column's
 * arrays are made when first written, so memory is capacity x the columns
 * the records use, whatever the record count).
 * Integers, doubles (a DECIMAL becomes the double nearest to it) and
 * booleans are held in the 8 bytes directly, so numeric schemas need no
 * text at all.  Other values are held as text in `text`, the cell being
 * the byte offset where it starts; it ends at the next '\n' (each text is
 * followed by one, and texts follow each other in record order).  Byte
 * strings, and strings of printable ASCII only, are held as the text
 * pw_dump_record writes in PW_DUMP_JSONL without its quotes (PW_CELL_TEXT:
 * a binding makes a string of it without parsing); other strings, lists
 * and objects as their JSON text, exactly as PW_DUMP_JSONL writes it
 * (PW_CELL_JSON; JSON text never holds a raw newline).
 *
 * A batch and its arrays belong to the reader and stay valid until its
 * next call.  Damage met is handled as pw_merge and pw_cursor_next do:
 * records before it are returned; the merge records a diagnostic and goes
 * on, a one-location reader returns the error after the batch of the
 * records before it. */
typedef enum pw_cell_kind {
    PW_CELL_ABSENT = 0, /* the record does not carry the field */
    PW_CELL_I64,        /* int64_t */
    PW_CELL_U64,        /* uint64_t */
    PW_CELL_F64,        /* double */
    PW_CELL_BOOL,       /* int64_t, 0 or 1 */
    PW_CELL_NULL,       /* present, but no JSON number (a NaN or infinite double) */
    PW_CELL_JSON,       /* uint64_t byte offset of the value's JSON text in `text` */
    PW_CELL_TEXT        /* uint64_t byte offset of the string itself in `text` */
} pw_cell_kind;

#define PW_BATCH_OTHER_TYPE 0x80000000u /* type ids of types that are not schema names */

typedef struct pw_batch {
    size_t n;                   /* records in this batch (> 0) */
    const uint32_t *location;
    const uint32_t *schema;
    const uint32_t *type;
    const uint8_t *clock;
    const int64_t *t;
    const double *vt;
    const uint8_t *kind;
    const uint8_t *has_end;
    const int64_t *t_end;
    const double *vt_end;
    size_t n_columns;                   /* field columns known so far */
    const uint8_t *column_used;         /* [n_columns] */
    const uint8_t *const *column_kind;  /* [n_columns][n], pw_cell_kind */
    const uint64_t *const *column;      /* [n_columns][n], read as column_kind says */
    size_t text_len;
    const char *text;           /* texts of PW_CELL_JSON and _TEXT cells, '\n' after each */
} pw_batch;

typedef struct pw_batch_reader pw_batch_reader;

/* A reader of batches of at most `capacity` records (0: 65536) over the
 * merge of every location (location < 0) or over location `location`
 * (which must have has_records).  Release with pw_batch_close(). */
PW_API pw_status pw_batch_open(pw_dataset *ds, int64_t location, size_t capacity, pw_batch_reader **out,
                        pw_error *err);
/* The next batch: PW_OK with *out set (n > 0), PW_END when no record is
 * left, or an error (see above). */
PW_API pw_status pw_batch_next(pw_batch_reader *br, const pw_batch **out, pw_error *err);
/* The name of type id `id` (any id a batch of this reader has given). */
PW_API const char *pw_batch_type_name(const pw_batch_reader *br, uint32_t id);
/* The field name of column c (c < n_columns of a batch of this reader). */
PW_API const char *pw_batch_column_name(const pw_batch_reader *br, size_t c);
PW_API void pw_batch_close(pw_batch_reader *br);

/* ------------------------------------------------------------------------ */
/* Filters: a time window, locations, record types                          */
/* ------------------------------------------------------------------------ */

/* What to keep of a dataset.  Zero-initialise, then set what you need; a
 * NULL or empty member keeps everything on its axis.
 *
 * TIME (start, end) is a time after the dataset's first record: "0.25",
 * "250ms", "1.5s", "100us", "42ns" (plain numbers are seconds; on a
 * virtual clock plain numbers are virtual time units), or, with a leading
 * '@', an absolute time in the dataset's own clock unit ("@962331108150").
 * A record at time t is kept when start <= t < end; a span whose end the
 * format knows is kept when it overlaps [start, end); records without a
 * time are always kept.
 *
 * locs: globs (fnmatch(3)) on location paths; a location is kept when its
 * path or the path of one of its ancestors matches one of them.  ranks:
 * "0-3,7": process locations whose id is one of these (the MPI rank in
 * DUMPI and HPCToolkit datasets) and what lies under them.  types: globs on
 * record type names (pw_record.type), ignoring case ("MPI_*send*" keeps
 * MPI_Send and MPI_Isend). */
typedef struct pw_filter {
    const char *start;
    const char *end;
    size_t n_locs;
    const char *const *locs;
    const char *ranks;
    size_t n_types;
    const char *const *types;
} pw_filter;

/* Applies f to every later reading of ds (cursors, merges, stats, dump,
 * convert): locations left out no longer have records (has_records = 0)
 * and are never opened for output; cursors skip the other records that do
 * not match and, where the format's records come in time order per
 * location, stop at the end of the window.  A filter selects what is
 * reported, never what an analysis sees: analyses read the history they
 * need and clip their figures to the selection (docs/filters.md).  Resolving a relative TIME reads the first
 * records of every location.  Call once, after pw_open, before reading. */
PW_API pw_status pw_dataset_filter(pw_dataset *ds, const pw_filter *f, pw_error *err);

/* ------------------------------------------------------------------------ */
/* States: what a runtime emulator derives from the records                 */
/* ------------------------------------------------------------------------ */

/* For datasets whose records an analysis replays into thread and CPU
 * states (ovni: the ovniemu 1.14 emulation), the states are written by
 * pw_convert when the output is named for them (Paraver: a directory,
 * DIR/thread.{prv,pcf,row} and DIR/cpu.{prv,pcf,row} with ovniemu's event
 * types, values and labels; Chrome JSON: *.states.json; Perfetto:
 * *.states.pftrace), summed per state by pw_stats, and dumped here: every
 * change of a thread's or CPU's channel as one JSON object per line to
 * out (style PW_DUMP_JSONL): {"loc" (the thread's location, or
 * "<node>/cpu.<phyid>" and "<node>/vcpu"), "view" ("thread" or "cpu"), "t"
 * (ns since the first event), "type" (the Paraver event type), "channel"
 * (its label), "value" (as Paraver gets it), "label" (the value's label,
 * or null)}.  Transitions the models forbid become diagnostics of ds
 * (codes "ovniemu.*") and the emulation goes on.  PW_E_USAGE when no
 * analysis derives states from ds or the style cannot write them. */
PW_API pw_status pw_dump_states(pw_dataset *ds, FILE *out, pw_dump_style style, pw_error *err);

/* ------------------------------------------------------------------------ */
/* Sinks: every place records and reports can go                            */
/* ------------------------------------------------------------------------ */

/* The dump styles, report styles and convert targets are all sinks, found
 * in one registry; a program lists them from here (names, extensions,
 * help) instead of naming them. */
typedef enum pw_sink_kind {
    PW_SINK_RECORDS = 1, /* one line per record (pw_dump_all) */
    PW_SINK_REPORT = 2,  /* renders a report tree (pw_report_*) */
    PW_SINK_CONVERT = 4, /* writes a dataset as another tool's format (pw_convert) */
    PW_SINK_PLOT = 8     /* draws what an analysis finds (pw_plot_*) */
} pw_sink_kind;

/* What a sink's output is (pw_sink_caps). */
enum {
    PW_SINK_STREAMS = 1,   /* can write to a stream: "-" (stdout), a FIFO, a device */
    PW_SINK_DIRECTORY = 2, /* its output is a directory */
    PW_SINK_SIBLINGS = 4,  /* also writes files beside its output (.prv: .pcf, .row) */
    PW_SINK_MISSING = 8,   /* this build lacks the library it needs */
    PW_SINK_TOGETHER = 16, /* processes with shares write one output together (pw_collectives) */
    PW_SINK_UNTIMED = 32   /* holds records that have no time (a profile's values) */
};

PW_API size_t pw_sink_count(void);
PW_API const char *pw_sink_name(size_t i);
PW_API pw_sink_kind pw_sink_kind_of(size_t i);
PW_API unsigned pw_sink_caps(size_t i);
PW_API const char *pw_sink_extensions(size_t i); /* ".json .json.gz", or NULL */
PW_API const char *pw_sink_description(size_t i);
PW_API const char *pw_sink_hint(size_t i); /* what to do with the output, or NULL */
/* How an output of a CONVERT sink is named to receive the states an
 * analysis derives from the records (pw_dump_states) instead of the
 * records: ".states.json" (space-separated endings), "" for a directory
 * named for no sink; NULL when the sink writes no states. */
PW_API const char *pw_sink_states_output(size_t i);

/* ------------------------------------------------------------------------ */
/* Outputs: how every output is created                                     */
/* ------------------------------------------------------------------------ */

/* One rule for every output (files and directories): it is written under
 * a temporary name in its directory and renamed to its name only when
 * complete, so an interrupted or failed run never leaves a partial output
 * under the final name.  An existing output is refused unless
 * PW_OUTPUT_FORCE (then replaced whole, directories included; a file is
 * never replaced by a directory nor a directory by a file).  A path
 * that is not a regular file or directory (a FIFO, a device) and "-"
 * (standard output) are written as streams by the sinks that can, and are
 * never removed. */
enum {
    PW_OUTPUT_FORCE = 1 /* replace an existing output */
};

/* An output file opened under the discipline, for a caller that writes a
 * stream itself (dump, stats).  "-" is standard output. */
typedef struct pw_output pw_output;
PW_API pw_status pw_output_open(const char *path, unsigned flags, pw_output **out, pw_error *err);
PW_API FILE *pw_output_stream(pw_output *o);
/* Flushes and checks every write, closes, and renames the output to its
 * name; on any failure the temporary is removed.  Frees o. */
PW_API pw_status pw_output_commit(pw_output *o, pw_error *err);
/* Removes what o wrote so far and frees o (after an error). */
PW_API void pw_output_discard(pw_output *o);

/* Removes every temporary output in progress.  Async-signal-safe: the
 * library never handles signals, a program calls this from its SIGINT or
 * SIGTERM handler before it exits. */
PW_API void pw_output_abandon_all(void);

/* Charts of what an analysis finds (a PW_SINK_PLOT sink: SVG charts of the
 * energy analysis, power over time per repetition and energy vs time per
 * benchmark) written into the directory `dir` while the next pw_stats of
 * ds runs (flags: PW_OUTPUT_FORCE replaces an existing one); *out stays
 * NULL when no plot sink draws anything of ds.  pw_plot_finish(p, ok)
 * draws the last charts and renames the directory into place when ok,
 * else removes it; p may be NULL. */
typedef struct pw_plot pw_plot;
PW_API pw_status pw_plot_begin(pw_dataset *ds, const char *dir, unsigned flags, pw_plot **out, pw_error *err);
PW_API pw_status pw_plot_finish(pw_plot *p, int ok, pw_error *err);

/* pw_convert with flags: without PW_OUTPUT_FORCE an existing output is
 * refused (PW_E_USAGE).  pw_convert is this with PW_OUTPUT_FORCE. */
PW_API pw_status pw_convert_output(pw_dataset *ds, const char *out, const char *target, unsigned flags,
                                   pw_convert_report *rep, pw_error *err);

/* ------------------------------------------------------------------------ */
/* Shares: several processes read one dataset together                      */
/* ------------------------------------------------------------------------ */

/* Makes this process read only share `index` of `count` (0 <= index <
 * count): the locations with records, in dataset order, are cut into
 * `count` consecutive runs of about equal bytes.  pw_check then reads only
 * the share's locations (the format's cross-file checks run in share 0);
 * pw_stats_part summarises only them; pw_convert to "perfetto" writes a
 * shard: every location is read, but only the share's packet sequences
 * (and, in share 0, the track descriptors) are written, so the shards of
 * all shares concatenated in order are the serial trace's content.  The
 * library does no communication: a program (perfweave-mpi) moves the
 * parts between its processes. */
PW_API pw_status pw_dataset_set_share(pw_dataset *ds, unsigned index, unsigned count, pw_error *err);
/* The two-step open, so that a process reads in full only its share:
 * pw_open_share opens as pw_open, except that a format able to (DUMPI:
 * it lists the rank files and reads their headers, chooses the share by
 * bytes, then walks only the share's record streams) leaves what the
 * other shares' files hold unknown.  Every process then calls
 * pw_dataset_share_found (what the others need of its files: for DUMPI,
 * per rank its thread ids, its calls per function, its time bounds and
 * communicator creations), the program hands every process the found
 * bytes of all shares in share order (perfweave-mpi: MPI_Allgatherv),
 * and pw_dataset_share_complete ends the open: every process has the
 * same locations, properties and opening findings as pw_open gives, and
 * pw_dataset_set_share(ds, index, count) then sets the share the open
 * read.  Until complete, only pw_dataset_share_found and pw_close may be
 * called.  A format that cannot opens whole in pw_open_share; found is
 * then empty and complete does nothing.  count <= 1: pw_open. */
PW_API pw_status pw_open_share(const char *path, const pw_options *opt, unsigned index, unsigned count,
                               pw_dataset **out, pw_error *err);
/* What the other shares need of this share's files, malloc'd into *found
 * (release with free(); *size bytes, the host's byte order). */
PW_API pw_status pw_dataset_share_found(pw_dataset *ds, void **found, size_t *size, pw_error *err);
/* The found bytes of every share, in share order (n = count). */
PW_API pw_status pw_dataset_share_complete(pw_dataset *ds, const void *const *found, const size_t *sizes,
                                           size_t n, pw_error *err);
/* The bytes of record streams opening read in full on this process (the
 * share's under pw_open_share; 0 for formats whose open reads no records). */
PW_API uint64_t pw_dataset_open_bytes(const pw_dataset *ds);
/* The stats state of this share's locations, serialized into *part
 * (malloc'd, release with free(); *size bytes).  A format that has no
 * partial state yet gives an empty part and reads nothing. */
PW_API pw_status pw_stats_part(pw_dataset *ds, void **part, size_t *size, pw_error *err);
/* The report of pw_stats from the parts of all shares in share order (on
 * one process): the same bytes as pw_stats over every location.  For a
 * format without partial state, this process reads every location. */
PW_API pw_status pw_stats_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n,
                               pw_report *r, pw_error *err);

/* How the processes of a program talk, for sinks that several processes
 * write together (PW_SINK_TOGETHER: OTF2, each process writing its share's
 * event files).  The program's functions (perfweave-mpi: MPI); every
 * process calls them at the same points, in the same order. */
typedef struct pw_collectives {
    void *ctx;
    /* Share 0's n bytes at buf, copied to buf on every process. */
    void (*broadcast)(void *ctx, void *buf, size_t n);
    /* values[0 .. n) summed over the processes, in place, on every process. */
    void (*sum)(void *ctx, uint64_t *values, size_t n);
    /* Makes an OTF2_Archive (passed as void *) collective over the
     * processes (OTF2_Archive_SetCollectiveCallbacks); 0 on failure. */
    int (*otf2_archive)(void *ctx, void *archive);
    /* Every process hands send_bytes[q] bytes to each process q (the
     * parts follow one another at send, in process order) and receives in
     * *recv (malloc'd, never NULL on success; the caller frees it) what
     * each process q handed it, recv_bytes[q] bytes, in process order;
     * both arrays hold one entry per process.  Returns 0, on every
     * process, when any process could not (memory, a count beyond MPI's
     * int).  Used by the analyses computed together (pw_stats_together)
     * and by a timeline drawn per share (message ends); NULL: each
     * process computes them alone. */
    int (*alltoallv)(void *ctx, const void *send, const size_t *send_bytes, void **recv, size_t *recv_bytes);
    /* Every process hands send_bytes bytes at send to process 0, which
     * receives in *recv every process's bytes one after the other, in
     * process order, and in *recv_bytes one count per process (both
     * malloc'd, the caller frees them; NULL on the other processes).
     * Returns 0, on every process, when any process could not.  With
     * scatterv, the definitions of an OTF2 archive whose processes drew
     * their shares alone (rank 0 numbers them, each process gets back its
     * maps: traffic linear in the processes); NULL: such an archive fails. */
    int (*gatherv)(void *ctx, const void *send, size_t send_bytes, void **recv, size_t **recv_bytes);
    /* Process 0 hands send_bytes[q] bytes to each process q (the parts
     * follow one another at send, in process order; both read on process
     * 0 only), and every process receives its part in *recv (malloc'd,
     * never NULL on success; the caller frees it), *recv_bytes bytes.
     * Returns 0, on every process, when any process could not. */
    int (*scatterv)(void *ctx, const void *send, const size_t *send_bytes, void **recv, size_t *recv_bytes);
} pw_collectives;
/* The analyses that the processes compute together, each replaying its
 * share and exchanging through the collectives set on ds (the MPI wait
 * states: message and collective sides in time windows): every process
 * calls it after pw_dataset_set_share and pw_dataset_set_collectives
 * (with alltoallv), at the same point; share 0 keeps the results, which
 * its pw_stats_join then reports instead of reading every location.
 * Without collectives, or with one process, it computes them alone. */
PW_API pw_status pw_stats_together(pw_dataset *ds, pw_error *err);
/* With collectives set (c must outlive ds), pw_convert_output to a
 * PW_SINK_TOGETHER target is called by every process with the same
 * arguments: share 0 prepares and commits the output under the output
 * discipline, every process writes its share into it.  NULL: alone. */
PW_API void pw_dataset_set_collectives(pw_dataset *ds, const pw_collectives *c);
/* 1 when the last conversion drew only this process's share (collectives
 * with an exchange set, and the timeline could split: see
 * docs/scaling.md); its findings are then its share's own.  0: every
 * process read every location. */
PW_API int pw_dataset_drew_share_alone(const pw_dataset *ds);

#ifdef __cplusplus
}
#endif
#endif /* PERFWEAVE_H */
