/* otf2_call_metrics.h — the CPU time and hardware counters a call record
 * carries (DUMPI: "cpu" = [begin, end] in seconds; an object of such
 * pairs, "perf" = {perf::TASK-CLOCK: [b, e], ...}, the PAPI counters) as
 * OTF2 metrics: the begin values with the call's Enter, the end values
 * with its Leave, one metric class per name, so Scalasca and Vampir show
 * them per call. */
#ifndef PW_SINKS_OTF2_CALL_METRICS_H
#define PW_SINKS_OTF2_CALL_METRICS_H
#include <otf2/otf2.h>
#include <stdint.h>

#include "model/dataset.h"

#define OT_CALL_METRICS_MAX 8 /* per call: more are left out (counted) */

typedef struct ot_call_metrics {
    struct ot_call_metric {
        char *name;
        int papi;       /* a hardware counter (else CPU time, seconds) */
        uint32_t ref;   /* its metric member and class */
    } *m;
    uint32_t n, cap;
    uint64_t calls, left_out;
} ot_call_metrics;

typedef struct ot_metric_values {
    uint32_t n;
    uint32_t ref[OT_CALL_METRICS_MAX];
    double v[OT_CALL_METRICS_MAX];
} ot_metric_values;

void ot_call_metrics_free(ot_call_metrics *cm);
/* The ref of metric `name`, defined on first sight from *next_ref;
 * UINT32_MAX when memory runs out. */
uint32_t ot_call_metrics_ref(ot_call_metrics *cm, const char *name, int papi, uint32_t *next_ref);
/* rec's metrics: begin and end values; new names get refs from
 * *next_ref.  0 when memory runs out. */
int ot_call_metrics_read(ot_call_metrics *cm, const pw_record *rec, uint32_t *next_ref, ot_metric_values *begin,
                         ot_metric_values *end);
/* One Metric event per value; counted in *events. */
OTF2_ErrorCode ot_call_metrics_write(OTF2_EvtWriter *w, OTF2_TimeStamp t, const ot_metric_values *v,
                                     uint64_t *events);
/* Their members and classes, strings numbered from *next_string. */
void ot_call_metrics_define(const ot_call_metrics *cm, OTF2_GlobalDefWriter *g, OTF2_StringRef *next_string,
                            OTF2_StringRef empty);
#endif
