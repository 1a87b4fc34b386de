/* dumpi.h — the SST DUMPI reader's shared state.
 *
 * A trace is a `.meta` file plus one big-endian `.bin` per rank: magic,
 * stream of call records, header, footer, keyval, perf labels, datatype
 * sizes, function-address labels, and a 64-byte index at the end
 * (dumpi-facts.md §1-5).  One location per rank (`rank<N>`) holds the
 * records; calls made by a thread other than 0 are attributed to a child
 * location `rank<N>/thread<T>` found while opening. */
#ifndef PW_DUMPI_H
#define PW_DUMPI_H
#include <stdint.h>

#include "core/bytes.h"
#include "core/window.h"
#include "formats/dumpi/dumpi_table.h"
#include "model/dataset.h"
#include "model/mpi_profile.h"

#define DUMPI_MAGIC 0xFFAADD44554D5049ull
#define DUMPI_FOOTER_MAGIC 0x00000000F007FEE7ull
#define DUMPI_INDEX_SIZE 64
#define DUMPI_FOOTER_ENTRIES 291 /* labels 0..290; 290 = total */
/* The largest single record accepted (arrays of a huge communicator). */
#define DUMPI_MAX_RECORD ((size_t)256 << 20)
#define DUMPI_MASK_STATUS 0x03
#define DUMPI_MASK_CPU 0x04
#define DUMPI_MASK_WALL 0x08
#define DUMPI_MASK_THREAD 0x40
#define DUMPI_MASK_PERF 0x80
#define DUMPI_MAX_PERF 255

/* What the index and the records after the stream say about one rank. */
typedef struct dumpi_rank {
    int rank;
    char *file;
    uint64_t file_size;
    int32_t loc;               /* the rank's location */
    int usable;                /* the stream can be read */
    uint64_t off_stream, off_header, off_footer, off_perf, off_sizes, off_addr, off_keyval;
    uint64_t stream_end;       /* where records must stop (the header) */
    uint32_t cpu_bias, wall_bias; /* whole seconds added to record times */
    int end_known;             /* the index gave the header offset */
    int has_header;
    int version[3];
    uint64_t starttime;
    char *hostname, *username, *mesh_crd, *mesh_size; /* mesh arrays as "[a, b]" */
    uint32_t meshdim, n_keyvals, n_addrs;
    char *addrs;               /* "0x<addr> <name>" lines joined by "; " */
    int has_footer;
    uint32_t calls[DUMPI_FOOTER_ENTRIES], ignored[DUMPI_FOOTER_ENTRIES];
    uint32_t n_sizes;
    uint32_t *sizes;           /* bytes per DUMPI datatype id */
    uint32_t n_perf;
    pw_field *perf_fields;     /* n_perf perf labels (malloc'd names) */
    /* Threads seen in the stream, sorted, and their locations. */
    uint16_t *threads;
    int32_t *thread_locs;
    size_t n_threads;
    uint64_t records;
    int stream_damaged;        /* the open-time pass stopped at damage */
    int timed;                 /* a record holds a CPU or wall time block */
    /* Records per label, kept by a two-step open's share for the others
     * while the open is pending, freed once dumpi_share_found has put
     * them in its words (NULL: not walked, the open is whole, or sent). */
    uint64_t *records_of;
    pw_input_id seen;          /* the file's identity when first read */
    pw_error *io_error;        /* the file could not be read (a system fault) */
} dumpi_rank;

struct dumpi_fn_use;

typedef struct dumpi_dataset {
    dumpi_rank *ranks;
    size_t n_ranks;
    /* What the open-time pass gathered per rank slot for `stats`. */
    pw_mpi_rank_profile *profiles;
    struct dumpi_fn_use *uses;
    pw_mpi_profiles published; /* ds->mpi_profiles */
    int profiled;              /* the open-time pass made `profiles` */
    int32_t *rank_of_loc;      /* location index -> rank slot, -1 */
    /* Rank slots [scan_first, scan_end) were walked in full at open; with
     * `pending`, the others wait for dumpi_share_complete (two-step open). */
    size_t scan_first, scan_end;
    int pending;
} dumpi_dataset;

/* One record's layout, as the walker found it. */
typedef struct dumpi_rec {
    uint16_t label;
    uint8_t mask;
    uint16_t thread;
    uint32_t size;
    uint32_t perf_off;           /* offset of the perf count byte */
    uint8_t n_perf;
    uint32_t times_off;          /* offset of the first time block */
    /* Where the arguments start: the function's leading ones (fixed
     * places, dumpi_function.lead_args) lie at args_at + arg_at[i], and
     * only the others are placed one by one in arg_off (UINT32_MAX: the
     * argument is absent).  Most calls are all leading arguments, so the
     * walk stores one offset, not sixteen. */
    uint32_t args_at;
    uint32_t arg_off[DUMPI_MAX_ARGS];
} dumpi_rec;

/* Where argument `arg` of the record lies, UINT32_MAX when absent. */
static inline uint32_t dumpi_arg_off(const dumpi_rec *rec, const dumpi_function *fn, int arg)
{
    return arg < fn->lead_args ? rec->args_at + fn->arg_at[arg] : rec->arg_off[arg];
}

/* dumpi_locations.c: the files of a trace, the .meta file, rank slots.
 * Under pw_open_share, layout_open walks only the share's rank files and
 * leaves dd->pending; layout_finish (the open's end: locations, properties)
 * then runs in dumpi_share_complete. */
pw_status dumpi_layout_open(pw_dataset *ds, dumpi_dataset *dd, pw_error *err);
pw_status dumpi_layout_finish(pw_dataset *ds, dumpi_dataset *dd, pw_error *err);
int dumpi_probe_path(const char *path);

/* Fields "counter0".."counter254": perf values of records that carry more
 * counters than the rank's label record names. */
const pw_field *dumpi_unlabelled_counters(void);

/* dumpi_rankfile.c: index, header, footer and the records after them. */
void dumpi_rankfile_read(pw_dataset *ds, dumpi_rank *r);
void dumpi_rankfile_free(dumpi_rank *r);
pw_status dumpi_rankfile_props(pw_dataset *ds, const dumpi_rank *r, pw_error *err);

/* dumpi_record.c: walks one record at off (stopping before `end`); *bytes
 * points at it in the window until the window's next use.  PW_END at the
 * end-of-stream label. */
pw_status dumpi_walk(pw_window *w, uint64_t off, uint64_t end, dumpi_rec *rec, const uint8_t **bytes,
                     const char **code, pw_error *err);
/* dumpi_walk's common case alone: 1 when a known label's record lies
 * whole in what the window holds at off (set as dumpi_walk sets them);
 * 0 when the general walk must decide (nothing is reported). */
int dumpi_walk_buffered(pw_window *w, uint64_t off, uint64_t end, dumpi_rec *rec, const uint8_t **bytes);
/* The integer at q of an argument encoded enc into *out; 0 when the
 * encoding is no integer (a list).  Tests in order of frequency, not a
 * switch: a jump table's indirect branch costs more per argument. */
static inline int dumpi_int_at(const uint8_t *q, int enc, int64_t *out)
{
    if (enc == DUMPI_ENC_I32) /* the most common: counts, ranks, tags, requests */
        *out = (int32_t)pw_be32(q);
    else if (enc == DUMPI_ENC_U16) /* handles */
        *out = pw_be16(q);
    else if (enc == DUMPI_ENC_I64)
        *out = (int64_t)pw_be64(q);
    else if (enc == DUMPI_ENC_U8)
        *out = q[0];
    else
        return 0;
    return 1;
}
/* A scalar argument of the record at p (0 when absent). */
static inline int64_t dumpi_arg_int(const dumpi_rec *rec, const uint8_t *p, int arg)
{
    const dumpi_function *fn = &dumpi_functions[rec->label];
    uint32_t o = dumpi_arg_off(rec, fn, arg);
    int64_t v;
    return o != UINT32_MAX && dumpi_int_at(p + o, fn->args[arg].enc, &v) ? v : 0;
}

/* dumpi_scan.c: the open-time pass over one rank (slot i): threads, the
 * footer's counts, and the profile that `stats` reports. */
void dumpi_scan_rank(pw_dataset *ds, dumpi_dataset *dd, size_t i);
/* The findings of the pass over rank r, from what it counted (records
 * per label): made by the process that walked it, or from another
 * share's counts (dumpi_share.c). */
void dumpi_scan_findings(pw_dataset *ds, const dumpi_rank *r, const uint64_t *records_of);

/* dumpi_share.c: the two-step open (pw_format_ops.share_found/complete). */
pw_status dumpi_share_found(pw_dataset *ds, void **found, size_t *size, pw_error *err);
pw_status dumpi_share_complete(pw_dataset *ds, const void *const *found, const size_t *sizes, size_t n,
                               pw_error *err);

/* dumpi_cursor.c: the cursor over one rank. */
typedef struct dumpi_stream {
    pw_window w;
    dumpi_rank *rank;
    uint64_t off;
    int started;
    const uint8_t *p;          /* the current record's bytes */
    dumpi_rec rec;
    /* The current record's times, [cpu|wall][entry|exit]: whole seconds
     * with the bias added and the 16-bit wraps undone, and nanoseconds. */
    uint64_t sec[2][2];
    uint32_t nsec[2][2];
    uint64_t wraps[2];         /* 16-bit second wraps seen: cpu, wall */
    uint16_t last_sec[2];
    int seen_sec[2];
    uint64_t last_full[2];     /* last_sec with bias and wraps, once seen */
    struct dumpi_int_plans *plans; /* dumpi_ints.c's, made at the first ints call */
} dumpi_stream;
pw_status dumpi_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err);
/* Advances an open stream to its next record without the pw_cursor
 * machinery (the stats and scan passes): PW_OK, PW_END or an error. */
pw_status dumpi_stream_next(dumpi_stream *s, const char **code, pw_error *err);
pw_status dumpi_stream_init(dumpi_stream *s, dumpi_rank *r, size_t window_cap, _Atomic uint64_t *progress,
                            pw_error *err);
void dumpi_stream_fini(dumpi_stream *s);
/* The record the stream's current call is (what a cursor yields). */
void dumpi_stream_record(const dumpi_stream *s, pw_record *out);

/* dumpi_ints.c: the integer fields fields[0 .. n) of the current call
 * into view (pw_cursor_ops.ints), through a plan kept per function and
 * list; and the plans' release. */
void dumpi_stream_ints(dumpi_stream *s, const int16_t *fields, size_t n, pw_value *view);
void dumpi_int_plans_free(struct dumpi_int_plans *plans);

/* dumpi_check.c: cross-file checks run by pw_check. */
pw_status dumpi_check(pw_dataset *ds, pw_error *err);

#endif
