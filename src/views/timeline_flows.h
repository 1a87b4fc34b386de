/* timeline_flows.h — the message flows of records, read from their fields
 * (the names are those of DUMPI, which other formats follow):
 *   send        "dest" (negative: MPI_PROC_NULL/MPI_ROOT, no message),
 *               "sendtag" or "tag", "comm"
 *   receive     "source", "recvtag" or "tag", "comm"; a wildcard (-1:
 *               MPI_ANY_SOURCE / MPI_ANY_TAG) is resolved from "status"
 *   post        a receive with "request": completes later; a send with
 *               "request" (MPI_Isend) is completed later too
 *   complete    "request" or "requests" (a list) without dest/source; with
 *               "index" only requests[index] (MPI_Waitany); "flag" 0 means
 *               nothing completed (MPI_Test*); "status"/"statuses" give the
 *               source and tag of wildcard receives, and "bytes" the
 *               received length.
 * A record may both send and receive (MPI_Sendrecv). */
#ifndef PW_VIEWS_TIMELINE_FLOWS_H
#define PW_VIEWS_TIMELINE_FLOWS_H
#include "views/msgmatch.h"
#include "views/timeline.h"
#include "views/timeline_schema.h"
#include "views/timeline_share.h"

/* The receive flows of a span, parked until the span ends: a message is
 * drawn to the moment its receive completes (the exit of the call), and
 * trace_processor binds the terminating flow ids of a slice-end event to
 * the slice that ends (track_event_parser.cc, ParseThreadEndEvent). */
typedef struct tl_parked {
    uint64_t *ids;    /* triples: flow id, received bytes, request */
    uint32_t n, cap;
    uint32_t next_free; /* index + 1 of the next free slot; 0: none */
} tl_parked;

typedef struct tl_flows {
    pw_msgmatch mm;
    uint64_t *ids; /* flows ending at the current event */
    uint64_t *bytes; /* their received bytes */
    int64_t *reqs;   /* their requests */
    const pw_msg **msgs;
    size_t cap;
    int64_t *done;   /* nonblocking sends completed at the current event */
    size_t cap_done;
    tl_parked *parked; /* slots keep their buffers when freed: no allocation per span */
    uint32_t n_parked, cap_parked, free_parked;
    /* In time order only: messages whose receive completes before their
     * send starts (clocks of ranks not synchronised, CPU-time clocks) can
     * be drawn by no viewer (trace_processor skips a flow's end that comes
     * before its start); they are drawn as no flow and counted. */
    int time_ordered;
    pw_keymap unsent; /* flow ids received before any send: drop the send's end too, if it comes */
    uint64_t n_unsent, backwards;
    /* A share drawn alone (timeline_share.h): the messages whose other
     * end another process draws are decided from the ends it sent. */
    tl_share *share;
} tl_flows;

/* A flow id's sequence number on its channel (msgmatch.c: the low 40 bits). */
static inline uint64_t tl_flow_seq(uint64_t flow_id) { return flow_id & 0xffffffffffull; }

void tl_flows_init(tl_flows *f);
void tl_flows_free(tl_flows *f);
/* A value as an integer (0 when absent or not a number). */
int64_t tl_value_int(const pw_value *v);
/* The i-th status of a status field (one OBJECT, or a LIST of them):
 * its "source", "tag" and "bytes" (PW_TL_NO_BYTES when absent); 0 when
 * there is none. */
int tl_status_at(const pw_value *st, size_t i, pw_msg *out, uint64_t *bytes);
/* Sets ev's flow_out/msg_out and flows_in/msgs_in from rec's fields; rank
 * is the record's own rank.  0 when memory runs out. */
int tl_flows_of(tl_flows *f, const tl_schema *sc, const pw_record *rec, int64_t rank, pw_tl_event *ev);
/* In time order: drops from ev (drawn at `at`) the receive flows whose
 * send has not been drawn yet (they would end before they start).  0 when memory runs out. */
int tl_flows_drop_backwards(tl_flows *f, pw_tl_event *ev, const tl_pos *at);
/* A share drawn alone, the recording pass: notes ev's message ends whose
 * other end another process draws (ev is drawn at `at`). */
void tl_flows_note_ends(tl_flows *f, const pw_tl_event *ev, const tl_pos *at);
/* A share drawn alone: drops ev's send (counted as received before it was
 * sent) when another process drew its receive before `at`, as the serial
 * run drops it. */
void tl_flows_share_send(tl_flows *f, pw_tl_event *ev, const tl_pos *at);
/* Sends no receive matched and receives no send matched: the matcher's
 * counts, and for a share drawn alone, those of the channels it shares
 * with other processes counted against the ends they sent. */
void tl_flows_unmatched(const tl_flows *f, uint64_t *sends, uint64_t *recvs);
/* Moves ev's receive flows into a slot (its index + 1, 0 when ev has
 * none) and clears them from ev.  UINT32_MAX when memory runs out. */
uint32_t tl_flows_park(tl_flows *f, pw_tl_event *ev);
/* Hands the flows of slot (from tl_flows_park) to ev and frees the slot.
 * 0 when memory runs out. */
int tl_flows_unpark(tl_flows *f, uint32_t slot, pw_tl_event *ev);
#endif
