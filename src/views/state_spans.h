/* state_spans.h — state changes (states.h) turned into spans: each row's
 * channel holds a value from one change to the next (or to the end), and
 * each such span goes to a callback.  The time-per-state analysis sums
 * them; writers that draw complete slices (Chrome JSON) draw them. */
#ifndef PW_VIEWS_STATE_SPANS_H
#define PW_VIEWS_STATE_SPANS_H
#include <stddef.h>
#include <stdint.h>

/* A value held on (view, row, channel) over [t0, t1); first: the first
 * span of this row's channel (value 0 spans included, so callers can skip
 * them). */
typedef void (*pw_state_span_fn)(void *ctx, int view, uint32_t row, int32_t channel, int64_t value,
                                 int64_t t0, int64_t t1, int first);

typedef struct pw_state_track {
    uint64_t key;  /* view, row, channel */
    int64_t value, since;
    uint32_t user; /* free for the callback: data it keeps per track (0 at first) */
} pw_state_track;

/* Where each change finds its track without hashing: per view, a row's
 * tracks by column (track index + 1, 0: none yet), the columns being the
 * channels in order of first use. */
typedef struct pw_state_index {
    pw_state_track *tracks;  /* in the order of their first change */
    pw_state_track *current; /* while the callback runs: its span's track */
    uint32_t *cells[2];
    uint32_t n_rows[2], row_width;
    uint64_t *columns;       /* open addressing: channel << 32 | column + 1 */
    uint8_t small[256];      /* column + 1 of the channels below 256 */
    uint32_t n_columns, columns_cap;
    /* The tracks by a hash of their key (track index + 1): the order in
     * which pw_state_spans_close ends them. */
    uint32_t *order;
    size_t order_cap;
    int grow_pending; /* the order table is half full: grown at the next change */
} pw_state_index;

typedef struct pw_state_spans {
    pw_state_index *index; /* made at the first change */
    size_t n, cap;         /* the tracks */
    pw_state_span_fn fn;
    void *ctx;
    int failed;    /* memory ran out */
} pw_state_spans;

/* The track of (view, row, channel), for callers that account a change
 * themselves (they set its value and since): found, or made at the
 * channel's first change, holding `value` since `time`, its first span
 * given to the callback and *first set; NULL when memory runs out
 * (s->failed set).  The common lookup — a known track of a channel below
 * 256 — is inline, two loads and no call; the rest is the slow path. */
pw_state_track *pw_state_spans_track_slow(pw_state_spans *s, int64_t time, int view, uint32_t row,
                                          int32_t channel, int64_t value, int *first);
static inline pw_state_track *pw_state_spans_track(pw_state_spans *s, int64_t time, int view,
                                                   uint32_t row, int32_t channel, int64_t value,
                                                   int *first)
{
    pw_state_index *x = s->index;
    if (x && !x->grow_pending && (unsigned)view < 2 && (uint32_t)channel < 256 && x->small[channel] &&
        row < x->n_rows[view]) {
        uint32_t cell = x->cells[view][(size_t)row * x->row_width + x->small[channel] - 1];
        if (cell)
            return &x->tracks[cell - 1];
    }
    return pw_state_spans_track_slow(s, time, view, row, channel, value, first);
}
/* A change of a known track: the track, now holding `value` since `time`,
 * with the span the change ends in *held (the value) and *since (its
 * start; the span may be empty).  NULL at the channel's first change (its
 * first span given to the callback already) or when memory runs out.
 * Both the span writers (pw_state_spans_change) and the time-per-state
 * analysis (which counts the span itself) step a track so. */
static inline pw_state_track *pw_state_spans_move(pw_state_spans *s, int64_t time, int view,
                                                  uint32_t row, int32_t channel, int64_t value,
                                                  int64_t *held, int64_t *since)
{
    int first = 0;
    pw_state_track *tr = pw_state_spans_track(s, time, view, row, channel, value, &first);
    if (!tr || first)
        return NULL;
    *held = tr->value;
    *since = tr->since;
    tr->value = value;
    tr->since = time;
    return tr;
}
/* A pw_state_change_fn (ctx: the pw_state_spans). */
void pw_state_spans_change(void *ctx, int64_t time, int view, uint32_t row, int32_t channel,
                           int64_t value);
/* Ends every open span at `end`. */
void pw_state_spans_close(pw_state_spans *s, int64_t end);
void pw_state_spans_free(pw_state_spans *s);
/* The track of the span the callback is given (its `user` field is the
 * callback's; it holds the value that follows the span already). */
static inline pw_state_track *pw_state_spans_current(const pw_state_spans *s)
{
    return s->index->current;
}
/* The key of (view, row, channel), and its parts. */
static inline uint64_t pw_state_key(int view, uint32_t row, int32_t channel)
{
    return (uint64_t)(view + 1) << 62 | (uint64_t)row << 31 | (uint32_t)channel;
}
static inline int pw_state_key_view(uint64_t key) { return (int)(key >> 62) - 1; }
static inline uint32_t pw_state_key_row(uint64_t key) { return (uint32_t)(key >> 31 & 0x7FFFFFFF); }
static inline int32_t pw_state_key_channel(uint64_t key) { return (int32_t)(key & 0x7FFFFFFF); }
#endif
