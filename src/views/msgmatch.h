/* msgmatch.h — matching MPI point-to-point sends with receives, format
 * independent.  MPI delivers messages between one (communicator, source,
 * destination, tag) in the order they were sent, so the n-th send on such
 * a key matches the n-th receive on it.  The matcher numbers sends and
 * receives per key and gives both sides of a match the same flow id, so a
 * streaming writer can attach the id to the send as soon as it sees it.
 *
 * Nonblocking receives (MPI_Irecv) are matched when posted but complete
 * later: post_recv with a request keeps the flow id under (rank, request)
 * and complete() hands it to the call that finished the request (MPI_Wait).
 * A receive posted with MPI_ANY_SOURCE or MPI_ANY_TAG (negative source or
 * tag) is matched at completion instead, with the source and tag of the
 * status the completing call returned.
 *
 * What a format needs to provide, as schema fields (see timeline.h): "dest"
 * on sends, "source" on receives, optional "tag", "comm" and "request". */
#ifndef PW_VIEWS_MSGMATCH_H
#define PW_VIEWS_MSGMATCH_H
#include <stdint.h>

#include "views/keymap.h"

typedef struct pw_msg {
    int64_t comm;   /* communicator (0 when the format has none) */
    int64_t source; /* sending rank */
    int64_t dest;   /* receiving rank */
    int64_t tag;
} pw_msg;

typedef struct pw_msgmatch {
    pw_keymap keys;     /* message key -> index into counts */
    pw_keymap requests; /* (rank, request) -> flow id of a posted receive, or
                           PW_MSG_WILD | index into wild */
    pw_keymap send_requests; /* (rank, request) of nonblocking sends not completed yet */
    pw_msg *wild;       /* wildcard receives waiting for their status */
    uint64_t *wild_free; /* free slots of wild */
    uint64_t n_wild, cap_wild, n_free;
    struct pw_msg_counts {
        pw_msg key;
        uint64_t sends, recvs;
    } *counts;
    uint64_t n_keys, cap_keys;
    /* The keys used last, by a hash of the key: key number + 1, 0: none
     * (a rank talks to few peers: most lookups end here, not in `keys`). */
    uint64_t recent[64];
    /* The flow id of the numbered receive the latest post_recv's request
     * handle still named (posted, never completed: given up), 0: none. */
    uint64_t replaced;
} pw_msgmatch;

void pw_msgmatch_init(pw_msgmatch *mm);
void pw_msgmatch_free(pw_msgmatch *mm);
/* The flow id (never 0) of a send / a receive; 0 when memory runs out. */
uint64_t pw_msgmatch_send(pw_msgmatch *mm, const pw_msg *m);
uint64_t pw_msgmatch_recv(pw_msgmatch *mm, const pw_msg *m);
#define PW_MSG_WILD ((uint64_t)1 << 63)

/* A nonblocking receive: its flow id (or, for a wildcard, the receive
 * itself) waits under (rank, request).  Returns the flow id, known from
 * the post on, or for a wildcard PW_MSG_WILD and a slot number; 0 when
 * memory runs out. */
uint64_t pw_msgmatch_post_recv(pw_msgmatch *mm, const pw_msg *m, int64_t rank, int64_t request);
/* The flow id of the receive that request completes, or 0 when none.
 * status: the source and tag the completing call reports (NULL: none). */
uint64_t pw_msgmatch_complete(pw_msgmatch *mm, int64_t rank, int64_t request, const pw_msg *status);
/* A nonblocking send (MPI_Isend) waits under (rank, request) until a call
 * completes it.  0 when memory runs out. */
int pw_msgmatch_post_send(pw_msgmatch *mm, int64_t rank, int64_t request);
/* Does request complete a nonblocking send of rank's (now forgotten)? */
int pw_msgmatch_complete_send(pw_msgmatch *mm, int64_t rank, int64_t request);
/* The message key (communicator, source, destination, tag) of a flow id
 * this matcher gave out. */
const pw_msg *pw_msgmatch_key(const pw_msgmatch *mm, uint64_t flow_id);
/* Has the send of flow_id been numbered yet (pw_msgmatch_send)? */
int pw_msgmatch_sent(const pw_msgmatch *mm, uint64_t flow_id);
/* Sends no receive matched and receives no send matched, so far. */
void pw_msgmatch_unmatched(const pw_msgmatch *mm, uint64_t *sends, uint64_t *recvs);
#endif
