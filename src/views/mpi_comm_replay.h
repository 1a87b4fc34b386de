/* mpi_comm_replay.h — communicators of any dataset whose records are MPI
 * calls named as DUMPI names them: MPI_Comm_dup (oldcomm, newcomm),
 * MPI_Comm_split (oldcomm, color, key, newcomm), MPI_Comm_free (comm).
 * The predefined handles are read from the label of the "comm" field
 * (MPI_COMM_WORLD, MPI_COMM_SELF, MPI_COMM_NULL).  A first pass reads every
 * location's creations and resolves the members (mpi_comms.h); writers then
 * feed the records they draw, in each rank's order, and ask which
 * communicator a handle names at that point.  Without such records or
 * labels nothing is resolved (every lookup: PW_MPI_UNKNOWN). */
#ifndef PW_VIEWS_MPI_COMM_REPLAY_H
#define PW_VIEWS_MPI_COMM_REPLAY_H
#include "model/mpi_call.h"
#include "model/mpi_comms.h"
#include "model/dataset.h"

typedef struct pw_comm_replay {
    pw_dataset *ds;
    pw_mpi_call_view *calls;   /* per schema */
    int64_t world, self, null; /* predefined handle values */
    int64_t undefined_color;   /* MPI_UNDEFINED as the live trackers take it */
    pw_mpi_tracker *live;      /* per rank, fed as records are drawn */
    size_t n_ranks;
    pw_mpi_comms comms;
    int resolved;
} pw_comm_replay;

/* Classifies the schemas and, when the dataset has communicator creations,
 * reads them all and resolves the communicators. */
pw_status pw_comm_replay_init(pw_comm_replay *r, pw_dataset *ds, pw_error *err);
/* For a caller whose own first pass feeds every rank's records in full:
 * no census at init; resolve_fed then resolves the communicators from what
 * was fed and starts the live trackers again for the next pass. */
pw_status pw_comm_replay_init_fed(pw_comm_replay *r, pw_dataset *ds, pw_error *err);
pw_status pw_comm_replay_resolve_fed(pw_comm_replay *r, pw_error *err);
/* For a caller that has every rank's creations already, as a format's
 * open-time profile tracked them (trackers[w]: world rank w, as many as
 * r->n_ranks; their handle values must be r's): resolved from those, the
 * live trackers then started with the same MPI_UNDEFINED color, so that
 * they number instances as those did. */
pw_status pw_comm_replay_resolve_from(pw_comm_replay *r, pw_mpi_tracker *const *trackers, pw_error *err);
/* The live trackers start again (a caller replaying every rank once more);
 * 0 when memory runs out. */
int pw_comm_replay_restart(pw_comm_replay *r);
void pw_comm_replay_free(pw_comm_replay *r);
/* A record drawn (in its rank's order). */
void pw_comm_replay_feed(pw_comm_replay *r, const pw_record *rec);
/* The communicator (index into r->comms.comms) that `handle` names on the
 * rank of `location` now, or PW_MPI_UNKNOWN. */
uint32_t pw_comm_replay_lookup(pw_comm_replay *r, uint32_t location, int64_t handle);
#endif
