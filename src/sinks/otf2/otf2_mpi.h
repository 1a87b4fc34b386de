/* otf2_mpi.h — MPI events of the OTF2 writer: MpiSend and MpiRecv records
 * from the timeline's matched messages, MpiCollectiveBegin/End around
 * collective calls (views/mpi_coll.h), and the communicator
 * definitions they refer to. */
#ifndef PW_SINKS_OTF2_MPI_H
#define PW_SINKS_OTF2_MPI_H
#include <otf2/otf2.h>

#include "views/keymap.h"
#include "views/mpi_comm_replay.h"
#include "views/mpi_coll.h"
#include "views/timeline.h"

/* Ranks beyond this are not given OTF2 rank slots (their messages are
 * still written, with the rank as given). */
#define OT_MAX_RANKS (1u << 20)

typedef struct ot_mpi {
    pw_comm_replay replay; /* communicator members, where resolvable */
    pw_keymap comms;       /* (resolved, communicator index or value) -> comm ref */
    struct ot_comm {
        int64_t handle;    /* the value first seen */
        uint32_t resolved; /* index into replay.comms, or PW_MPI_UNKNOWN */
        int64_t rank;      /* fed: the rank that named it, and its instance there */
        uint32_t inst;     /* (PW_MPI_UNKNOWN: keyed by the handle) */
    } *comm_values;        /* per comm ref */
    /* The replay is fed only (a share drawn alone: no census of every
     * location): communicators are keyed by (rank, instance) until the
     * shares' creations are resolved together (otf2_unify.h). */
    int fed;
    uint32_t n_comms, cap_comms;
    uint32_t *rank_loc;    /* per rank: OTF2 location ref + 1 */
    uint32_t cap_ranks;
    uint32_t n_ranks;      /* highest rank seen + 1 */
    uint64_t events;
} ot_mpi;

void ot_mpi_free(ot_mpi *m);
/* Location `ref` draws a thread of `rank` (the first one speaks for it). */
int ot_mpi_location(ot_mpi *m, int64_t rank, uint32_t ref);
/* Writes the message records of ev: MpiSend / MpiRecv for blocking calls,
 * MpiIsend, MpiIrecvRequest, MpiIsendComplete and MpiIrecv with their
 * request ids for nonblocking ones; counts them in *events.
 * call: the record's own buffer sizes (message lengths; NULL: 0). */
OTF2_ErrorCode ot_mpi_events(ot_mpi *m, OTF2_EvtWriter *w, OTF2_TimeStamp t, const pw_tl_event *ev,
                             const pw_mpi_call *call, uint64_t *events);
/* MpiCollectiveBegin (end 0) or MpiCollectiveEnd (end 1) of a collective
 * call; counted in *events. */
OTF2_ErrorCode ot_mpi_collective(ot_mpi *m, OTF2_EvtWriter *w, OTF2_TimeStamp t, uint32_t location,
                                 const pw_mpi_call *call, int end, uint64_t *events);
/* The paradigm and role of a region named `name` whose first call is
 * `call` (Scalasca and Vampir find MPI calls by them): MPI calls are
 * paradigm MPI with the role of their kind (barrier, one-to-all,
 * all-to-one, all-to-all, other collective, point-to-point, function);
 * anything else a user function. */
void ot_mpi_region_kind(const char *name, const pw_mpi_call *call, OTF2_Paradigm *paradigm, OTF2_RegionRole *role);
/* Groups and communicators, strings numbered from *next_string. */
void ot_mpi_definitions(const ot_mpi *m, OTF2_GlobalDefWriter *g, OTF2_StringRef *next_string);
#endif
