/* emu_pairs.c — push on an opening event, pop on its closing one. */
#include "analysis/ovniemu/emu_pairs.h"

#include "analysis/ovniemu/emu_tracks.h"

int emu_pairs_apply(emu *e, emu_ev *ev, int slot, const emu_pair *table, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const emu_pair *p = &table[i];
        if (p->c != ev->c || (p->open != ev->v && p->close != ev->v))
            continue;
        emu_chan *ch = emu_tracks_chan(e->th, slot, p->ch);
        if (p->open == ev->v)
            return emu_chan_push(&e->bay, ch, emu_int(p->value));
        return emu_chan_pop(&e->bay, ch, emu_int(p->value));
    }
    e->fault = "unknown event of the model";
    return -1;
}
