/* otf2_unify.h — one archive's definitions from processes that each drew
 * their share alone.
 *
 * A process numbers what its share uses (names, regions, metrics,
 * communicators, location groups, locations) in first use, location after
 * location, as the serial writer does over every location.  Shares are
 * consecutive runs of the locations, so the serial numbering is the
 * shares' own numberings one after the other, a name, region or call
 * metric kept where it first appears (tracks, groups and locations are a
 * share's own).  Every process sends its definitions to process 0 (one
 * gather), which builds the whole numbering and sends each process back
 * only the maps of its own refs (one scatter): the bytes sent grow with
 * the processes, not with their square.  A process's events, written with
 * its own refs, are mapped by OTF2 mapping tables in its locations' local
 * definitions, and share 0 writes the global definitions from the whole
 * numbering.  Communicators are resolved there, from every rank's
 * creations (each rank drawn by one share): a process names a
 * communicator by (rank, instance) while it draws. */
#ifndef PW_SINKS_OTF2_UNIFY_H
#define PW_SINKS_OTF2_UNIFY_H
#include "sinks/otf2/otf2_writer.h"

typedef struct ot_unified {
    ot_writer g;    /* process 0: the archive's definitions, numbered as a serial writer numbers them */
    pw_names names; /* process 0: the archive's strings */
    uint32_t *regions, *metrics, *comms; /* this process's refs -> the archive's */
    uint64_t *locs; /* this process's location refs -> the archive's */
    void *all;      /* process 0: every process's definitions as received (g's units point into them) */
} ot_unified;

/* Called by every process together, after its events, with collectives
 * that have gatherv and scatterv; 1 when every process unified (else u is
 * empty everywhere). */
int ot_unify(ot_writer *w, const pw_names *nm, ot_unified *u);
void ot_unified_free(ot_unified *u);
#endif
