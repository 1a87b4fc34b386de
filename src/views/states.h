/* states.h — the contract between what derives states and what writes
 * them: for every row (a thread, a CPU) of every view, the value of named
 * channels over time, as a runtime emulator or a state analysis gives
 * them.  The producer (an analysis whose ops offer `states`) describes its
 * rows and channels in a pw_states and streams the changes to a callback;
 * a sink (its `write_states`, or `dump --states`) writes them, knowing
 * nothing of the producer but this description (docs/architecture.md).
 *
 * A change is (time, view, row, channel, value): channel `channel` of row
 * `row` holds `value` from `time` on.  Times are ns from the trace's
 * first event and never go back; value 0 means "no state".  Channels are
 * named by a number (their Paraver event type) and described per view;
 * value labels may be added while the changes stream (a task type seen
 * for the first time), never taken back. */
#ifndef PW_VIEWS_STATES_H
#define PW_VIEWS_STATES_H
#include "model/dataset.h"

/* One change; the hot path, called once per change without allocation. */
typedef void (*pw_state_change_fn)(void *ctx, int64_t time, int view, uint32_t row, int32_t channel,
                                   int64_t value);

/* A row's names: `title` is what a viewer shows (the thread's location,
 * the CPU's name), `paraver` its line in a Paraver .row file, `loc` the
 * location a change of it belongs to in a dump (a CPU: "<node>/cpu.N"). */
typedef struct pw_state_row {
    const char *title, *paraver, *loc;
} pw_state_row;

/* Flags of a channel: what its values are. */
enum {
    PW_STATE_COUNTER = 1 << 0 /* a quantity (a hardware counter): drawn as a counter, not slices */
};

/* A channel as a view declares it, and its value labels so far. */
typedef struct pw_state_channel {
    int32_t id;         /* its number in the changes: the Paraver event type */
    const char *name;   /* "Thread: thread state" */
    unsigned flags;     /* PW_STATE_* */
    size_t n_labels;    /* labels 0..n_labels-1 are given by pw_states.label_at */
} pw_state_channel;

typedef struct pw_states pw_states;

typedef struct pw_state_view {
    const char *name;          /* "thread", "cpu": file names and keys */
    uint32_t n_rows;
    const pw_state_row *rows;  /* by row index */
    int32_t busy;              /* the channel whose nonzero value means the row
                                  runs something (a CPU's running threads), 0: none */
} pw_state_view;

/* What a producer offers, valid from its start to its release. */
struct pw_states {
    const pw_dataset *ds;
    const char *title;         /* what derived them, for viewers: "ovni emulation" */
    int n_views;
    const pw_state_view *views;
    /* Channels of a view, in declaration order (0 <= i < n_channels). */
    size_t (*n_channels)(const pw_states *st, int view);
    pw_state_channel (*channel_at)(const pw_states *st, int view, size_t i);
    /* Label k of channel i (0 <= k < its n_labels): value and text. */
    const char *(*label_at)(const pw_states *st, int view, size_t i, size_t k, int64_t *value);
    /* The channel named `id` (its name; NULL when the view has none) and
     * the label of one of its values (NULL when it has none).  A label's
     * text stays at its address until release(), the same pointer for
     * the same value each time: a writer may cache what it makes of a
     * label by the pointer (chrome_states.c). */
    const char *(*channel_name)(const pw_states *st, int view, int32_t id);
    const char *(*value_label)(const pw_states *st, int view, int32_t id, int64_t value);
    /* After play: the time the states end at (the last event's), and the
     * number of records replayed. */
    int64_t end;
    uint64_t events;
    /* The time the states are reported from: 0, or the start of the
     * report window they are clipped to (state_window.h). */
    int64_t start;
};

/* The slot of a key of states — (view, channel, value), (view, row,
 * channel), a label's address — in a direct-mapped cache of 2^bits
 * slots, for the producers and writers that remember their last answers
 * per key: a collision costs only a miss.  One multiply by 2^64 / phi (Fibonacci hashing):
 * the top bits of the product depend on every bit of the key, which is
 * all a cache indexed by them needs; pw_mix64's further rounds cost 2 %
 * of the instructions of convert -o X.states.pftrace (two slots a
 * change). */
static inline uint32_t pw_state_slot(int view, uint32_t a, uint64_t b, unsigned bits)
{
    uint64_t key = (uint64_t)a << 32 ^ b ^ (uint64_t)view << 63;
    return (uint32_t)(key * 0x9E3779B97F4A7C15ull >> (64 - bits));
}

/* A watcher of the states the time-per-state view replays for stats
 * (ds->run->states_watch; state_times.c): a page that draws them over time
 * from that replay instead of making its own.  begin: the rows and
 * channels are known; change: every change, as the view sees it; end:
 * the replay is over (st->end set, labels still readable). */
typedef struct pw_states_watch {
    void (*begin)(void *ctx, const pw_states *st);
    pw_state_change_fn change;
    void (*end)(void *ctx, const pw_states *st);
    void *ctx;
} pw_states_watch;

/* A producer of states: an analysis that replays a dataset's records. */
typedef struct pw_states_source {
    /* 1 when the producer derives states from ds's records. */
    int (*offers)(const pw_dataset *ds);
    /* Describes the rows and channels (*st) and will send every change to
     * change(ctx, ...); *st is released with release() even when this fails. */
    pw_status (*start)(pw_dataset *ds, pw_state_change_fn change, void *ctx, pw_states **st,
                       pw_error *err);
    /* Replays every record; sets st->end and st->events. */
    pw_status (*play)(pw_states *st, pw_error *err);
    void (*release)(pw_states *st);
} pw_states_source;

#endif
