/* paraver_comms.h — matched MPI messages as Paraver communication records
 * ("3:" lines), in logical send time order, with memory bounded by the
 * messages still open, never by the number of messages.
 *
 * A record needs both ends: the halves wait under their flow id until the
 * other comes.  A complete record waits in a heap by send time only while
 * an older send is still open (its record must come first); then it goes
 * to a spill file next to the output, in send time order.  A send that
 * never meets its receive would hold back every record after it: when the
 * heap holds PRV_READY_MAX records they go to the spill file as a sorted
 * run of their own.  The spill file is so a few sorted runs; at the end
 * they and the event records (in time order) merge into the .prv.  Memory
 * holds the open messages and at most PRV_READY_MAX complete ones. */
#ifndef PW_SINKS_PARAVER_COMMS_H
#define PW_SINKS_PARAVER_COMMS_H
#include <stdint.h>
#include <stdio.h>

#include "views/keymap.h"
#include "core/error.h"
#include "core/heap.h"

typedef struct prv_comm {
    int64_t send_t, recv_t;          /* logical = physical: see paraver_write.c */
    uint32_t send_task, send_thread; /* 1-based Paraver ids */
    uint32_t recv_task, recv_thread;
    uint64_t size;
    int64_t tag;
    int halves; /* 1: send, 2: receive, 3: both */
    uint32_t next_free; /* free list of slots: index + 1, 0: none */
} prv_comm;

#define PRV_READY_MAX (1u << 18) /* 16 MiB of held-back records */

typedef struct prv_sent {
    int64_t t;
    uint64_t flow;
} prv_sent;

typedef struct prv_comms {
    pw_keymap by_flow; /* flow id -> slot index + 1 of an open message */
    prv_comm *slots;
    uint32_t n_slots, cap_slots, free_slots;
    prv_sent *sends;   /* open sends in time order (a ring; entries of completed ones are skipped) */
    uint32_t head, n_sends, cap_sends;
    pw_heap ready;     /* of prv_comm: complete records held back, by send time */
    FILE *spill;       /* complete records: runs in send time order */
    long *run_starts;  /* offset of each run in spill */
    size_t n_runs, cap_runs;
    int64_t last_spilled; /* send time of the last record spilled */
    uint64_t complete;
} prv_comms;

void prv_comms_free(prv_comms *cs);
/* One end of flow `flow` (half 1: send, 2: receive); the sender sets size
 * and tag.  Ends come in time order (t never goes back).  spill_path
 * names the spill file, created on first use.  PW_OK or an error. */
pw_status prv_comms_end(prv_comms *cs, uint64_t flow, int half, uint32_t task, uint32_t thread, int64_t t,
                        uint64_t size, int64_t tag, const char *spill_path, pw_error *err);
/* Messages with both ends. */
uint64_t prv_comms_complete(const prv_comms *cs);
/* Writes to out (at out_path) the event records of the file at
 * events_path merged with every complete record, by time; removes the
 * spill file. */
pw_status prv_comms_merge(prv_comms *cs, FILE *out, const char *out_path, const char *events_path,
                          const char *spill_path, pw_error *err);
#endif
