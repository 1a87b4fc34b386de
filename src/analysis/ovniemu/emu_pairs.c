/* emu_pairs.c — push on an opening event, pop on its closing one. */
#include "analysis/ovniemu/emu_pairs.h"

#include <stdlib.h>

#include "analysis/ovniemu/emu_tracks.h"

/* The slot's dispatch square from its table, made once: both events of a
 * pair name its row. */
static const emu_dispatch *dispatch_of(emu *e, int slot, const emu_pair *table, size_t n)
{
    if (!e->dispatch[slot] && (e->dispatch[slot] = calloc(1, sizeof *e->dispatch[slot])))
        for (size_t i = 0; i < n; i++) {
            emu_dispatch_name(e->dispatch[slot], table[i].c, table[i].open, (unsigned)i);
            emu_dispatch_name(e->dispatch[slot], table[i].c, table[i].close, (unsigned)i);
        }
    return e->dispatch[slot];
}

int emu_pairs_apply(emu *e, emu_ev *ev, int slot, const emu_pair *table, size_t n)
{
    const emu_dispatch *d = dispatch_of(e, slot, table, n);
    if (!d) {
        e->fault = "out of memory";
        return -1;
    }
    int i = emu_dispatch_row(d, ev->c, ev->v);
    if (i < 0) {
        e->fault = "unknown event of the model";
        return -1;
    }
    const emu_pair *p = &table[i];
    emu_chan *ch = emu_tracks_chan(e->th, slot, p->ch);
    if (p->open == ev->v)
        return emu_chan_push(&e->bay, ch, emu_int(p->value));
    return emu_chan_pop(&e->bay, ch, emu_int(p->value));
}
