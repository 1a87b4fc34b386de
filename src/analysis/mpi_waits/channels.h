/* channels.h — the point-to-point exchange point of the replay (see
 * channels.c): world channels, their FIFOs of messages in flight, and
 * what each side of a message brings and needs. */
#ifndef PW_ANALYSIS_MPI_WAITS_CHANNELS_H
#define PW_ANALYSIS_MPI_WAITS_CHANNELS_H
#include "analysis/mpi_waits/mpi_waits.h"
#include "analysis/mpi_waits/seq_ring.h"

enum {
    MW_MSG_SENT = 1,      /* send_enter holds the send's entry */
    MW_MSG_POSTED = 2,    /* post holds the receive's post time */
    MW_MSG_SEND_DONE = 4, /* the sending side needs nothing more */
    MW_MSG_RECV_DONE = 8, /* the receiving side needs nothing more */
    MW_MSG_DONE = MW_MSG_SEND_DONE | MW_MSG_RECV_DONE,
    MW_MSG_POST_WANTED = 16 /* a synchronous sender elsewhere wants the post (exchange.h) */
};

/* One message of a channel as far as the replay has seen it. */
typedef struct mw_msg {
    uint64_t send_enter, post;
    uint32_t recv_wait; /* the receiver's pending call waiting for send_enter (index + 1), 0: none */
    uint32_t sync_wait; /* the synchronous sender's pending call waiting for post, 0: none */
    uint32_t flags;
} mw_msg;

typedef struct mw_channel {
    pthread_mutex_t lock;
    int64_t source, dest; /* world ranks */
    uint32_t comm;        /* communicator index */
    int64_t tag;
    int shared;           /* its two ranks are replayed by different workers: it locks */
    mw_seq_ring msgs;     /* of mw_msg, by sequence number */
    /* Messages set aside from the front of msgs: both sides seen, one
     * side's completion still to come (a receive posted and not yet, or
     * never, completed), so that the messages after them can leave. */
    struct mw_aside {
        uint64_t seq;
        mw_msg msg;       /* both sides done: gone, dropped at the next compaction */
    } *aside;             /* by sequence number (set aside in that order) */
    size_t n_aside, cap_aside, live_aside;
} mw_channel;

typedef struct mw_aside mw_aside;

/* What one call's messages need of the other sides: the latest send
 * entry of the receives it completes, the latest post of the receives of
 * its synchronous sends, and, once one is missing, its pending call. */
typedef struct mw_p2p_need {
    const pw_record *rec;
    int timed;     /* only a timed call (entry and exit) can wait */
    uint32_t pend; /* index + 1 of its pending call, 0: none */
    mw_latest send, post;
} mw_p2p_need;

/* Whether side (t, rank) is later than *latest: at equal times the lower
 * rank, so that the latest side does not depend on the order the sides
 * came in (ranks replayed in parallel, or on other processes). */
static inline int mw_later(uint64_t t, int64_t rank, const mw_latest *latest)
{
    return !latest->any || t > latest->t || (t == latest->t && rank < latest->rank);
}

/* The matcher's key number and sequence number of a flow id (msgmatch.c:
 * key number + 1 in the high 24 bits, sequence in the low 40). */
static inline uint64_t mw_flow_key(uint64_t id) { return (id >> 40) - 1; }
static inline uint64_t mw_flow_seq(uint64_t id) { return id & 0xffffffffffull; }

/* The world channel of rk's flow id; NULL when its communicator or peer
 * does not resolve (or memory ran out: rk failed). */
mw_channel *mw_channel_of(mw_run *run, mw_rank *rk, uint64_t flow_id);
/* The sender saw message seq enter at `enter`; a synchronous send is done
 * only once its post is needed (mw_msg_needed). */
void mw_msg_sent(mw_run *run, mw_rank *rk, mw_channel *ch, uint64_t seq, uint64_t enter, int sync);
/* The receiver posted message seq at `post`. */
void mw_msg_posted(mw_run *run, mw_rank *rk, mw_channel *ch, uint64_t seq, uint64_t post);
/* A call of rk needs the other side of message seq (want_send: its send
 * entry; else its post), now or, through a pending call, when it comes;
 * that side of the message is then done. */
void mw_msg_needed(mw_run *run, mw_rank *rk, mw_channel *ch, uint64_t seq, int want_send, mw_p2p_need *need);
/* A side of message seq that will never complete (its request freed,
 * cancelled or its handle reused before completion): done, nothing
 * needed.  recv_side: the receive's, else the synchronous send's. */
void mw_msg_given_up(mw_rank *rk, mw_channel *ch, uint64_t seq, int recv_side);
/* Pending calls (pending.c): one made for rk's call rec, waiting for one
 * side (index + 1; 0 when memory runs out: rk failed); a side delivered
 * to it (by rk's worker, or with every rank stopped); the call's own end, with the sides
 * it found at once.  A pending call is charged when nothing is missing. */
uint32_t mw_pending_new(mw_rank *rk, const pw_record *rec);
void mw_pending_deliver(mw_rank *rk, uint32_t id, int is_send, uint64_t t, int64_t from);
/* A side for pending call id of world rank `world`, delivered by the
 * replay of rank `actor`: at once, or between windows when another
 * worker replays `world` (handoff.c). */
void mw_deliver(mw_run *run, mw_rank *actor, int64_t world, uint32_t id, int is_send, uint64_t t, int64_t from);
void mw_pending_release(mw_rank *rk, const mw_p2p_need *need);
/* The wait of a call from the latest other sides: Late Sender first,
 * else Late Receiver (a call waits once). */
void mw_charge_latest(mw_rank *rk, const mw_pending *p);
#endif
