/* timeline_flows.h — the message flows of records, read from their fields
 * (the names are those of DUMPI, which other formats follow):
 *   send        "dest" (negative: MPI_PROC_NULL/MPI_ROOT, no message),
 *               "sendtag" or "tag", "comm"
 *   receive     "source", "recvtag" or "tag", "comm"; a wildcard (-1:
 *               MPI_ANY_SOURCE / MPI_ANY_TAG) is resolved from "status"
 *   post        a receive with "request": completes later
 *   complete    "request" or "requests" (a list) without dest/source; with
 *               "index" only requests[index] (MPI_Waitany); "flag" 0 means
 *               nothing completed (MPI_Test*); "status"/"statuses" give the
 *               source and tag of wildcard receives.
 * A record may both send and receive (MPI_Sendrecv). */
#ifndef PW_ANALYSIS_TIMELINE_FLOWS_H
#define PW_ANALYSIS_TIMELINE_FLOWS_H
#include "analysis/msgmatch.h"
#include "analysis/timeline.h"
#include "analysis/timeline_schema.h"

typedef struct tl_flows {
    pw_msgmatch mm;
    uint64_t *ids; /* flows ending at the current event */
    const pw_msg **msgs;
    size_t cap;
} tl_flows;

void tl_flows_init(tl_flows *f);
void tl_flows_free(tl_flows *f);
/* A value as an integer (0 when absent or not a number); field i of a
 * record's values, `absent` when the schema (i < 0) or the record lacks it. */
int64_t tl_value_int(const pw_value *v);
int64_t tl_field_int(const pw_value *v, int i, int64_t absent);
/* The i-th status of a status field (one OBJECT, or a LIST of them):
 * its "source" and "tag"; 0 when there is none. */
int tl_status_at(const pw_value *st, size_t i, pw_msg *out);
/* Sets ev's flow_out/msg_out and flows_in/msgs_in from rec's fields; rank
 * is the record's own rank.  0 when memory runs out. */
int tl_flows_of(tl_flows *f, const tl_schema *sc, const pw_record *rec, int64_t rank, pw_tl_event *ev);
#endif
