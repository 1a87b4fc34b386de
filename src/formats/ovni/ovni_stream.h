/* ovni_stream.h — the state of one stream cursor, shared with the stats
 * pass (which reads the event headers without decoding fields). */
#ifndef PW_OVNI_STREAM_H
#define PW_OVNI_STREAM_H
#include "core/bytes.h"
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

/* The largest event without the jumbo flag: header and a 16-byte payload. */
#define OVNI_MAX_PLAIN_EVENT (OVNI_EVENT_HEADER + 16)

/* The size of the common event at p, of which `have` bytes are
 * buffered: no flags and its largest possible size buffered (one bounds
 * test for all its bytes).  0 for any other (jumbo events, damage, the
 * window's end), which the cursor's slow path reads. */
static inline size_t ovni_plain_size(const uint8_t *p, size_t have)
{
    if (have < OVNI_MAX_PLAIN_EVENT || p[0] >= 0x10)
        return 0;
    return OVNI_EVENT_HEADER + (p[0] ? (size_t)p[0] + 1 : 0);
}

/* The common event at the stream's position (the header read): its
 * bytes and *size, or NULL (see ovni_plain_size). */
static inline const uint8_t *ovni_stream_plain(const ovni_stream *s, size_t *size)
{
    const uint8_t *p;
    size_t have = s->header_done ? pw_window_have(&s->w, s->off, &p) : 0;
    *size = have ? ovni_plain_size(p, have) : 0;
    return *size ? p : NULL;
}

/* A plain event's clock (a stream of byte order `big`), when no check is
 * due: not before `last` and not OU[ or OU] (which open and close
 * unordered regions).  0 when the cursor's own reading must judge it. */
static inline int ovni_in_order(const uint8_t *p, int big, uint64_t last, uint64_t *clock)
{
    *clock = pw_load64(p + 4, big);
    return !(p[1] == 'O' && p[2] == 'U') && *clock >= last;
}
#endif
