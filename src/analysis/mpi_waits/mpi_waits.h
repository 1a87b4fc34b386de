/* mpi_waits.h — where an MPI run loses its time, format independent: wait
 * states with Scalasca's definitions, the per rank x function profile with
 * wait time, idle time (Pipit's), the time profile and communication over
 * time bins, load imbalance per function.
 *
 * Records are MPI calls as spans (t .. t_end); fields are found by name as
 * in timeline_flows.h (dest, source, tag, comm, request(s), status(es),
 * index, indices, outcount, flag) and mpi_coll.h (root, counts, types).
 *
 * Every rank is walked twice, ranks in parallel (mw_pass.c):
 *   pass 1 numbers each rank's messages per (communicator instance, peer,
 *          tag) with the message matcher and keeps, per message, the send
 *          entry time (sender) and the receive post time (receiver), and per
 *          collective instance the entry time and root;
 *   link   turns the per-rank keys into world keys and joins both sides
 *          (mw_link.c), and folds each collective instance's entries into
 *          its last / root / last non-root entry (mw_coll.c);
 *   pass 2 replays the matching and charges every call its waits from the
 *          other side's times (waits_p2p.c, waits_coll.c), and adds the
 *          profile and bins (rank_functions.c, time_profile.c);
 *   walk   follows the critical path back from the last MPI_Finalize exit
 *          through the waits to the ranks that caused them;
 *   pass 3 gives the path's time on each rank it visits to the functions
 *          there (critical_path.c; no fields decoded).
 * The tables cost 8 bytes per message, 16 per collective call per rank and
 * 24 per wait state; the passes themselves hold only open requests and the
 * matcher's keys. */
#ifndef PW_ANALYSIS_MPI_WAITS_H
#define PW_ANALYSIS_MPI_WAITS_H
#include <stdint.h>

#include "analysis/keymap.h"
#include "analysis/mpi_coll.h"
#include "analysis/mpi_comm_replay.h"
#include "analysis/msgmatch.h"
#include "analysis/timeline_schema.h"
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

/* How the analyses read one schema's records: the message fields as the
 * timeline finds them (timeline_schema.h), and MPI_Waitsome's; field
 * indexes -1: absent. */
typedef struct mw_schema {
    tl_schema tl;
    int f_indices, f_outcount;
    int8_t coll_wait; /* the mw_wait a collective of this kind incurs, -1: none */
    uint8_t sync;     /* a synchronous send (MPI_Ssend, MPI_Issend) */
    uint8_t idle;     /* one of Pipit's MPI idle functions */
    uint8_t p2p;      /* sends, receives or completes requests */
    uint8_t finalize; /* MPI_Finalize: the critical path ends at the last one */
    pw_coll_schema coll;
} mw_schema;

/* Growable list of times, written at any index. */
typedef struct mw_times {
    uint64_t *t;
    uint64_t n, cap;
} mw_times;

int mw_times_set(mw_times *v, uint64_t i, uint64_t t); /* 0: out of memory */

/* One collective call as its member saw it. */
typedef struct mw_coll_entry {
    uint64_t enter;
    int64_t root; /* comm rank of the root, -1 when not rooted */
} mw_coll_entry;

/* A collective instance folded over its members (world ranks of the
 * latest entry and the latest non-root entry: who made the others wait). */
typedef struct mw_coll_instance {
    uint64_t last_enter, root_enter, last_nonroot_enter;
    uint32_t last_rank, last_nonroot_rank;
} mw_coll_instance;

/* A wait state where it happened: from the call's entry until `resume`,
 * waiting for rank `cause` (the critical path jumps there). */
typedef struct mw_wait_at {
    int64_t enter, resume;
    int64_t cause;
    int kind; /* mw_wait */
} mw_wait_at;

/* A time interval [a, b]. */
typedef struct mw_span {
    int64_t a, b;
} mw_span;

/* A rank's state through both passes. */
typedef struct mw_rank {
    int64_t rank;
    uint32_t *locs; /* its locations with records */
    size_t n_locs;
    pw_msgmatch mm;
    pw_keymap post_t;    /* pass 1: request -> post time of a wildcard nonblocking receive */
    pw_keymap sync_reqs; /* pass 2: MPI_Issend request -> flow id */
    mw_times *chan;      /* per matcher key: send entries, or receive posts */
    uint64_t n_chan;
    uint32_t *chan_link; /* per pass 1 matcher key: the world channel (p2p_link.c) */
    uint64_t n_chan_link;
    struct mw_coll_list {
        mw_coll_entry *e;
        size_t n, cap;
    } *coll;             /* per communicator instance: pass 1 entries */
    uint64_t *coll_seq;  /* per instance: pass 2 calls so far */
    uint32_t n_coll;
    int64_t t_min, t_max;
    uint8_t *seen;       /* per schema: has records */
    /* pass 2 results, per function (schema) */
    uint64_t *calls, *time_ns, *wait_ns;
    uint64_t *wait_fn[MW_N_WAITS];
    uint64_t wait_total[MW_N_WAITS];
    uint64_t idle_ns;
    /* critical path: the rank's waits in call order, the intervals the path
     * spends on the rank, and what it does there (critical_path.c) */
    mw_wait_at *waits;
    size_t n_waits, cap_waits;
    mw_span *path;
    size_t n_path, cap_path;
    uint64_t *cp_ns;       /* per schema */
    uint64_t cp_compute_ns, compute_ns;
    int64_t finalize_exit; /* -1: none */
    int failed; /* memory ran out */
} mw_rank;

/* Time and communication bins, one set per worker, summed at the end. */
typedef struct mw_bins {
    uint32_t n;
    double *fn;   /* [dense function][bin] ns */
    double *msgs, *bytes;
} mw_bins;

typedef struct mw_run {
    pw_dataset *ds;
    mw_schema *schemas;
    pw_comm_replay comms;
    pw_mpi_calls calls;
    mw_rank *ranks;
    size_t n_ranks;
    int64_t *rank_slot; /* world rank -> index into ranks, -1 */
    size_t n_world;
    /* link: world channels, and collective instances per communicator */
    pw_keymap links;
    struct mw_link {
        mw_times *send, *post;
        int64_t source, dest; /* world ranks */
    } *link;
    size_t n_links, cap_links;
    mw_coll_instance **inst; /* per communicator */
    uint64_t *n_inst;
    /* bins */
    int64_t t0, t1;
    double bin_step; /* (t1 - t0) / n_bins, numpy.linspace's step */
    double bin_per_ns; /* 1 / bin_step: a first guess of a time's bin, then
                        * corrected against the edges (time_profile.c) */
    uint32_t n_bins;
    int32_t *dense;    /* schema -> dense function index, -1 */
    uint32_t n_dense;
    mw_bins *bins;     /* per worker */
    int workers;
    int timed_only; /* pass 1 skips untimed records (waits_timeline.c) */
    int failed;
} mw_run;

/* The run's schemas classified: 1 when ds has MPI calls, 0 when not, -1
 * when memory runs out.  mw_prepare: pass 1 and the link; the matchers are
 * then ready for pass 2's replay.  mw_run_free in every case. */
int mw_run_init(mw_run *run, pw_dataset *ds);
pw_status mw_prepare(mw_run *run, pw_error *err);
void mw_run_free(mw_run *run);
/* Pass 1, 2 or 3 over every rank, in parallel. */
void mw_run_pass(mw_run *run, int pass);
/* Matchers, requests, collective counts and communicator trackers start
 * again, so that a replay numbers everything as pass 1 did; 0 when memory
 * runs out. */
int mw_rewind(mw_run *run);

/* 0 when memory runs out. */
int mw_schemas_classify(const pw_dataset *ds, mw_schema *out);

/* Pass 1 of one record (p2p and collective tables). */
void mw_collect_p2p(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v);
void mw_collect_coll(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v);
/* The link step (serial). 0: out of memory. */
int mw_link_p2p(mw_run *run);
int mw_link_coll(mw_run *run);
/* Pass 2: the wait a call incurs (ns), charged to rk by kind. */
void mw_waits_p2p(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v);
void mw_waits_coll(mw_run *run, mw_rank *rk, const mw_schema *sc, const pw_record *rec, const pw_value *v);
/* Charges rk's call rec a wait of ns, caused by world rank `cause`. */
void mw_charge(mw_rank *rk, const pw_record *rec, mw_wait kind, uint64_t ns, int64_t cause);
/* The communicator instance (mpi_comms.h) a comm field names on rk now;
 * PW_MPI_INST_WORLD for all when the dataset has no communicator replay. */
uint32_t mw_comm_instance(const mw_run *run, const mw_rank *rk, const pw_value *v, int f_comm);

/* Pass 2 profile and bins. */
void mw_profile_call(mw_rank *rk, const mw_schema *sc, const pw_record *rec);
void mw_bins_call(mw_run *run, mw_bins *b, const pw_record *rec);
void mw_bins_message(mw_run *run, mw_bins *b, int64_t t, uint64_t bytes);
int mw_bins_init(mw_run *run);
void mw_bins_free(mw_run *run);

/* Critical path: the walk back from the last MPI_Finalize exit (serial),
 * then per rank (pass 3) the time of each function on the path. */
int mw_critical_path_walk(mw_run *run);
typedef struct mw_thread_ends {
    struct mw_thread_end {
        uint32_t loc;
        int64_t end;
    } *e;
    size_t n, cap;
} mw_thread_ends;
/* Pass 2: the rank's time between calls (per thread); pass 3 (only ranks
 * the path visits): the path's time in each function and between calls. */
void mw_compute_call(mw_rank *rk, const pw_record *rec, mw_thread_ends *ends);
void mw_critical_path_call(mw_rank *rk, const pw_record *rec, mw_thread_ends *ends);

/* Reports (members of the stats report root).  JSON keeps the issue's
 * contract (objects keyed by rank and function); text and CSV get the
 * same numbers as tables (arrays of rows), which is what they render. */
void mw_report_waits(const mw_run *run, pw_rnode *root, int tables);
void mw_report_rank_functions(const mw_run *run, pw_rnode *root);
void mw_report_time_profile(const mw_run *run, pw_rnode *root, int tables);
void mw_report_critical_path(const mw_run *run, pw_rnode *root, int tables);

/* The whole analysis of ds into the stats report r.  Datasets without MPI
 * calls, or opened with the option "profile_only", add nothing. */
pw_status pw_mpi_waits_report(pw_dataset *ds, pw_report *r, pw_error *err);
#endif
