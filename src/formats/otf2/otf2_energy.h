/* otf2_energy.h — energy attributed to code regions: which metrics of an
 * archive carry power (otf2_energy_signals.c) and how their samples are
 * integrated over the regions that ran on the same system tree node
 * (otf2_energy.c). */
#ifndef PW_FORMATS_OTF2_ENERGY_H
#define PW_FORMATS_OTF2_ENERGY_H
#include "formats/otf2/otf2.h"

/* One metric member that carries power: the values of member `member` of
 * Metric events naming `ref` (a class or an instance) are watts after
 * multiplying by `factor`, or joules of a counter (differenced). */
typedef struct ot_power_spec {
    uint32_t ref;
    uint8_t member;
    int counter;
    double factor;
    /* The system tree node whose locations share it: an instance's scope
     * (or its recorder's node); -1 for a class recorded directly, whose
     * samples belong to the recording location's node. */
    int64_t node;
} ot_power_spec;

typedef struct ot_power_specs {
    ot_power_spec *specs;
    uint32_t n;
    int32_t *first; /* per metric reference: its first spec, -1: none */
    uint32_t n_refs;
    /* The system tree nodes to integrate over, each once. */
    uint32_t *nodes;
    uint32_t n_nodes;
} ot_power_specs;

/* The power metrics of od, by their units or the option otf2.power
 * ("METRIC:UNIT,..."; METRIC a glob on the member's name).  PW_E_USAGE
 * names a malformed option. */
pw_status ot_power_specs_find(const pw_dataset *ds, const ot_dataset *od, ot_power_specs *out, pw_error *err);
void ot_power_specs_free(ot_power_specs *ps);

/* The node (system tree node reference) of OTF2 location index i, or -1. */
int64_t ot_location_node(const ot_dataset *od, uint32_t i);
/* 1 when node `inner` is `outer` or lies under it. */
int ot_node_within(const ot_dataset *od, int64_t inner, int64_t outer);

/* otf2_energy.c: adds "energy_by_region" to the report when the archive
 * has power samples. */
pw_status ot_energy_by_region(pw_dataset *ds, pw_report *r, pw_error *err);
#endif
