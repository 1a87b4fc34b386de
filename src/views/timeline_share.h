/* timeline_share.h — the timeline of one process's share only, with the
 * flows to and from other shares exact (perfweave-mpi convert).
 *
 * Drawn alone, a share's tracks are numbered as the serial run numbers
 * them (track uuids come from the location list and each location's own
 * records, timeline.c), and its messages get the serial flow ids (a
 * message's id is its channel (communicator, source, destination, tag) and
 * its sequence number on the channel, which sender and receiver count
 * alike: MPI does not overtake on a channel).  What a share cannot see
 * alone is the other end of a message that crosses shares: the serial
 * run draws a flow only when its send comes before its receive's
 * completion in the merged stream (timeline_flows.h), so each share first
 * draws itself without writing (a pass that records, for every message
 * end whose other end another share draws, the channel, the sequence
 * number and where the end falls in the merged stream), hands each record
 * to the share of the other end (pw_collectives.alltoallv, one all-to-all),
 * and then draws for real, deciding each crossing flow as the serial run
 * would.  As Scalasca's parallel replay, only the messages that cross
 * processes travel, 80 bytes each.
 *
 * A share is drawn alone only when every process can: collectives with an
 * exchange, no wait states (--set waits: an analysis of every rank), every
 * cursor yielding records of its own location only (ROSS files yield many
 * LPs), and each rank's locations in one share (the channel numbering is
 * per rank).  Otherwise every process draws every location, as before. */
#ifndef PW_VIEWS_TIMELINE_SHARE_H
#define PW_VIEWS_TIMELINE_SHARE_H
#include "views/keymap.h"
#include "views/msgmatch.h"
#include "model/dataset.h"
#include "model/tournament.h"

/* Where a message end is drawn in the merged stream: at a record (its
 * merge order) or at the end of a SPAN (popped before every record whose
 * time is at or after it, timeline.c flush_ends). */
typedef struct tl_pos {
    int64_t t;         /* the timeline time of the record, or of the span's end */
    uint64_t is_end;   /* 1: at a span's end */
    pw_sort_key key;   /* a record's merge order */
} tl_pos;

/* A message end as it travels: its channel, sequence number and place. */
typedef struct tl_end_msg {
    int64_t comm, source, dest, tag;
    uint64_t seq;
    tl_pos pos;
} tl_end_msg;

typedef struct tl_share {
    unsigned me, processes;
    uint32_t *owner;      /* per location: its process + 1; 0: none */
    pw_keymap rank_owner; /* rank -> its process + 1 */
    /* the recording pass: ends for each other process */
    tl_end_msg **out;
    size_t *n_out, *cap_out;
    int nomem;
    /* the drawing pass: the other ends, per channel, by sequence number */
    pw_keymap channels; /* (comm, source, dest, tag) -> channel index */
    struct tl_channel {
        tl_pos *pos;
        uint8_t *known;
        uint64_t cap, n_known;
    } *chans;
    size_t n_chans, cap_chans;
} tl_share;

/* Decides, on every process together, whether this process draws its
 * share alone; fills sh when it does (1), leaves it empty when every
 * location is drawn (0); -1 when memory runs out (every process agrees). */
int tl_share_begin(tl_share *sh, pw_dataset *ds);
void tl_share_free(tl_share *sh);

/* The process (+ 1, 0: none) whose share draws rank's records. */
unsigned tl_share_owner_of_rank(const tl_share *sh, int64_t rank);

/* Recording pass: notes an end of message m (sequence seq) drawn at pos,
 * when the other end's rank is drawn by another process.  is_send: the
 * send end (its other end is m->dest's), else the receive end. */
void tl_share_note(tl_share *sh, const pw_msg *m, uint64_t seq, int is_send, const tl_pos *pos);
/* Hands the recorded ends to their processes and keeps those received;
 * 0 when memory runs out anywhere or a process failed before (ok_here 0:
 * this one; every process agrees). */
int tl_share_exchange(tl_share *sh, const pw_collectives *c, int ok_here);

/* Drawn by location (no time order, no flow dropped): hands each channel's
 * count of sends (receives) made here to the process that draws its
 * receiver (sender), so that tl_share_other_ends counts the other side's
 * ends; the same agreement as tl_share_exchange. */
int tl_share_exchange_counts(tl_share *sh, const pw_collectives *c, const pw_msgmatch *mm, int ok_here);
/* Drawing pass: the other end of m's message seq, or NULL when another
 * process drew none. */
const tl_pos *tl_share_other_end(const tl_share *sh, const pw_msg *m, uint64_t seq);
/* How many other ends of channel m arrived. */
uint64_t tl_share_other_ends(const tl_share *sh, const pw_msg *m);
/* Does a send drawn at s come before an end drawn at r in the merged stream? */
int tl_pos_before(const tl_pos *s, const tl_pos *r);

/* The findings so far, and a return to them: the first pass reads what
 * the drawing reads again, and each finding is the drawing's to make. */
typedef struct pw_diag_mark {
    size_t n;
    uint64_t dropped;
    int worst, system_fault;
} pw_diag_mark;
pw_diag_mark tl_diag_mark(const pw_dataset *ds);
void tl_diag_restore(pw_dataset *ds, const pw_diag_mark *m);

/* Records of the share's locations merged in time order (merge.c over
 * the share's cursors only; pw_merge_next, pw_merge_close). */
pw_status tl_share_merge_open(pw_dataset *ds, pw_merge **out, pw_error *err);
#endif
