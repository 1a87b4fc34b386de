/* ross.h — the ROSS instrumentation reader's shared state.
 *
 * ROSS writes raw little-endian x86-64 structs with no header or magic
 * (ross-facts.md §1): `<prefix>-gvt.bin`, `-rt.bin` (engine samples),
 * `-analysis-lps.bin` (virtual-time engine samples mixed with lp_metadata
 * model records), `-evtrace.bin` (event trace) and `-model.bin` (model
 * samples).  Multi-rank files are flushes of one chunk per rank, so records
 * of one PE are contiguous runs scattered through the file: open() walks
 * the headered files once, finds every PE's runs and every PE/KP/LP, and
 * each (file, PE) becomes one stream location read by its own cursor.  The
 * event trace names no PE, so it is one stream read without an index. */
#ifndef PW_ROSS_H
#define PW_ROSS_H
#include <stddef.h>
#include <stdint.h>

#include "core/window.h"
#include "formats/ross/ross_idmap.h"
#include "model/dataset.h"

/* sample_metadata: i32 flag, i32 sample_sz, f64 ts, f64 real_time. */
#define ROSS_SAMPLE_HDR 24
#define ROSS_PE_BODY 104
#define ROSS_KP_BODY 44
#define ROSS_LP_BODY 48      /* since Dec 2023: + u64 s_process_event + padding */
#define ROSS_LP_BODY_OLD 36  /* before Dec 2023 */
#define ROSS_MODEL_META 24   /* model_metadata after sample_metadata */
#define ROSS_LP_METADATA 48  /* the VT model record header */
#define ROSS_EVENT_HDR 24
/* Records never straddle a rank's flush buffer (8 MB by default); a payload
 * larger than this cannot be real. */
#define ROSS_MAX_PAYLOAD ((size_t)16 << 20)
/* The final RT sample is stamped DBL_MAX (ross-facts.md §2). */
#define ROSS_FINAL_TS 1.7976931348623157e308

typedef enum ross_file_kind {
    ROSS_FILE_GVT = 0,
    ROSS_FILE_RT,
    ROSS_FILE_VT,      /* analysis-lps */
    ROSS_FILE_EVTRACE,
    ROSS_FILE_MODEL,
    ROSS_N_FILE_KINDS
} ross_file_kind;

/* Record types; the first ROSS_N_RECS schemas of a dataset, in this order. */
typedef enum ross_rec {
    ROSS_REC_PE = 0,
    ROSS_REC_KP,
    ROSS_REC_LP,
    ROSS_REC_VT_PE,
    ROSS_REC_VT_KP,
    ROSS_REC_VT_LP,
    ROSS_REC_MODEL,
    ROSS_REC_VT_MODEL,
    ROSS_REC_EVTRACE,
    ROSS_N_RECS
} ross_rec;

/* One record found at a file offset (ross_record.c). */
typedef struct ross_hdr {
    ross_rec rec;
    size_t size;          /* whole record */
    size_t payload_off;   /* model payload start, within the record */
    size_t payload_len;
    uint64_t peid, kpid, lpid; /* as far as the record names them */
    double ts;            /* the record's virtual time */
    const uint8_t *p;     /* the record's bytes, valid until the next window call */
} ross_hdr;

/* A byte range [begin, end) of consecutive records of one PE. */
typedef struct ross_run {
    uint64_t begin, end;
} ross_run;

typedef struct ross_file {
    const char *path;
    ross_file_kind kind;
    int32_t loc;          /* the file's location */
    uint64_t size;
    pw_input_id seen;     /* identity when walked: cursors read the same file */
    int has_ts;           /* ts_min/ts_max hold finite sample times */
    double ts_min, ts_max;
} ross_file;

/* What one stream location reads: its file and, for indexed files, runs. */
typedef struct ross_stream_def {
    int32_t loc;          /* the stream's location */
    int file;             /* index into ross_dataset.files */
    int64_t peid;         /* -1: the whole file (event trace) */
    ross_run *runs;
    size_t n_runs, cap_runs;
} ross_stream_def;

#define ROSS_SCHEMA_MAX_FIELDS 256
/* A payload field named by --ross-model-schema / --ross-event-schema. */
typedef struct ross_payload_schema {
    pw_field *fields;     /* the user's fields (pad entries excluded) */
    size_t n_fields;
    uint8_t *widths;      /* per field: bytes; sign/float in kinds */
    uint8_t *kinds;       /* 'u', 'i', 'f' */
    uint32_t *offsets;
    size_t size;          /* bytes the schema describes */
} ross_payload_schema;

/* What the open-time walk remembers to avoid id look-ups per record. */
#define ROSS_WALK_MAX_LP ((uint64_t)1 << 24) /* dense LP table for ids below */
typedef struct ross_walk_lp {
    int32_t parent, loc;
} ross_walk_lp;
typedef struct ross_walk {
    ross_idcache cache;   /* in front of ross_dataset.ids */
    ptrdiff_t stream;     /* the stream of the last record, or -1 */
    uint64_t peid, kpid;  /* the last record's PE and KP ... */
    int32_t pe, kp;       /* ... and their locations (-1: none) */
    ross_walk_lp *lp;     /* LP id -> (KP location, LP location) */
    size_t n_lp;
} ross_walk;

typedef struct ross_dataset {
    ross_file files[ROSS_N_FILE_KINDS];
    int n_files;
    int lp_forced;        /* LP body size forced by --ross-lp-layout, or 0 */
    int lp_seen[2];       /* LP records of 48 / 36 bytes were found */
    ross_idmap ids;       /* (parent location, id) -> location */
    ross_walk walk;       /* open()'s walk state, freed after it */
    ross_stream_def *streams;
    size_t n_streams, cap_streams;
    int32_t *stream_of_loc; /* per location: stream index or -1 */
    ross_payload_schema model_schema, event_schema;
    uint64_t resyncs;
} ross_dataset;

/* Parent keys of the id map for ids that have no parent location. */
#define ROSS_PARENT_PE (-1)      /* peid -> PE location */
#define ROSS_PARENT_ANY_LP (-2)  /* lpid -> LP location (for the event trace) */

/* ross_record.c: the record at `off` of a file of `kind`.  PW_OK with h
 * set; PW_END exactly at the end of the file; PW_E_DATA with err and *code
 * set when the bytes cannot be a record (truncation, impossible flag or
 * size); PW_E_IO/PW_E_NOMEM from the window. */
pw_status ross_record_at(pw_window *w, ross_file_kind kind, int lp_forced, uint64_t off,
                         ross_hdr *h, const char **code, pw_error *err);

/* 1 when a valid record header is at `off` and its record fits in the
 * file (*size set); reads the header only, so scanning damage is cheap. */
int ross_record_fits(pw_window *w, ross_file_kind kind, int lp_forced, uint64_t off, size_t *size);

/* ross_locations.c: finds the files, walks them, builds locations and runs. */
pw_status ross_layout_open(pw_dataset *ds, ross_dataset *rd, pw_error *err);
int ross_probe_path(const char *path);
void ross_layout_free(ross_dataset *rd);

/* ross_payload.c: --ross-model-schema / --ross-event-schema files. */
pw_status ross_payload_schema_load(pw_dataset *ds, const char *file, ross_payload_schema *ps,
                                   pw_error *err);
void ross_payload_decode(const ross_payload_schema *ps, const uint8_t *p, pw_value *values);
void ross_payload_schema_free(ross_payload_schema *ps);

/* ross_schemas.c: the record schemas and field decoding. */
pw_status ross_schemas_build(pw_dataset *ds, ross_dataset *rd, pw_error *err);
void ross_decode(const ross_dataset *rd, const ross_hdr *h, int file_kind, pw_value *values);

/* ross_cursor.c: the cursor over one stream location. */
typedef struct ross_stream {
    pw_window w;
    const ross_dataset *rd;
    const ross_stream_def *def;
    const ross_file *file;
    size_t run;           /* current run */
    uint64_t off;         /* next record */
    ross_hdr h;           /* the current record */
    ross_idcache ids;     /* this reader's cache of rd->ids */
} ross_stream;
pw_status ross_stream_init(pw_dataset *ds, ross_stream *s, uint32_t loc, size_t window_cap,
                           pw_error *err);
void ross_stream_close(ross_stream *s);
/* The location a record names: its LP, KP or PE (the event trace: the LP
 * of src_lp when the dataset places it), or -1. */
int32_t ross_record_location(ross_stream *s);
/* The next record of the stream (PW_END at its end). */
pw_status ross_stream_step(ross_stream *s, const char **code, pw_error *err);
pw_status ross_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err);

/* ross_stats_parts.c: stats as parts of the streams of a share, joined
 * (the serial stats are one part over every stream). */
pw_status ross_stats_part(pw_dataset *ds, size_t first, size_t end, void **part, size_t *size,
                          pw_error *err);
pw_status ross_stats_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n,
                          pw_report *r, pw_error *err);
/* The tables of the summary (ross_stats_report.c). */
extern const pw_table_decl *const ross_table_decls[];
#endif
