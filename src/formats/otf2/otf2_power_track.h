/* otf2_power_track.h — the Metric events of power metrics as POWER
 * records with their power in W, for the timeline's counter tracks
 * (otf2_power_track.c). */
#ifndef PW_FORMATS_OTF2_POWER_TRACK_H
#define PW_FORMATS_OTF2_POWER_TRACK_H
#include "formats/otf2/otf2.h"

/* A spec's previous sample on a cursor: counters are differenced. */
typedef struct ot_power_prev {
    int seen;
    int64_t t;
    double value; /* J */
} ot_power_prev;

/* A cursor's power state, per spec; allocated on its first POWER event. */
typedef struct ot_power_state {
    ot_power_prev *prev;
    double *watts;  /* the current event's */
    uint8_t *present;
} ot_power_state;

/* Finds the power metrics and, when there are some, adds the POWER
 * schema (od->power_schema, else -1).  PW_E_USAGE: a malformed otf2.power. */
pw_status ot_power_track_offer(pw_dataset *ds, ot_dataset *od, pw_error *err);
void ot_power_track_free(ot_dataset *od);
/* 1 when e is a Metric event of a power metric (a POWER record). */
int ot_power_track_carries(const ot_dataset *od, const ot_event *e);
/* Computes e's power (t in ns) into st; 0 when memory runs out. */
int ot_power_track_feed(ot_power_state *st, const ot_dataset *od, const ot_event *e, int64_t t);
/* Sets the power fields of e's record from what feed computed. */
void ot_power_track_decode(const ot_power_state *st, const ot_dataset *od, const ot_event *e, pw_value *values);
void ot_power_state_free(ot_power_state *st);
#endif
