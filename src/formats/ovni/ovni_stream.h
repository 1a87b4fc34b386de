/* ovni_stream.h — the state of one stream cursor, shared with the stats
 * pass (which reads the event headers without decoding fields). */
#ifndef PW_OVNI_STREAM_H
#define PW_OVNI_STREAM_H
#include "core/window.h"
#include "formats/ovni/ovni.h"

typedef struct ovni_stream {
    pw_window w;
    const ovni_dataset *od;
    uint64_t off;           /* file offset of the next event */
    int big;                /* the stream is big-endian */
    int header_done;
    const uint8_t *ev;      /* the current event's bytes (in the window) */
    int jumbo;              /* the current event is a jumbo event */
    /* The current event's MCV when it has no schema of its own (the
     * catch-all's): as a 24-bit key, and as text. */
    uint32_t mcv_key;
    char mcv[4];
    uint64_t events;
    uint64_t last_clock;
    unsigned unordered;     /* depth of OU[ regions */
    uint64_t backwards;     /* clocks that went back */
    uint64_t reserved_flags;
} ovni_stream;
#endif
