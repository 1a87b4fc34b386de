/* emu_pairs.h — models whose events open and close a state on a stack
 * channel (MPI functions, TAMPI and other subsystems): an event table as
 * data, applied by one function. */
#ifndef PW_EMU_PAIRS_H
#define PW_EMU_PAIRS_H
#include "analysis/ovniemu/emu.h"

/* Event <m>`c``open` pushes `value` on channel `ch`, <m>`c``close` pops it. */
typedef struct emu_pair {
    char c, open, close;
    uint8_t ch;
    int32_t value;
} emu_pair;

/* Applies the row of table[0 .. n) that names ev to the current thread's
 * channels of the model in `slot`; a fault when none does. */
int emu_pairs_apply(emu *e, emu_ev *ev, int slot, const emu_pair *table, size_t n);
#endif
