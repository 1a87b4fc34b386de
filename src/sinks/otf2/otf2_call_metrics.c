/* otf2_call_metrics.c — per-call CPU time and counters as OTF2 metrics
 * (see otf2_call_metrics.h). */
#ifdef PW_HAVE_OTF2
#include "sinks/otf2/otf2_call_metrics.h"
#include "sinks/otf2/otf2_shard.h"

#include <stdlib.h>
#include <string.h>

#include "core/grow.h"

void ot_call_metrics_free(ot_call_metrics *cm)
{
    for (uint32_t i = 0; i < cm->n; i++)
        free(cm->m[i].name);
    free(cm->m);
    memset(cm, 0, sizeof *cm);
}

static int number(const pw_value *v, double *out)
{
    if (!v->present)
        return 0;
    switch (v->type) {
    case PW_T_I64: *out = (double)v->v.i; return 1;
    case PW_T_U64: *out = (double)v->v.u; return 1;
    case PW_T_F64:
    case PW_T_DECIMAL: *out = pw_value_number(v); return 1;
    default: return 0;
    }
}

uint32_t ot_call_metrics_ref(ot_call_metrics *cm, const char *name, int papi, uint32_t *next_ref)
{
    for (uint32_t i = 0; i < cm->n; i++)
        if (!strcmp(cm->m[i].name, name))
            return cm->m[i].ref;
    size_t cap = cm->cap;
    char *copy = strdup(name);
    if (!copy || !pw_grow((void **)&cm->m, cm->n, &cap, sizeof *cm->m)) {
        free(copy);
        return UINT32_MAX;
    }
    cm->cap = (uint32_t)cap;
    cm->m[cm->n++] = (struct ot_call_metric){copy, papi, *next_ref};
    return (*next_ref)++;
}

/* A [begin, end] pair of numbers named `name`, added to both value sets. */
static int add_pair(ot_call_metrics *cm, const char *name, int papi, const pw_value *pair, uint32_t *next_ref,
                    ot_metric_values *begin, ot_metric_values *end)
{
    double b, e;
    if (!pair->present || pair->type != PW_T_LIST || pair->v.list.n != 2 || !number(&pair->v.list.items[0], &b) ||
        !number(&pair->v.list.items[1], &e))
        return 1;
    if (begin->n == OT_CALL_METRICS_MAX) {
        cm->left_out++;
        return 1;
    }
    uint32_t ref = ot_call_metrics_ref(cm, name, papi, next_ref);
    if (ref == UINT32_MAX)
        return 0;
    begin->ref[begin->n] = end->ref[end->n] = ref;
    begin->v[begin->n++] = b;
    end->v[end->n++] = e;
    return 1;
}

int ot_call_metrics_read(ot_call_metrics *cm, const pw_record *rec, uint32_t *next_ref, ot_metric_values *begin,
                         ot_metric_values *end)
{
    begin->n = end->n = 0;
    if (!rec || rec->kind != PW_REC_SPAN)
        return 1;
    const pw_schema *sc = rec->cursor->ds->schemas[rec->schema];
    const pw_value *v = sc->n_fields ? pw_record_fields(rec) : NULL;
    for (size_t i = 0; i < sc->n_fields; i++) {
        if (!v[i].present)
            continue;
        if (!strcmp(sc->fields[i].name, "cpu") && !add_pair(cm, "cpu time", 0, &v[i], next_ref, begin, end))
            return 0;
        if (v[i].type != PW_T_OBJECT)
            continue;
        for (size_t k = 0; k < v[i].v.list.n; k++)
            if (!add_pair(cm, v[i].v.list.fields[k].name, 1, &v[i].v.list.items[k], next_ref, begin, end))
                return 0;
    }
    cm->calls += begin->n > 0;
    return 1;
}

OTF2_ErrorCode ot_call_metrics_write(OTF2_EvtWriter *w, OTF2_TimeStamp t, const ot_metric_values *v,
                                     uint64_t *events)
{
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    OTF2_Type type = OTF2_TYPE_DOUBLE;
    for (uint32_t i = 0; rc == OTF2_SUCCESS && i < v->n; i++) {
        OTF2_MetricValue value = {.floating_point = v->v[i]};
        rc = OT_WRITE(w, OTF2_EvtWriter_Metric(w, NULL, t, v->ref[i], 1, &type, &value));
        ++*events;
    }
    return rc;
}

void ot_call_metrics_define(const ot_call_metrics *cm, OTF2_GlobalDefWriter *g, OTF2_StringRef *next_string,
                            OTF2_StringRef empty)
{
    for (uint32_t i = 0; i < cm->n; i++) {
        const struct ot_call_metric *m = &cm->m[i];
        OTF2_StringRef name = (*next_string)++, unit = (*next_string)++;
        OTF2_GlobalDefWriter_WriteString(g, name, m->name);
        OTF2_GlobalDefWriter_WriteString(g, unit, m->papi ? "#" : "s");
        OTF2_GlobalDefWriter_WriteMetricMember(g, m->ref, name, empty,
                                               m->papi ? OTF2_METRIC_TYPE_PAPI : OTF2_METRIC_TYPE_OTHER,
                                               OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_DOUBLE, OTF2_BASE_DECIMAL, 0,
                                               unit);
        OTF2_GlobalDefWriter_WriteMetricClass(g, m->ref, 1, &m->ref, OTF2_METRIC_SYNCHRONOUS,
                                              OTF2_RECORDER_KIND_CPU);
    }
}
#endif
