/* mpi_profile.h — the mpiP-style profile of MPI calls, per rank, as a
 * format hands it to analyses.  A format that can gather it faster from
 * its own bytes than records could (DUMPI: one pass per rank file when the
 * dataset opens) fills one pw_mpi_rank_profile per rank and sets
 * ds->mpi_profiles; the mpi_profile analysis (src/analysis/mpi_profile/)
 * merges the ranks into the report.  Communicator handles are per rank:
 * a rank's data is kept under tracker instances (mpi_comms.h), resolved
 * to world ranks once all ranks are read. */
#ifndef PW_MODEL_MPI_PROFILE_H
#define PW_MODEL_MPI_PROFILE_H
#include <stdint.h>

#include "core/pair_counts.h"
#include "model/dataset.h"
#include "model/mpi_comms.h"

#define PW_MPI_SIZE_BUCKETS 34 /* 0 bytes, then [2^k, 2^(k+1)) up to 2^32 and more */

/* One function's calls on one rank. */
typedef struct pw_mpi_fn_time {
    uint64_t calls, time_ns, min_ns, max_ns;
} pw_mpi_fn_time;

typedef struct pw_mpi_rank_profile {
    int rank;                      /* world rank */
    pw_mpi_fn_time *fns;           /* per function index of pw_mpi_profiles */
    uint64_t mpi_ns;               /* time in MPI functions */
    int has_init, has_finalize;
    uint64_t init_ns, finalize_ns; /* Init entry, Finalize exit */
    int clock;                     /* 1 wall, 0 cpu, -1 no times */
    /* The earliest entry and the latest end (exit, or entry when later) of
     * the timed calls, on each call's clock as its record gives it (wall,
     * else cpu); t_max < t_min when none is timed. */
    int64_t t_min, t_max;
    pw_mpi_tracker tracker;
    pw_pair_counts sends;          /* (instance, comm-relative dest) */
    pw_pair_counts coll_calls;     /* (function, instance): msgs = calls, bytes = bytes */
    pw_pair_counts coll_time;      /* (function, instance): msgs = ns */
    uint64_t size_msgs[PW_MPI_SIZE_BUCKETS], size_bytes[PW_MPI_SIZE_BUCKETS];
    uint64_t proc_null;            /* sends to MPI_PROC_NULL */
    uint64_t unknown_type;         /* datatype ids without a size */
} pw_mpi_rank_profile;

typedef struct pw_mpi_profiles {
    pw_mpi_rank_profile *ranks;    /* per rank the trace has (n_ranks >= 1) */
    size_t n_ranks;
    size_t n_functions;
    const char *(*function_name)(uint32_t fn);
    /* 1 when `ranks` already profile every call (the format did it while
     * opening); 0 when refilter must make them first (pw_dataset_filter
     * clears it: the report profiles what the filter selects). */
    int complete;
    /* With a filter set on ds, or when not complete: every rank's profile
     * made from the calls the filter keeps (all without a filter; the
     * communicators still follow every call). */
    pw_status (*refilter)(pw_dataset *ds, pw_error *err);
} pw_mpi_profiles;

/* An empty profile over n_functions (tracker on the format's handles);
 * 0 when memory runs out. */
int pw_mpi_rank_profile_init(pw_mpi_rank_profile *p, int rank, size_t n_functions, int64_t world,
                             int64_t self, int64_t null, int64_t undefined_color);
void pw_mpi_rank_profile_free(pw_mpi_rank_profile *p);
/* A rank's time bounds and communicator creations as part words (part.h):
 * what the processes that did not read the rank need of it (the census's
 * time bins, the communicator replay). */
void pw_mpi_rank_profile_put_span(pw_part_writer *w, const pw_mpi_rank_profile *p);
/* Reads them back into p; 0 when they do not fit (mpi_comms.h: the
 * creations are checked against the instance count). */
int pw_mpi_rank_profile_take_span(pw_part_reader *r, pw_mpi_rank_profile *p);
/* The size bucket of a message of `bytes`. */
int pw_mpi_size_bucket(uint64_t bytes);
#endif
