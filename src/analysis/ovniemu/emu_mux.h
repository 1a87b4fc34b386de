/* emu_mux.h — a mux: an output channel that copies the input a select
 * channel chooses (ovni src/emu/mux.c, track.c).  It is how a thread's
 * view shows a value only while the thread runs, and how a CPU's view
 * follows the thread running on it. */
#ifndef PW_EMU_MUX_H
#define PW_EMU_MUX_H
#include "analysis/ovniemu/emu_chan.h"

typedef struct emu_mux emu_mux;

/* The input a select value chooses, or NULL for none (the output takes the
 * default).  Returns -1 when the value cannot select anything. */
typedef int (*emu_mux_select_fn)(const emu_mux *m, emu_value key, emu_chan **input);

struct emu_mux {
    emu_chan *select;
    emu_chan *output;
    emu_mux_select_fn choose;
    emu_chan *selected;
    emu_value def;
    /* For the selectors: the one input of a thread's mux, or the table a
     * CPU's mux picks from by thread index: channel `chan` of model slot
     * `slot` of thread `index` (chan_of(m, index)). */
    emu_chan *input;
    emu_chan *(*chan_of)(const emu_mux *m, int64_t index);
    void *ctx;
    int slot, chan;
};

/* Sets up m over select and output (the output takes rewrites and
 * duplicates within an event, as the selection and input may change
 * together).  -1 when memory runs out, or when output is a stack or
 * another mux's output: a model's mistake, which fails its setup. */
int emu_mux_init(emu_mux *m, emu_chan *select, emu_chan *output, emu_mux_select_fn choose);

/* Selectors: the thread's input while its state (the key) is Running, or
 * Running/Cooling/Warming; the thread of index key for CPUs. */
int emu_select_running(const emu_mux *m, emu_value key, emu_chan **input);
int emu_select_active(const emu_mux *m, emu_value key, emu_chan **input);
int emu_select_index(const emu_mux *m, emu_value key, emu_chan **input);

/* Called by propagation: the select changed.  (When the selected input
 * changes, propagation copies it to the output itself.) */
int emu_mux_on_select(emu_bay *bay, emu_mux *m);
#endif
