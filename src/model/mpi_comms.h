/* mpi_comms.h — MPI communicators reconstructed from the calls of every
 * rank, format independent, so that comm-relative ranks in a trace can be
 * turned into world ranks.
 *
 * Each rank has a tracker.  Fed the rank's calls in order (dup, split,
 * free), it names every communicator the rank created by an INSTANCE
 * number (0 = world, 1 = self, then 2, 3... in creation order), because
 * handle values are per-rank and recycled after a free.  A format's pass
 * over one rank asks the tracker for the instance of each handle it meets
 * and keeps its per-communicator data under that instance.
 *
 * pw_mpi_comms_resolve() then replays the creations of all ranks together:
 * the k-th creation call on a communicator is the same collective call on
 * all its members (MPI orders collectives on a communicator), so a split's
 * members are the ranks of the old communicator with the same color,
 * ordered by key then old rank; a dup has the old members. */
#ifndef PW_MODEL_MPI_COMMS_H
#define PW_MODEL_MPI_COMMS_H
#include <stddef.h>
#include <stdint.h>

#include "model/part.h"

#define PW_MPI_UNKNOWN UINT32_MAX /* an instance or communicator not known */
#define PW_MPI_INST_WORLD 0
#define PW_MPI_INST_SELF 1

typedef struct pw_mpi_creation {
    uint32_t old_inst;     /* the communicator the call was made on */
    uint32_t new_inst;     /* the instance it created on this rank */
    int split;             /* 0: dup (same members), 1: split by color/key */
    int64_t color, key;
} pw_mpi_creation;

typedef struct pw_mpi_handle {
    int64_t handle;
    uint32_t inst;
} pw_mpi_handle;

typedef struct pw_mpi_tracker {
    int64_t world, self, null;   /* the format's predefined handle values */
    int64_t undefined_color;     /* MPI_UNDEFINED as the trace stores it */
    pw_mpi_handle *live;         /* handles in use -> instance */
    size_t n_live, cap_live;
    pw_mpi_creation *created;
    size_t n_created, cap_created;
    uint32_t n_inst;
    int64_t last_handle;         /* one-entry lookup cache */
    uint32_t last_inst;
    int failed;                  /* memory ran out: results are partial */
} pw_mpi_tracker;

void pw_mpi_tracker_init(pw_mpi_tracker *t, int64_t world, int64_t self, int64_t null,
                         int64_t undefined_color);
void pw_mpi_tracker_free(pw_mpi_tracker *t);
/* The instance a handle names now, or PW_MPI_UNKNOWN (never created here). */
uint32_t pw_mpi_tracker_lookup(pw_mpi_tracker *t, int64_t handle);
/* MPI_Comm_dup / MPI_Comm_split on this rank, in call order. */
void pw_mpi_tracker_dup(pw_mpi_tracker *t, int64_t old_handle, int64_t new_handle);
void pw_mpi_tracker_split(pw_mpi_tracker *t, int64_t old_handle, int64_t color, int64_t key,
                          int64_t new_handle);
/* MPI_Comm_free: the handle no longer names its instance. */
void pw_mpi_tracker_release(pw_mpi_tracker *t, int64_t handle);

/* A tracker's instance count and creations as part words (2 words, then 5
 * per creation): what another process replays them from. */
void pw_mpi_tracker_put(pw_part_writer *w, const pw_mpi_tracker *t);
/* Reads them back into t, replacing its creations; 0 (r->bad set unless
 * memory ran out) when they do not fit the part or name an instance the
 * count does not have. */
int pw_mpi_tracker_take(pw_part_reader *r, pw_mpi_tracker *t);

/* A communicator of the whole run: its members as world ranks, in
 * communicator-rank order. */
typedef struct pw_mpi_comm {
    uint32_t *members;
    uint32_t size;
} pw_mpi_comm;

typedef struct pw_mpi_comms {
    pw_mpi_comm *comms;         /* 0 = world; then selfs and created ones */
    size_t n_comms;
    uint32_t **inst_comm;       /* [rank][instance] -> comm index or PW_MPI_UNKNOWN */
    uint32_t *n_inst;           /* [rank] instances the rank's tracker made */
    size_t n_ranks;
    uint64_t unresolved;        /* creation calls that could not be matched */
} pw_mpi_comms;

/* Communicators a format defines with their members (OTF2's Comm
 * definitions over groups of world ranks) rather than by the calls that
 * made them: a handle names the same communicator on every rank.  The
 * communicator replay (views/mpi_comm_replay.h) replays each as a split
 * of world at every rank's start, in this order: color its index, key
 * the rank's place in it (members keep their order), MPI_UNDEFINED for
 * the ranks outside it. */
typedef struct pw_mpi_defined_comms {
    int64_t world, self, null; /* the predefined handles */
    size_t n;
    const int64_t *handles;    /* per communicator */
    const pw_mpi_comm *groups; /* per communicator: its members */
} pw_mpi_defined_comms;

/* The splits of d into the tracker of world rank `rank`. */
void pw_mpi_tracker_define(pw_mpi_tracker *t, const pw_mpi_defined_comms *d, int64_t rank);

/* Replays the creations of ranks 0..n-1 (trackers[r] is world rank r).
 * Returns 0, -1 when memory runs out, or -2 (nothing replayed) when a
 * tracker has fewer than world and self or a creation names an instance
 * past its count (a damaged part: trackers fed by calls never do). */
int pw_mpi_comms_resolve(pw_mpi_comms *out, pw_mpi_tracker *const *trackers, size_t n_ranks);
void pw_mpi_comms_free(pw_mpi_comms *c);
/* The communicator of (rank, instance), or PW_MPI_UNKNOWN. */
uint32_t pw_mpi_comm_of(const pw_mpi_comms *c, size_t rank, uint32_t inst);
/* The world rank of comm-relative `comm_rank` in (rank, instance), or -1. */
int64_t pw_mpi_world_rank(const pw_mpi_comms *c, size_t rank, uint32_t inst, int64_t comm_rank);
#endif
