/* exchange.h — the replay spread over the processes of a program (issue
 * 17, docs/mpi-analyses.md "The exchange points"): each process replays
 * the ranks of its share, and after every time window sends the others,
 * through the program's collectives (pw_collectives.alltoallv), only the
 * sides their ranks need of its own:
 *   - the entry of each send whose receiver lives elsewhere (with a flag
 *     for a synchronous send, whose receiver's owner answers with the
 *     receive's post),
 *   - the entry of each collective call, to the other processes holding
 *     members of its communicator,
 * keyed by world names every process computes alike from the census
 * (channel: communicator, world source, world destination, tag, sequence
 * number; collective: communicator, instance, comm rank).  What arrives
 * is fed to the exchange points (channels.c, waits_coll.c) as if the
 * other rank had been replayed here; a process charges only its ranks.
 * Each round also carries the waits charged since the last one to share
 * 0, and the critical path's questions and answers with each process's
 * frontier (critical_path_spread.h): share 0 settles the path forward and
 * lets the waits go.  At the end (exchange_results.c) the last rounds
 * settle every wait and share 0 gathers the per-rank tables. */
#ifndef PW_ANALYSIS_MPI_WAITS_EXCHANGE_H
#define PW_ANALYSIS_MPI_WAITS_EXCHANGE_H
#include "analysis/mpi_waits/channels.h"

/* One side crossing processes (40 bytes). */
typedef struct mw_xrec {
    uint32_t kind; /* mw_xkind */
    uint32_t comm; /* communicator index (0 without communicator replay) */
    uint32_t a, b; /* message: world source, destination; collective: comm rank, 1 for the root; wait: rank slot */
    int64_t tag;     /* wait: its cause */
    uint64_t seq, t; /* sequence number (message, instance) and the side's time; wait: resume, enter */
} mw_xrec;

/* MW_X_WAIT: a wait charged on another process's rank, for share 0's
 * settling; the critical path's (critical_path_spread.h): MW_X_ASK, a
 * question to a rank's owner (a: rank slot, seq: time), MW_X_SUM, one
 * number of its answer to share 0 (b: its index, t: its value), MW_X_FIN,
 * a rank's MPI_Finalize exit (seq) to share 0. */
typedef enum mw_xkind {
    MW_X_SENT = 1,
    MW_X_SENT_SYNC,
    MW_X_POSTED,
    MW_X_ENTERED,
    MW_X_WAIT,
    MW_X_ASK,
    MW_X_SUM,
    MW_X_FIN
} mw_xkind;

typedef struct mw_xbuf {
    mw_xrec *r;
    size_t n, cap;
} mw_xbuf;

typedef struct mw_exchange mw_exchange;
struct mw_exchange {
    const pw_collectives *co;
    unsigned me, procs;
    uint32_t *owner;       /* per rank slot: the process replaying it */
    uint32_t **comm_procs; /* per communicator: the other processes with members */
    uint32_t *n_comm_procs;
    mw_xbuf *out;          /* per process: sides to send after this window */
    unsigned char *send;   /* a round's bytes for all processes (exchange_round) */
    size_t send_cap;
    size_t *sizes;         /* a round's bytes to, then from, each process */
    uint64_t *heads;       /* headers alone, when memory for a round runs out */
    struct mw_spread *spread; /* the critical path's questions and answers */
    int final;                /* the rounds after the replay: every record handled */
    pthread_mutex_t lock;  /* out, when ranks run in parallel */
    uint64_t sent_bytes, windows, most_window_bytes;
    int failed;
};

/* The ranks split between the processes of ds->run->collectives (share
 * index and count): run->ex set and each rank's `mine`, or run->ex left
 * NULL when the run is one process's alone.  Every process calls it
 * after mw_prepare, with `failed` set when its preparation failed;
 * returns 0 on every process when any failed. */
int mw_exchange_init(mw_run *run, int failed);
void mw_exchange_free(mw_run *run);
/* The number of windows, share 0's on every process. */
uint64_t mw_exchange_windows(mw_run *run, uint64_t windows);
/* Whether world rank w is replayed by another process. */
int mw_exchange_remote(const mw_run *run, int64_t w);
/* Sides queued for other processes (any worker thread). */
void mw_exchange_sent(mw_run *run, const mw_channel *ch, uint64_t seq, uint64_t enter, int sync);
void mw_exchange_posted(mw_run *run, const mw_channel *ch, uint64_t seq, uint64_t post);
void mw_exchange_entered(mw_run *run, uint32_t comm, uint64_t seq, uint32_t member, uint64_t enter, int is_root);
/* After a window: the queued sides sent, what came fed to the exchange
 * points.  mw_exchange_drain: after the last one, rounds until no
 * process has anything queued (answers to what came last).  Both return
 * 0 on every process when any failed (memory, or a rank of its). */
int mw_exchange_window(mw_run *run);
int mw_exchange_drain(mw_run *run);
/* Queues r for process q (any worker). */
void mw_exchange_queue(mw_run *run, uint32_t q, const mw_xrec *r);
/* After mw_replay_finish: the rounds that carry the last waits, their
 * questions and answers, share 0's settling of every wait.  0 on every
 * process when any failed. */
int mw_exchange_final(mw_run *run);
/* A sum over processes (the program's) of n values. */
void mw_exchange_sum(mw_run *run, uint64_t *v, size_t n);
/* Personalised all-to-all of byte buffers (pw_collectives.alltoallv);
 * *recv freed by the caller.  0 on every process when any failed. */
int mw_exchange_bytes(mw_run *run, const void *send, const size_t *send_bytes, void **recv, size_t *recv_bytes);

/* The end of a spread replay (exchange_results.c), after mw_replay_finish:
 * the last rounds (mw_exchange_final), share 0's totals of the path,
 * every rank's tables and the bins gathered.  0 on every process when
 * any failed. */
int mw_exchange_results(mw_run *run);

/* What came from another process, fed to the exchange points
 * (channels.c, waits_coll.c). */
void mw_msg_arrived_send(mw_run *run, mw_channel *ch, uint64_t seq, uint64_t enter, int sync);
void mw_msg_arrived_post(mw_run *run, mw_channel *ch, uint64_t seq, uint64_t post);
void mw_coll_arrived(mw_run *run, uint32_t comm, uint64_t seq, uint32_t member, uint64_t enter, int is_root);
/* The channel of a world key (communicator, source, destination, tag),
 * made on first use; NULL when memory runs out. */
mw_channel *mw_channel_for(mw_run *run, const pw_key *wk);
#endif
