/* emu_rules.h — event tables of the task runtimes' simple events (nOS-V,
 * Nanos6): each names the channel it pushes, pops or sets, or that it
 * changes nothing. */
#ifndef PW_EMU_RULES_H
#define PW_EMU_RULES_H
#include "analysis/ovniemu/emu.h"

enum { EMU_PUSH, EMU_POP, EMU_SET, EMU_IGNORE };

typedef struct emu_rule {
    char c, v;
    uint8_t action, ch;
    int32_t value;
} emu_rule;

/* Applies the row of table[0 .. n) that names ev to the current thread's
 * channels of the model in `slot`; a fault when none does. */
int emu_rules_apply(emu *e, emu_ev *ev, int slot, const emu_rule *table, size_t n);
#endif
