/* paraver_comms.h — matched MPI messages as Paraver communication records
 * ("3:" lines).  A record needs both ends, and the receive may come first
 * in time order, so the halves wait under their flow id; complete records
 * are kept (one per message) and merged into the .prv by logical send time
 * at the end, the event records being in time order already. */
#ifndef PW_SINKS_PARAVER_COMMS_H
#define PW_SINKS_PARAVER_COMMS_H
#include <stdint.h>
#include <stdio.h>

#include "analysis/keymap.h"
#include "core/error.h"

typedef struct prv_comm {
    int64_t send_t, recv_t;          /* logical = physical: the calls' times */
    uint32_t send_task, send_thread; /* 1-based Paraver ids */
    uint32_t recv_task, recv_thread;
    uint64_t size;
    int64_t tag;
    int halves; /* 1: send, 2: receive, 3: both */
} prv_comm;

typedef struct prv_comms {
    pw_keymap by_flow; /* flow id -> index + 1 into c */
    prv_comm *c; /* zeroed as it grows */
    uint32_t n, cap;
} prv_comms;

void prv_comms_free(prv_comms *cs);
/* One end of flow `flow` (half 1: send, 2: receive); the sender sets size
 * and tag.  0 when memory runs out. */
int prv_comms_end(prv_comms *cs, uint64_t flow, int half, uint32_t task, uint32_t thread, int64_t t, uint64_t size,
                  int64_t tag);
/* Messages with both ends. */
uint64_t prv_comms_complete(const prv_comms *cs);
/* Rewrites the .prv at path with the complete records merged in. */
pw_status prv_comms_merge(prv_comms *cs, const char *path, pw_error *err);
#endif
