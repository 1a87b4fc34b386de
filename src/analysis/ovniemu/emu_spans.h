/* emu_spans.h — channel changes turned into spans: each row's channel
 * holds a value from one change to the next (or to the end), and each such
 * span goes to a callback.  Stats sums them, the Chrome writer draws them. */
#ifndef PW_EMU_SPANS_H
#define PW_EMU_SPANS_H
#include <stddef.h>
#include <stdint.h>

/* A value held on (view, row, type) over [t0, t1); first: the first span
 * of this row's channel (value 0 spans included, so callers can skip them). */
typedef void (*emu_span_fn)(void *ctx, int view, uint32_t row, int32_t type, int64_t value,
                            int64_t t0, int64_t t1, int first);

typedef struct emu_span_track {
    uint64_t key;  /* view, row, type */
    int64_t value, since;
    uint32_t user; /* free for the callback: data it keeps per track (0 at first) */
} emu_span_track;

/* Where each change finds its track without hashing: per view, a row's
 * tracks by column (track index + 1, 0: none yet), the columns being the
 * types in order of first use. */
typedef struct emu_span_index {
    emu_span_track *tracks;  /* in the order of their first change */
    emu_span_track *current; /* while the callback runs: its span's track */
    uint32_t *cells[2];
    uint32_t n_rows[2], row_width;
    uint64_t *columns;       /* open addressing: type << 32 | column + 1 */
    uint8_t small[256];      /* column + 1 of the types below 256 (all ovniemu's but marks') */
    uint32_t n_columns, columns_cap;
    /* The tracks by a hash of their key (track index + 1): the order in
     * which emu_spans_close ends them. */
    uint32_t *order;
    size_t order_cap;
} emu_span_index;

typedef struct emu_spans {
    emu_span_index *index; /* made at the first change */
    size_t n, cap;         /* the tracks */
    emu_span_fn fn;
    void *ctx;
    int failed;    /* memory ran out */
} emu_spans;

/* The emulator's emit callback (ctx: the emu_spans). */
void emu_spans_change(void *ctx, int64_t time, int view, uint32_t row, int32_t type,
                      int64_t value);
/* Ends every open span at `end`. */
void emu_spans_close(emu_spans *s, int64_t end);
void emu_spans_free(emu_spans *s);
/* The parts of a key. */
static inline int emu_span_view(uint64_t key) { return (int)(key >> 62) - 1; }
static inline uint32_t emu_span_row(uint64_t key) { return (uint32_t)(key >> 31 & 0x7FFFFFFF); }
static inline int32_t emu_span_type(uint64_t key) { return (int32_t)(key & 0x7FFFFFFF); }
/* splitmix64's finalizer: every bit of h reaches the low bits. */
uint64_t emu_mix64(uint64_t h);
#endif
