/* mpi_waits.h — where an MPI run loses its time, format independent: wait
 * states with Scalasca's definitions, the per rank x function profile with
 * wait time, idle time (Pipit's), the time profile and communication over
 * time bins, load imbalance per function.
 *
 * Records are MPI calls as spans (t .. t_end); fields are found by name as
 * in timeline_flows.h (dest, source, tag, comm, request(s), status(es),
 * index, indices, outcount, flag) and mpi_coll.h (root, counts, types).
 *
 * The ranks are replayed together, once (replay.c): every rank advances
 * to a time horizon, ranks in parallel, then the horizon moves on.  What
 * one rank needs of another goes through two exchange points only:
 *   channels.c    a FIFO per world channel (communicator, source,
 *                 destination, tag) of the messages one side has seen and
 *                 the other not yet: the send entry for the receiver, the
 *                 receive post for a synchronous sender; a message is
 *                 freed once both sides are done with it;
 *   waits_coll.c  the collective instances of a communicator that not
 *                 every member has entered yet, freed when the last does.
 * A call whose other side is not there yet waits as a pending call
 * (pending.c) until it is, and is then charged its wait.  Before the
 * replay, the communicators and each rank's time bounds (for the bins)
 * come from the format's open-time profile (model/mpi_profile.h) or, when
 * it has none, from a census pass over the records (census.c).  The
 * critical path is computed forward after each window
 * (critical_path_forward.h; spread over processes,
 * critical_path_spread.h); convert --waits walks it back over the waits
 * (critical_path.c).
 * Memory: open requests, messages one side has not yet seen (or a side
 * has not finished), collective instances in flight, pending calls, each
 * rank's calls and waits since the critical path's frontier; for the walk
 * back, 32 bytes per wait state. */
#ifndef PW_ANALYSIS_MPI_WAITS_H
#define PW_ANALYSIS_MPI_WAITS_H
#include <pthread.h>
#include <stdint.h>

#include "views/keymap.h"
#include "views/mpi_coll.h"
#include "views/mpi_comm_replay.h"
#include "views/msgmatch.h"
#include "views/timeline_flows.h"
#include "views/timeline_schema.h"
#include "model/dataset.h"

typedef enum mw_wait {
    MW_LATE_SENDER,
    MW_LATE_RECEIVER,
    MW_WAIT_NXN,
    MW_WAIT_BARRIER,
    MW_LATE_BROADCAST,
    MW_EARLY_REDUCE,
    MW_N_WAITS
} mw_wait;

extern const char *const mw_wait_names[MW_N_WAITS];

/* The integer view's limits: fields read per call, and field indexes. */
#define MW_INTS_MAX 16
#define MW_VIEW_FIELDS 32

/* How the analyses read one schema's records: as the timeline finds
 * them (timeline_schema.h), with the call's view (tl.mpi: its message,
 * collective and MPI_Waitsome fields). */
typedef struct mw_schema {
    tl_schema tl;
    int8_t coll_wait; /* the mw_wait a collective of this kind incurs, -1: none */
    uint8_t sync;     /* a synchronous send (MPI_Ssend, MPI_Issend) */
    uint8_t idle;     /* one of Pipit's MPI idle functions */
    uint8_t p2p;      /* sends, receives or completes requests */
    uint8_t finalize; /* MPI_Finalize: the critical path ends at the last one */
    uint8_t release;  /* MPI_Request_free, MPI_Cancel: the request is given up, never waited for */
    /* The integer view (replay.c): every field the replay reads of this
     * schema's records, all integers below MW_VIEW_FIELDS, read through
     * the cursor's ints op without decoding the rest; n_ints 0: decoded
     * whole (a list among them, a collective). */
    int16_t ints[MW_INTS_MAX];
    uint8_t n_ints;
} mw_schema;

/* A wait state where it happened: from the call's entry until `resume`,
 * waiting for rank `cause` (the critical path jumps there). */
typedef struct mw_wait_at {
    int64_t enter, resume;
    int64_t cause;
    uint32_t location; /* the call's (the timeline draws the wait in it) */
    int kind;          /* mw_wait */
} mw_wait_at;

/* A time interval [a, b]. */
typedef struct mw_span {
    int64_t a, b;
} mw_span;

/* The other side of a call's messages seen latest, and its world rank. */
typedef struct mw_latest {
    int any;
    uint64_t t;
    int64_t rank;
} mw_latest;

/* A call whose wait needs another rank's side of some of its messages
 * (pending.c): charged when the last one arrives, or at the end. */
typedef struct mw_pending {
    int64_t enter, exit;
    uint32_t schema, location;
    uint32_t needs;         /* other sides still to come; UINT32_MAX: slot free */
    mw_latest send, post;   /* the latest send entry, receive post */
    uint32_t next_free;
} mw_pending;

struct mw_channel;

/* A rank's state through the replay. */
typedef struct mw_rank {
    int64_t rank;
    uint32_t *locs; /* its locations with records */
    size_t n_locs;
    pw_msgmatch mm;
    pw_keymap post_t;    /* request -> post time of a wildcard nonblocking receive */
    pw_keymap sync_reqs; /* MPI_Issend request -> flow id */
    struct mw_channel **chan; /* per matcher key: its world channel, NULL: none */
    uint64_t n_chan;
    struct mw_coll_pos {
        uint64_t calls;  /* collective calls so far */
        uint32_t comm;   /* its communicator (once known) */
        int32_t member;  /* the rank's comm rank there; -1: not tracked */
        int known;
    } *coll_pos;         /* per communicator instance */
    uint32_t n_coll;
    int worker;           /* the one that replays it: a block of neighbouring ranks each;
                           * only its thread touches the rank's pending calls and charges
                           * during a window (handoff.c) */
    mw_pending *pend;
    size_t n_pend, cap_pend;
    uint32_t free_pend; /* index + 1 of a free pending call, 0: none */
    /* the replay's position: the open cursor of locs[loc], its record
     * not handled yet (held), and each thread's latest call end */
    pw_cursor *cur;
    size_t loc;
    int held, done;
    struct mw_thread_ends {
        struct mw_thread_end {
            uint32_t loc;
            int64_t end;
        } *e;
        size_t n, cap;
        size_t open_from; /* e[open_from..n): threads of the open cursor, whose records may
                           * still come (a thread's records are in one location) */
    } ends;
    int64_t t_min, t_max;
    uint64_t records;    /* as the census counted them */
    uint32_t bin_hint;   /* the time bin of its latest call (time_profile.c) */
    uint8_t *seen;       /* per schema: has records */
    /* the current call's fields mw_schema.ints lists, by field index; the
     * others hold what earlier calls left and are never read */
    pw_value ints_view[MW_VIEW_FIELDS];
    /* results, per function (schema) */
    uint64_t *calls, *time_ns, *wait_ns;
    uint64_t *wait_fn[MW_N_WAITS];
    uint64_t wait_total[MW_N_WAITS];
    uint64_t idle_ns;
    /* critical path: the rank's waits, the intervals the path spends on
     * the rank, and what it does there (critical_path.c) */
    mw_wait_at *waits;
    size_t n_waits, cap_waits;
    mw_span *path;
    size_t n_path, cap_path;
    uint64_t *cp_ns;       /* per schema */
    uint64_t cp_compute_ns, compute_ns;
    int64_t finalize_exit; /* -1: none */
    struct mw_fwd_rank *fwd; /* the path computed forward (critical_path_forward.h), or NULL */
    int failed; /* memory ran out */
    int mine;   /* replayed by this process (exchange.h: all but a spread replay's others) */
    /* the report selection (model/filter.h): the window [sel_t0, sel_t1)
     * (INT64_MIN, INT64_MAX: none) its sums are clipped to, and whether
     * its rows are reported */
    int64_t sel_t0, sel_t1;
    int windowed, reported;
} mw_rank;

/* t moved into the rank's report window: the forward critical path sums
 * durations between such times, so its sums are the window's (the part of
 * [a, b) inside it is mw_clamp(b) - mw_clamp(a)). */
static inline int64_t mw_clamp(const mw_rank *rk, int64_t t)
{
    return t < rk->sel_t0 ? rk->sel_t0 : t > rk->sel_t1 ? rk->sel_t1 : t;
}

/* The part of [a, b) inside the rank's report window, in ns. */
static inline uint64_t mw_in_window(const mw_rank *rk, int64_t a, int64_t b)
{
    a = a < rk->sel_t0 ? rk->sel_t0 : a;
    b = b > rk->sel_t1 ? rk->sel_t1 : b;
    return b > a ? (uint64_t)b - (uint64_t)a : 0;
}

typedef struct mw_thread_ends mw_thread_ends;
typedef struct mw_coll_pos mw_coll_pos;

/* A function's time in one bin, exactly and in any order: a call's part
 * of the bin is hi - lo, each end either the call's own (integer ns,
 * summed in `ns` from the run's t0) or the bin's edge (counted); the
 * bin's time is ns + hi_edges x (end - t0) - lo_edges x (start - t0),
 * made once at the report.  Sums of integers do not depend on which
 * worker or process added what (time_profile.c). */
typedef struct mw_bin_sum {
    int64_t ns;
    uint64_t hi_edges, lo_edges;
} mw_bin_sum;

/* Time and communication bins, one set per worker, summed at the end. */
typedef struct mw_bins {
    uint32_t n;
    mw_bin_sum **fn; /* [schema][bin], a row made at the schema's first call */
    uint64_t *msgs, *bytes;
} mw_bins;

struct mw_comm_state;
struct mw_exchange;
typedef struct mw_handoffs mw_handoffs;

typedef struct mw_run {
    pw_dataset *ds;
    mw_schema *schemas;
    pw_comm_replay comms;
    pw_mpi_calls calls;
    mw_rank *ranks;
    size_t n_ranks;
    int64_t *rank_slot; /* world rank -> index into ranks, -1 */
    size_t n_world;
    /* the exchange points: world channels, collective instances in flight */
    pthread_mutex_t links_lock;
    pw_keymap links;  /* world key -> index into channel */
    struct mw_channel **channel;
    size_t n_channels, cap_channels;
    struct mw_comm_state *comm; /* per communicator */
    size_t n_comm;
    int parallel;     /* ranks run in parallel: the exchange points lock */
    /* bins */
    int64_t t0, t1;
    double bin_step; /* (t1 - t0) / n_bins, numpy.linspace's step */
    double bin_per_ns; /* 1 / bin_step: a first guess of a time's bin, then
                        * corrected against the edges (time_profile.c) */
    uint32_t n_bins;
    double *edges;     /* n_bins + 1 */
    mw_bins *bins;     /* per worker */
    mw_handoffs *handoffs; /* per worker: what its ranks did to other workers' ranks (handoff.c) */
    int workers;
    int timed_only; /* the replay skips untimed records (waits_timeline.c) */
    int failed;
    struct mw_exchange *ex; /* the replay spread over processes (exchange.h), or NULL */
    struct mw_forward *fwd; /* the critical path computed forward (critical_path_forward.h),
                             * NULL: walked back over every wait */
    /* the report window (model/filter.h): the replay reads every record of
     * every rank (the critical path is the whole run's), the report clips */
    int windowed;
    int64_t sel_t0, sel_t1;
} mw_run;

/* The run's schemas classified: 1 when ds has MPI calls, 0 when not, -1
 * when memory runs out.  mw_prepare: ranks, communicators and time bounds
 * (census.c), bins; mw_replay: every rank replayed, the waits charged, the
 * critical path computed forward (run->fwd) or walked.  mw_run_free in
 * every case. */
int mw_run_init(mw_run *run, pw_dataset *ds);
pw_status mw_prepare(mw_run *run, pw_error *err);
pw_status mw_replay(mw_run *run, pw_error *err);
void mw_run_free(mw_run *run);

/* Each rank's worker (mw_rank.worker): `workers` blocks of neighbouring
 * ranks; run->parallel when more than one.  Before the replay's first
 * channel is made. */
void mw_assign_workers(mw_run *run, int workers);

/* 0 when memory runs out. */
int mw_schemas_classify(const pw_dataset *ds, mw_schema *out);

/* census.c: the communicators resolved and each rank's time bounds, from
 * the format's profile or else from a pass over the records. */
pw_status mw_census(mw_run *run, pw_error *err);
/* The cursor's next record, without noting damage again (the reader
 * reported it when the trace was read). */
pw_status mw_reread_step(pw_cursor *c, pw_error *err);

/* The replay of one record: its messages and collectives, then its
 * profile, bins and compute gap. */
void mw_waits_p2p(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v);
void mw_waits_coll(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v);
/* The end of the replay: pending calls charged with what came, collective
 * instances that never filled dropped. */
void mw_replay_finish(mw_run *run);
int mw_comms_init(mw_run *run);  /* 0: out of memory */
void mw_comms_free(mw_run *run);
void mw_channels_free(mw_run *run);

/* What a rank's replay does to a rank of another worker, kept per
 * worker until the window ends (handoff.c): init and free (0 when memory
 * runs out), and every worker's list done, every rank stopped. */
int mw_handoffs_init(mw_run *run);
void mw_handoffs_free(mw_run *run);
void mw_handoffs_apply(mw_run *run);
/* mw_charge of rk by the replay of rank `actor` (NULL: every rank
 * stopped), later when another worker replays rk. */
void mw_charge_by(mw_run *run, mw_rank *actor, mw_rank *rk, uint32_t schema, int64_t enter, uint32_t location,
                  mw_wait kind, uint64_t ns, int64_t cause);
/* The rank slot of a world rank, or NULL. */
mw_rank *mw_rank_of(const mw_run *run, int64_t world);

/* Charges rk's call (schema, entry, location) a wait of ns, caused by
 * world rank `cause`. */
void mw_charge(mw_rank *rk, uint32_t schema, int64_t enter, uint32_t location, mw_wait kind, uint64_t ns,
               int64_t cause);
/* The communicator instance (mpi_comms.h) a comm field names on rk now;
 * PW_MPI_INST_WORLD for all when the dataset has no communicator replay. */
uint32_t mw_comm_instance(const mw_run *run, const mw_rank *rk, const pw_value *v, int f_comm);

/* tl_value_int, and a record's field i by it (absent when the schema,
 * i < 0, or the record lacks it), inline for the integer they nearly
 * always find (the replay reads a few fields of every call). */
static inline int64_t mw_value_int(const pw_value *v)
{
    return v->present && v->type == PW_T_I64 ? v->v.i : tl_value_int(v);
}
static inline int64_t mw_field_int(const pw_value *v, int f, int64_t absent)
{
    return f < 0 || !v[f].present ? absent : mw_value_int(&v[f]);
}

/* Profile and bins. */
void mw_profile_call(mw_rank *rk, const mw_schema *sc, const pw_record *rec);
/* hint: the rank's bin_hint.  mw_bins_call: 0 when memory runs out. */
int mw_bins_call(mw_run *run, mw_bins *b, const pw_record *rec, uint32_t *hint);
void mw_bins_message(mw_run *run, mw_bins *b, int64_t t, uint64_t bytes, uint32_t *hint);
int mw_bins_init(mw_run *run);
/* Every worker's bins added into worker 0's (the others left empty). */
void mw_bins_sum_workers(mw_run *run);
void mw_bins_free(mw_run *run);

/* Critical path: the walk back from the last MPI_Finalize exit. */
int mw_critical_path_walk(mw_run *run);
/* Where the path ends: the latest MPI_Finalize exit, else the latest
 * record end (its rank slot in *slot); -1 when no rank has times. */
int64_t mw_path_end(const mw_run *run, size_t *slot);
/* The earliest entry of a timed member into a collective instance not
 * folded yet (its wait is still to be charged), INT64_MAX when none. */
int64_t mw_coll_oldest_entry(const mw_run *run);
/* The rank's time between calls (per thread). */
void mw_compute_call(mw_rank *rk, const pw_record *rec, mw_thread_ends *ends);
/* A thread's latest call end so far, -1: none; the gap between calls
 * before its call at t (the forward critical path notes it ahead, as
 * mw_compute_call will): [end, t], 0 when none or they overlap. */
int64_t mw_thread_latest_end(const mw_thread_ends *ends, uint32_t loc);
int64_t mw_gap_before(int64_t end, int64_t t);

/* Reports (members of the stats report root).  JSON keeps the issue's
 * contract (objects keyed by rank and function); text and CSV get the
 * same numbers as tables (arrays of rows), which is what they render. */
void mw_report_waits(const mw_run *run, pw_rnode *root);
/* The tables the analysis adds (mpi_waits_tables.c). */
extern const pw_table_decl *const pw_mpi_waits_table_decls[];
void mw_report_rank_functions(const mw_run *run, pw_rnode *root);
void mw_report_time_profile(mw_run *run, pw_rnode *root); /* sums the workers' bins */
/* Adds the table "summary" (summary.c) and returns it, for the critical
 * path to add its top entry to. */
pw_rnode *mw_report_summary(const mw_run *run, pw_rnode *root);
extern const pw_table_decl pw_mpi_waits_summary_table;
void mw_report_critical_path(const mw_run *run, pw_rnode *root, pw_rnode *summary);

/* The tables of a replayed run into the stats report r. */
void mw_report(mw_run *run, pw_report *r);
/* The analysis computed by every process together (waits_together.c),
 * share 0's run held in ds under &mw_held_key until its report. */
pw_status pw_mpi_waits_together(pw_dataset *ds, pw_error *err);
extern const char mw_held_key;
void mw_held_free(void *run);

/* The whole analysis of ds into the stats report r.  Datasets without MPI
 * calls, or opened with the option "profile_only", add nothing. */
pw_status pw_mpi_waits_report(pw_dataset *ds, pw_report *r, pw_error *err);
#endif
