/* dumpi_profile.h — what one pass over one rank's calls gathers for the
 * mpiP-style profile (dumpi_stats.c merges the ranks).  Communicator
 * handles are per rank: the pass keeps comm-relative data under tracker
 * instances, resolved to world ranks once all ranks are read. */
#ifndef PW_DUMPI_PROFILE_H
#define PW_DUMPI_PROFILE_H
#include <stdint.h>

#include "analysis/mpi_comms.h"
#include "analysis/pair_counts.h"
#include "formats/dumpi/dumpi.h"

#define DUMPI_SIZE_BUCKETS 34 /* 0 bytes, then [2^k, 2^(k+1)) up to 2^32 and more */

/* How the profile uses a function, and where its arguments are. */
typedef enum dumpi_use {
    DUMPI_USE_OTHER = 0,
    DUMPI_USE_SEND,        /* a point-to-point send (blocking or not) */
    DUMPI_USE_COLLECTIVE,
    DUMPI_USE_DUP,
    DUMPI_USE_SPLIT,
    DUMPI_USE_FREE,
    DUMPI_USE_INIT,        /* MPI_Init, MPI_Init_thread: the rank's span starts */
    DUMPI_USE_FINALIZE     /* the rank's span ends */
} dumpi_use;

typedef struct dumpi_fn_use {
    uint8_t use;
    /* argument indexes, -1 when absent */
    int8_t count, counts, datatype, dest, comm, newcomm, color, key;
} dumpi_fn_use;

typedef struct dumpi_rank_profile {
    uint64_t calls[DUMPI_N_LABELS];
    uint64_t time_ns[DUMPI_N_LABELS];
    uint64_t min_ns[DUMPI_N_LABELS], max_ns[DUMPI_N_LABELS];
    uint64_t mpi_ns;
    int has_init, has_finalize;
    uint64_t init_ns, finalize_ns; /* Init entry, Finalize exit */
    int clock;                     /* 1 wall, 0 cpu, -1 no times */
    pw_mpi_tracker tracker;
    pw_pair_counts sends;          /* (instance, comm-relative dest) */
    pw_pair_counts coll_calls;     /* (label, instance): msgs = calls, bytes = bytes */
    pw_pair_counts coll_time;      /* (label, instance): msgs = ns */
    uint64_t size_msgs[DUMPI_SIZE_BUCKETS], size_bytes[DUMPI_SIZE_BUCKETS];
    uint64_t proc_null;            /* sends to MPI_PROC_NULL */
    uint64_t unknown_type;         /* datatype ids without a size */
} dumpi_rank_profile;

/* The use of every label (from argument names in the generated table). */
void dumpi_uses_init(dumpi_fn_use uses[DUMPI_N_LABELS]);
void dumpi_profile_init(dumpi_rank_profile *p);
/* Adds the stream's current call. */
void dumpi_profile_call(const dumpi_rank *r, dumpi_rank_profile *p, const dumpi_stream *s,
                        const dumpi_fn_use *uses);
void dumpi_profile_free(dumpi_rank_profile *p);
/* The part of a call every later call depends on, counted or not: the
 * communicators it creates or frees (a filtered profile follows them
 * through the calls the filter leaves out). */
void dumpi_profile_track(dumpi_rank_profile *p, const dumpi_stream *s, const dumpi_fn_use *uses);
/* With a filter set on ds: every rank's profile made again from the calls
 * it keeps (dumpi_stats_filtered.c). */
pw_status dumpi_profiles_filter(pw_dataset *ds, dumpi_dataset *dd, pw_error *err);
#endif
