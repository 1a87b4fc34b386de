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
    /* Functions [0, n_mpi_functions) are MPI's own calls, whose time is
     * MPI time (DUMPI's last labels are user functions). */
    size_t n_mpi_functions;
    const char *(*function_name)(uint32_t fn);
    /* Per location of the dataset, the index in ranks of the rank whose
     * calls its records are; -1: none.  The records are what the
     * mpi_profile analysis profiles when `ranks` do not hold the report. */
    const int32_t *rank_of_location;
    /* 1 when `ranks` already profile every call (the format did it while
     * opening: they hold the unfiltered report, and each rank's handles);
     * 0 when the analysis profiles the records (pw_dataset_filter clears
     * it: the report profiles what the filter selects).  Without it,
     * `ranks` still give each rank's number and the format's handles. */
    int complete;
} pw_mpi_profiles;

/* How the profile uses an MPI call, from its name and its fields' roles. */
typedef enum pw_mpi_use {
    PW_MPI_USE_OTHER = 0,
    PW_MPI_USE_SEND,       /* a point-to-point send (blocking or not) */
    PW_MPI_USE_COLLECTIVE,
    PW_MPI_USE_DUP,
    PW_MPI_USE_SPLIT,
    PW_MPI_USE_FREE,
    PW_MPI_USE_INIT,       /* MPI_Init, MPI_Init_thread: the rank's span starts */
    PW_MPI_USE_FINALIZE    /* the rank's span ends */
} pw_mpi_use;

typedef struct pw_mpi_fn_use {
    uint8_t use;
    /* field indexes, -1 when absent: the elements sent (a count, or an
     * integer list summed), their datatype, the destination, the
     * communicator worked on, and a creation's new handle, color and key */
    int16_t count, counts, datatype, dest, comm, newcomm, color, key;
} pw_mpi_fn_use;

/* The use of a call named `name` whose fields (their types) have the roles
 * mpi_fields gives (pw_schema.mpi_fields; NULL: none, no kind either).
 * fields may be NULL when no field has a role (a call known by its name
 * alone: an OTF2 region). */
void pw_mpi_fn_use_of(const char *name, const int16_t *mpi_fields, const pw_field *fields, pw_mpi_fn_use *u);

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
