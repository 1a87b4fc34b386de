/* ross_stats.h — the accumulators of `perfweave stats` for ROSS, shared by
 * the pass over the records (ross_stats.c, ross_stats_events.c) and the
 * report (ross_stats_report.c). */
#ifndef PW_ROSS_STATS_H
#define PW_ROSS_STATS_H
#include "formats/ross/ross.h"

#define ROSS_BINS 10          /* timeline intervals of virtual time per mode */
#define ROSS_MODES 2          /* gvt, rt: the engine files whose counters add up */
#define ROSS_PE_COUNTERS 13
#define ROSS_PE_TIMES 13      /* efficiency, then 12 times */
#define ROSS_DIST_BINS 32     /* send->receive distance: 0, then powers of two */
#define ROSS_DIST_MIN_EXP (-10)
#define ROSS_MAX_LP_COUNTS ((size_t)1 << 22) /* events-per-LP counts kept for ids below */
#define ROSS_PAYLOAD_SIZES 8

/* PE sample body: 13 u32 counters, then 13 f32 (efficiency, 12 times). */
enum { PE_PEID, PE_PROCESSED, PE_ABORT, PE_RBS, PE_RB_TOTAL, PE_RB_SECONDARY, PE_FC_ATTEMPTS,
       PE_PQ_QSIZE, PE_NSEND, PE_NREAD, PE_NGVTS, PE_TIES, PE_ALLREDUCE };

/* The pace of a PE's samples: their real time (seconds of ROSS's clock)
 * from the earliest sample to the latest, the net events (processed -
 * rolled back) of the earliest, which were committed before the span
 * began, and the GVT at the earliest sample and the highest one with the
 * real time it was first seen at (the final RT sample's marker left out). */
typedef struct ross_pace {
    double real_first, real_last;
    int64_t first_net;
    double vt_first;
    double vt_high, vt_high_real;
    int has_vt;
} ross_pace;
/* Sums over the samples of one PE or KP in one mode. */
typedef struct engine_acc {
    uint64_t samples;
    uint64_t c[ROSS_PE_COUNTERS]; /* indexed like the sample's u32 fields */
    double t[ROSS_PE_TIMES];      /* PE: indexed like the f32 fields */
    double ahead_sum, ahead_max;  /* KP time_ahead_gvt */
    uint64_t ahead_n;
    ross_pace pace;               /* PE: real time and GVT of the samples */
} engine_acc;

typedef struct timeline_bin {
    uint64_t samples, processed, rbs, rb_total, rb_secondary, nsend, nread;
} timeline_bin;

/* One named payload field over the model samples of one stream. */
typedef struct field_acc {
    uint64_t n;
    double min, max, sum;
} field_acc;

/* Per stream: what no PE/KP accumulator holds. */
typedef struct stream_acc {
    uint64_t records[ROSS_N_RECS];
    uint64_t stats_type[2]; /* model samples of GVT (1) and RT (2) type */
    field_acc *fields;      /* [2][model schema fields]: model, vt-model */
} stream_acc;

typedef struct event_acc {
    uint64_t n, payload_bytes, to_self, to_other_lp, same_pe, cross_pe, negative;
    double d_min, d_max, d_sum;
    uint64_t dist[ROSS_DIST_BINS];
    uint32_t *per_lp;      /* events received per destination LP id */
    size_t lp_cap;         /* per_lp entries allocated */
    uint64_t lp_beyond;    /* events whose destination id is too large to count */
    uint32_t sizes[ROSS_PAYLOAD_SIZES];
    size_t n_sizes;
    int nomem;
} event_acc;

typedef struct ross_stats_acc {
    pw_dataset *ds;
    const ross_dataset *rd;
    size_t n_pe, n_kp;
    int32_t *pe_index, *kp_index; /* location -> PE / KP number, or -1 */
    int32_t *pe_loc, *kp_loc;     /* PE / KP number -> location */
    engine_acc *pe, *kp;          /* [mode][number] */
    timeline_bin *pe_bins, *kp_bins; /* [mode][number][bin] */
    stream_acc *streams;
    event_acc ev;
    int64_t *lp_pe;               /* LP id -> PE id (-1 unknown), for ids < n_lp_pe */
    size_t n_lp_pe;
} ross_stats_acc;

/* Merges the pace `from` (of `from_samples` samples) into `to` (of
 * `to_samples`): the same PE's from two streams (per_pe: the earliest
 * sample's net events are the earliest stream's), or the PEs of a mode
 * (the net events before each PE's span add up). */
void ross_pace_merge(ross_pace *to, uint64_t to_samples, const ross_pace *from, uint64_t from_samples, int per_pe);
pw_status ross_stats_init(ross_stats_acc *st, pw_dataset *ds, pw_error *err);
void ross_stats_free(ross_stats_acc *st);
void ross_stats_add_event(ross_stats_acc *st, const ross_hdr *h);
/* Reads the listed streams (indexes into ross_dataset.streams) into the
 * accumulators, in parallel: each accumulator is fed by one stream. */
void ross_stats_scan(ross_stats_acc *st, const uint32_t *streams, size_t n);
pw_status ross_stats_report(const ross_stats_acc *st, pw_report *r, pw_error *err);
#endif
