/* emu_rules.c — one table row per simple event. */
#include "analysis/ovniemu/emu_rules.h"

#include "analysis/ovniemu/emu_tracks.h"

int emu_rules_apply(emu *e, emu_ev *ev, int slot, const emu_rule *table, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const emu_rule *r = &table[i];
        if (r->c != ev->c || r->v != ev->v)
            continue;
        emu_chan *ch = emu_tracks_chan(e->th, slot, r->ch);
        switch (r->action) {
        case EMU_PUSH:
            return emu_chan_push(&e->bay, ch, emu_int(r->value));
        case EMU_POP:
            return emu_chan_pop(&e->bay, ch, emu_int(r->value));
        case EMU_SET:
            return emu_chan_set(&e->bay, ch, emu_int(r->value));
        }
        return 0;
    }
    e->fault = "unknown event of the model";
    return -1;
}
