/* hpctoolkit.h — the HPCToolkit reader's shared state.
 *
 * Two database generations are read (hpctoolkit-facts.md §1):
 *   released 4.0  meta.db + profile.db + cct.db + trace.db, little-endian,
 *                 "HPCTOOLKIT" magics, stored structure sizes (FORMATS.md);
 *   prototype     experiment.xml + big-endian profile.db/cct.db/trace.db
 *                 with "HPCPROF-*" magics (hpctoolkit-database-v4.md, facts §2).
 * Both are turned into the same in-memory picture: the calling-context tree
 * (metadata, kept in memory), metric ids, profiles and trace lines (where
 * their bytes are).  Metric values stay in the files: they are read through
 * windows and looked up by binary search, never densified. */
#ifndef PW_HPCTOOLKIT_H
#define PW_HPCTOOLKIT_H
#include <stdint.h>

#include "core/window.h"
#include "model/dataset.h"
#include "model/part.h"

#define HPC_NONE UINT32_MAX

/* HPC_OLD_XML: experiment.xml 2.x + one dense *.metric-db per rank/thread
 * (facts §4), HPCToolkit up to 2022.05. */
typedef enum hpc_generation { HPC_RELEASED = 1, HPC_PROTOTYPE = 2, HPC_OLD_XML = 3 } hpc_generation;

/* What a context is (meta.db lexicalType, or the experiment.xml element). */
typedef enum hpc_ctx_kind {
    HPC_CTX_ROOT = 0,    /* the implicit global context, id 0 */
    HPC_CTX_ENTRY,       /* entry point ("main thread") */
    HPC_CTX_FUNCTION,
    HPC_CTX_LOOP,
    HPC_CTX_LINE,
    HPC_CTX_INSTRUCTION
} hpc_ctx_kind;

typedef struct hpc_ctx {
    uint32_t parent;       /* parent id; HPC_NONE for the root */
    uint32_t first_child;  /* tree links by id; HPC_NONE when none */
    uint32_t next_sibling;
    uint32_t proc;         /* procedure index (entries, functions); HPC_NONE */
    uint32_t frame_depth;  /* entry/function/loop ancestors including itself */
    const char *file;
    const char *module;
    uint64_t offset;
    uint32_t line;
    uint8_t present;       /* the id names a context of the tree */
    uint8_t kind;          /* hpc_ctx_kind */
    uint8_t relation;      /* 0 lexical, 1 call, 2 inlined call */
    uint8_t has_line, has_offset;
} hpc_ctx;

/* A named function (or entry point): the unit of the flat views. */
typedef struct hpc_proc {
    const char *name;
    const char *module;
    const char *file;
    uint32_t line;
} hpc_proc;

/* One metric id as the files use it. */
typedef struct hpc_metric {
    uint16_t id;
    uint8_t summary;       /* a summary-statistic id (summary profiles only) */
    const char *name;      /* "CPUTIME (sec)" */
    const char *scope;     /* "execution", "function", "point", ... or "inclusive"/"exclusive" */
    const char *combine;   /* "sum", "min", "max" (summary ids), else NULL */
} hpc_metric;

/* A metric as the views show it: inclusive and exclusive ids in summary
 * profiles and in per-thread profiles (-1: absent). */
typedef struct hpc_view_metric {
    const char *name;
    int32_t sum_incl, sum_excl, prof_incl, prof_excl;
} hpc_view_metric;

/* Where a profile's sparse value block lives.  Released: values are
 * (u16 metric, f64) pairs, the context index (u32 ctx, u64 start) pairs;
 * prototype: (f64, u16 metric) pairs, then the index plus an end marker. */
typedef struct hpc_profile {
    uint64_t n_values;
    uint64_t p_values;
    uint64_t p_index;
    uint32_t n_ctxs;
    uint64_t info_off;     /* where its profile-info record is, for messages */
    const char *path;      /* the file its values are in (profile.db, or a .metric-db) */
    pw_input_id seen;      /* that file's identity when the database was opened */
    uint32_t dense_metrics; /* old XML: values per context in the dense array */
    uint32_t trace;        /* index of its trace line, or HPC_NONE */
    int32_t location;
    uint8_t summary;
    const char *tuple;     /* "RANK.0/THREAD.0", or "summary" */
} hpc_profile;

typedef struct hpc_trace {
    uint32_t prof;
    uint64_t start, end;   /* sample bytes [start, end), 12 bytes each */
    uint64_t hdr_off;
} hpc_trace;

typedef struct hpc_dataset {
    hpc_generation gen;
    int big;                       /* byte order of the .db files */
    const char *meta_path, *xml_path, *profile_path, *cct_path, *trace_path;
    pw_input_id seen_trace;        /* trace.db's identity when the database was opened */
    _Atomic uint64_t *progress;    /* the dataset's bytes-read counter (progress bar) */
    hpc_ctx *ctx;                  /* indexed by context id */
    uint32_t n_ids;                /* slots in ctx (max id + 1) */
    uint64_t id_limit;             /* ids must stay below this (set from the tree's size) */
    uint32_t n_contexts;           /* present contexts, the root included */
    uint32_t max_frame_depth;
    hpc_proc *procs;
    uint32_t n_procs, cap_procs;
    hpc_metric *metrics;
    uint32_t n_metrics, cap_metrics;
    hpc_view_metric *views;
    uint32_t n_views;
    const char **kind_names;       /* identifier kind -> name */
    uint32_t n_kind_names;
    hpc_profile *profs;
    uint32_t n_profs;
    hpc_trace *traces;
    uint32_t n_traces;
    int has_trace_range;
    uint64_t trace_min, trace_max;
    uint32_t cct_ids;              /* contexts listed in cct.db */
    int32_t cct_location;
    /* options */
    int frames;                    /* trace cursors yield enter/leave frames */
    int depth;                     /* top-down tree depth (0: unlimited) */
    double threshold;              /* top-down: hide below this % of total */
    int summary_only;              /* stats: only the views of the summary profile */
    const char *metric;            /* stats: --metric NAME, or NULL (hpctoolkit_metric_choice.c) */
    int has_lookup;                /* stats: only the values of one context */
    uint32_t lookup_ctx, lookup_prof;
} hpc_dataset;

/* A .db file read through a window, with errors in its own terms. */
typedef struct hpc_file {
    pw_window w;
    const char *path;
    int big;
} hpc_file;

/* hpctoolkit_file.c */
pw_status hpc_file_open(hpc_file *f, const char *path, int big, size_t cap, pw_error *err);
void hpc_file_close(hpc_file *f);
/* The bytes f reads from now on advance the progress bar: called on the
 * windows that sweep profile.db values and trace.db (what progress_total
 * counts), not on index lookups. */
void hpc_file_count_progress(hpc_file *f, const hpc_dataset *h);
pw_status hpc_need(hpc_file *f, uint64_t off, size_t n, const uint8_t **p, const char *what,
                   pw_error *err);
pw_status hpc_u64(hpc_file *f, uint64_t off, uint64_t *v, const char *what, pw_error *err);
/* Fails unless [off, off + n) lies within [lo, hi); the error names the
 * offset of the field that gave off and n. */
pw_status hpc_within(const hpc_file *f, uint64_t field, uint64_t off, uint64_t n, uint64_t lo,
                     uint64_t hi, const char *what, pw_error *err);
/* The NUL-terminated string at off, which must end before `end`; copied
 * into the dataset. */
pw_status hpc_string(pw_dataset *ds, hpc_file *f, uint64_t off, uint64_t end, const char **s,
                     const char *what, pw_error *err);

/* hpctoolkit_tree.c: the context table. */
pw_status hpc_tree_reserve(pw_dataset *ds, hpc_dataset *h, uint64_t max_id, const char *file,
                           int64_t off, pw_error *err);
/* Adds context `id` under `parent`; PW_E_DATA when the id is taken. */
pw_status hpc_tree_add(hpc_dataset *h, uint32_t id, uint32_t parent, hpc_ctx_kind kind,
                       const char *file, int64_t off, pw_error *err);
uint32_t hpc_proc_add(hpc_dataset *h, const char *name, const char *module,
                      const char *file, uint32_t line);
void hpc_tree_finish(hpc_dataset *h);
const char *hpc_ctx_kind_name(hpc_ctx_kind k);
/* The context's display name: its procedure, "loop at f:l", "f:l", ... */
const char *hpc_ctx_label(const hpc_dataset *h, uint32_t id, char *buf, size_t n);
/* The procedure a context belongs to (itself or its nearest ancestor). */
uint32_t hpc_ctx_proc(const hpc_dataset *h, uint32_t id);
int hpc_is_frame(const hpc_ctx *c);

/* hpctoolkit_metrics.c */
pw_status hpc_metric_add(pw_dataset *ds, hpc_dataset *h, uint16_t id, int summary,
                         const char *name, const char *scope, const char *combine,
                         pw_error *err);
const hpc_metric *hpc_metric_find(const hpc_dataset *h, uint16_t id, int summary);
pw_status hpc_views_build(pw_dataset *ds, hpc_dataset *h, pw_error *err);

/* hpctoolkit_meta.c (released meta.db), hpctoolkit_xml.c (prototype). */
pw_status hpc_meta_read(pw_dataset *ds, hpc_dataset *h, pw_error *err);
pw_status hpc_xml_read(pw_dataset *ds, hpc_dataset *h, pw_error *err);
/* The experiment.xml version attribute ("4.0", "2.0"), or NULL. */
char *hpc_xml_version(const char *path);

/* hpctoolkit_profile.c */
pw_status hpc_profiles_read(pw_dataset *ds, hpc_dataset *h, pw_error *err);
/* Values of context `ctx` in profile p, by binary search over its context
 * index: values [*first, *end) of the block.  0 values when absent. */
pw_status hpc_profile_find(const hpc_dataset *h, const hpc_profile *p, hpc_file *f,
                           uint32_t ctx, uint64_t *first, uint64_t *end, pw_error *err);
/* Value i of profile p. */
pw_status hpc_profile_value(const hpc_dataset *h, const hpc_profile *p, hpc_file *f, uint64_t i,
                            uint16_t *metric, double *value, pw_error *err);
/* Context-index entry i of profile p: its context and first value.  The
 * entry one past the last gives the end (n_values for released files). */
pw_status hpc_profile_index(const hpc_dataset *h, const hpc_profile *p, hpc_file *f, uint64_t i,
                            uint32_t *ctx, uint64_t *start, pw_error *err);

/* hpctoolkit_metricdb.c: the old format's dense per-rank files. */
pw_status hpc_metricdb_read(pw_dataset *ds, hpc_dataset *h, const char *dir, pw_error *err);

/* hpctoolkit_trace.c */
pw_status hpc_traces_read(pw_dataset *ds, hpc_dataset *h, pw_error *err);
/* Bytes of one value in a profile's value array. */
static inline unsigned hpc_value_size(const hpc_dataset *h) { return h->gen == HPC_OLD_XML ? 8 : 10; }
static inline uint64_t hpc_trace_samples(const hpc_trace *t) { return (t->end - t->start) / 12; }

/* hpctoolkit_cct.c: validation of cct.db (run by check). */
void hpc_cct_check(pw_dataset *ds, hpc_dataset *h);
pw_status hpc_cct_read_header(pw_dataset *ds, hpc_dataset *h, pw_error *err);

/* hpctoolkit_locations.c */
pw_status hpc_locations_build(pw_dataset *ds, hpc_dataset *h, pw_error *err);

/* hpctoolkit_schemas.c */
enum { HPC_SCHEMA_CONTEXT = 0, HPC_SCHEMA_VALUE, HPC_SCHEMA_SAMPLE, HPC_SCHEMA_ENTER,
       HPC_SCHEMA_LEAVE };
pw_status hpc_schemas_build(pw_dataset *ds, pw_error *err);

/* hpctoolkit_cursor.c */
pw_status hpc_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err);

/* hpctoolkit_check.c */
pw_status hpc_check(pw_dataset *ds, pw_error *err);

/* hpctoolkit_views.c: the figures behind the views. */
/* Inclusive and exclusive values of view metric vm in profile p, per
 * context id (arrays of n_ids, zero where the profile has no value). */
pw_status hpc_profile_columns(const hpc_dataset *h, uint32_t p, const hpc_view_metric *vm,
                              double *incl, double *excl, pw_error *err);
/* Per procedure: inclusive (outermost calls only) and exclusive sums of
 * per-context columns. */
void hpc_procedure_totals(const hpc_dataset *h, const double *incl, const double *excl,
                          double *proc_incl, double *proc_excl);
/* Exclusive value of view metric vm per chosen procedure, for every
 * profile: out[prof * n_chosen + k] (summary profiles, and those that
 * `only` leaves out when not NULL, get 0). */
pw_status hpc_procedure_by_profile(pw_dataset *ds, const hpc_view_metric *vm,
                                   const uint32_t *chosen, uint32_t n_chosen, const uint8_t *only,
                                   double *out, pw_error *err);
/* Per trace: samples, first and last time; and ns per procedure from
 * sample durations (index n_procs: not running / unknown); only the
 * traces of the profiles in `only` when not NULL. */
typedef struct hpc_trace_figures {
    uint64_t samples, t_first, t_last;
} hpc_trace_figures;
pw_status hpc_trace_time(pw_dataset *ds, const uint8_t *only, hpc_trace_figures *per_trace, double *proc_ns,
                         pw_error *err);

/* hpctoolkit_stats.c */
pw_status hpc_stats(pw_dataset *ds, pw_report *r, pw_error *err);
/* The tables of the summary (hpctoolkit_tables.c). */
extern const pw_table_decl *const hpc_table_decls[];
/* The stats of several processes: a part holds the per-profile figures
 * (imbalance values, trace lines) of a share's profiles; the join
 * reports them with the views of the summary profile, as hpc_stats. */
pw_status hpc_stats_part(pw_dataset *ds, size_t first, size_t end, void **part, size_t *size, pw_error *err);
pw_status hpc_stats_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n, pw_report *r,
                         pw_error *err);

/* hpctoolkit_stats_parts.c: the per-profile figures of stats in a part and
 * back.  Rows: row p (width values) of every profile p in `mine`. */
void hpc_part_put_rows(pw_part_writer *w, const uint8_t *mine, uint32_t n_profs, uint32_t width, const double *rows);
/* Rows from every part into rows (n_profs x width); 0 when a part does not fit. */
int hpc_part_get_rows(pw_part_reader *parts, size_t n_parts, uint32_t n_profs, uint32_t width, double *rows);
/* Trace lines of the profiles in `mine`, and their ns per procedure. */
void hpc_part_put_traces(pw_part_writer *w, const hpc_dataset *h, const uint8_t *mine,
                         const hpc_trace_figures *fig, const double *ns);
int hpc_part_get_traces(pw_part_reader *parts, size_t n_parts, const hpc_dataset *h, hpc_trace_figures *fig,
                        double *ns);
#endif
