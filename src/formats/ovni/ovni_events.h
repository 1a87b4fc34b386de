/* ovni_events.h — the signatures of the built-in ovni model events,
 * generated at build time from ovni-events.tsv (tools/gen_ovni_events.c). */
#ifndef PW_OVNI_EVENTS_H
#define PW_OVNI_EVENTS_H
#include <stddef.h>

#include "perfweave.h"

typedef struct ovni_event_def {
    const char *mcv;       /* "OHx" */
    const char *model;     /* "ovni" */
    const char *model_version;
    int jumbo;             /* fields start after the 4-byte jumbo length */
    const pw_field *fields; /* "payload" first, then the signature fields */
    int n_sig;             /* signature fields (fields has n_sig + 1) */
    /* Per signature field: byte width, negative for signed, 0 for str. */
    const signed char *widths;
    /* Bytes of the fixed-width fields (for jumbo events, all but the last). */
    int fixed_bytes;
} ovni_event_def;

extern const ovni_event_def ovni_event_defs[];
extern const size_t ovni_n_event_defs;
#endif
