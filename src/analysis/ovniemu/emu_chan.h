/* emu_chan.h — channels: a value over time that the emulator's models set,
 * and the propagation step that turns one event's changes into output.
 *
 * The semantics follow ovniemu 1.14 (bsc-pm/ovni src/emu/chan.c, bay.c,
 * pv/prv.c): a channel may change once per event unless it allows rewrites;
 * setting the value it already had is an error unless the channel ignores
 * or allows duplicates; after each event every changed ("dirty") channel
 * first runs its subscribers (muxes that follow it), which may dirty more
 * channels, then emits its value to the Paraver row it is bound to, where
 * a repeated value is skipped or refused as the binding's flags say. */
#ifndef PW_EMU_CHAN_H
#define PW_EMU_CHAN_H
#include <stddef.h>
#include <stdint.h>

/* A channel value: an integer, or null (no value, written as 0). */
typedef struct emu_value {
    int64_t i;
    int null;
} emu_value;

/* A row's last value before its first: equal to no value. */
#define EMU_NEVER (-1)

static inline emu_value emu_int(int64_t i) { return (emu_value){i, 0}; }
static inline emu_value emu_null(void) { return (emu_value){0, 1}; }
static inline int emu_value_eq(emu_value a, emu_value b)
{
    return a.null == b.null && (a.null || a.i == b.i);
}

/* Binding flags of a channel's Paraver row (pv/prv.h). */
enum {
    EMU_PRV_SKIPDUP = 1 << 0,     /* a repeated value is not written */
    EMU_PRV_SKIPDUPNULL = 1 << 1, /* a repeated null is not written */
    EMU_PRV_EMITDUP = 1 << 2,     /* repeated values are written */
    EMU_PRV_NEXT = 1 << 3,        /* written as value + 1 (zero-based ids) */
    EMU_PRV_ZERO = 1 << 4         /* 0 is a legal value */
};

/* Which Paraver trace a channel's row belongs to. */
enum { EMU_VIEW_THREAD = 0, EMU_VIEW_CPU = 1, EMU_VIEWS = 2 };

struct emu_mux;
struct emu_bay;

/* Who follows a channel: a mux whose select it is, or a mux whose
 * selected input it is (then the mux's output, kept here so that
 * propagation copies the input without loading the mux). */
typedef struct emu_sub {
    struct emu_mux *mux;
    struct emu_chan *output; /* inputs: the mux's output; selects: NULL */
} emu_sub;

/* Propagation's first hot spot was loading channels: it reads a few of
 * each changed channel, which a channel kept on two cache lines of 104
 * bytes.  Laid out so that what a change and a propagation read of a mux
 * output or a channel with duplicates allowed (nearly all of them) is
 * the first line, and aligned to it (emu_chan_alloc). */
#define EMU_CHAN_ALIGN 64

typedef struct emu_chan {
    /* The first line: the current value (stacks: the top, null when
     * empty), the row's last value (null EMU_NEVER before the first),
     * the followers and the flags. */
    _Alignas(EMU_CHAN_ALIGN) emu_value value;
    emu_value prv_last;
    emu_sub *subs;
    uint32_t n_subs;
    uint32_t n_stack;
    /* The Paraver row this channel writes to, if any. */
    int32_t prv_type;
    uint32_t prv_row;
    int8_t view;          /* -1: none */
    uint8_t prv_flags;
    /* A change needs propagation's full walk (emu_bay_propagate): a mux
     * has the channel as its select, or it is a mux's output. */
    uint8_t walk;
    uint8_t is_stack, dirty;
    uint8_t allow_dup, ignore_dup, dirty_write;
    /* The value at the end of the previous event: kept (and read) only
     * for channels that refuse duplicates. */
    emu_value last;
    emu_value *stack;     /* stack channels: the pushed values */
    uint32_t cap_stack, cap_subs;
    const char *name;     /* for findings: "state", "flush", ... */
    /* A mux's output (emu_mux_init): no other mux may write it, and it
     * follows nothing (it has no followers of its own). */
    uint8_t mux_output;
} emu_chan;

/* n zeroed objects of `size` bytes that hold channels (a channel, or a
 * thread or CPU with its channels), aligned as channels are; NULL when
 * memory runs out.  Released with free. */
void *emu_chan_alloc(size_t n, size_t size);

/* What a propagation emits: one row's new value (after the flags). */
typedef void (*emu_emit_fn)(void *ctx, int64_t time, int view, uint32_t row, int32_t type,
                            int64_t value);

typedef struct emu_bay {
    emu_chan **dirty;
    uint32_t n_dirty, cap_dirty;
    uint32_t n_walk;       /* dirty channels that need the full walk */
    int64_t time;          /* of the event being propagated */
    emu_emit_fn emit;
    void *emit_ctx;
    /* The first fault of the current event (static text), for a finding. */
    const char *fault;
    const char *fault_chan;
} emu_bay;

void emu_chan_init(emu_chan *c, const char *name, int is_stack);
void emu_chan_free(emu_chan *c);
/* Binds the channel to row `row` of the `view` trace as event `type`. */
void emu_chan_bind(emu_chan *c, int view, uint32_t row, int32_t type, unsigned flags);
/* The channel's value: a stack's top (null when empty), which push and
 * pop keep in `value` so that reading never branches on the kind. */
static inline emu_value emu_chan_read(const emu_chan *c) { return c->value; }

/* The model operations; each returns 0, or -1 with bay->fault set. */
int emu_chan_set(emu_bay *bay, emu_chan *c, emu_value v);
int emu_chan_push(emu_bay *bay, emu_chan *c, emu_value v);
int emu_chan_pop(emu_bay *bay, emu_chan *c, emu_value expected);

/* Subscriptions (mux.c adds and removes them); -1 when memory runs out
 * or c is a mux's output. */
int emu_chan_subscribe(emu_chan *c, struct emu_mux *m, int is_input);
void emu_chan_unsubscribe(emu_chan *c, struct emu_mux *m, int is_input);

/* Runs the subscribers of the dirty channels, emits them and makes them
 * clean.  Returns 0, or -1 with bay->fault set (propagation still ends with
 * every channel clean, so the emulation can go on). */
int emu_bay_propagate(emu_bay *bay);
void emu_bay_free(emu_bay *bay);
/* Marks a channel dirty, as a fault when it already is and may not be. */
int emu_bay_dirty(emu_bay *bay, emu_chan *c);
#endif
