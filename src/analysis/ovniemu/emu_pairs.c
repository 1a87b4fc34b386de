/* emu_pairs.c — push on an opening event, pop on its closing one. */
#include "analysis/ovniemu/emu_pairs.h"

#include "analysis/ovniemu/emu_tracks.h"

/* Both events of a pair name its row. */
static void fill(emu_dispatch *d, const void *table, size_t n)
{
    const emu_pair *p = table;
    for (size_t i = 0; i < n; i++) {
        emu_dispatch_name(d, p[i].c, p[i].open, (unsigned)i);
        emu_dispatch_name(d, p[i].c, p[i].close, (unsigned)i);
    }
}

int emu_pairs_apply(emu *e, emu_ev *ev, int slot, const emu_pair *table, size_t n)
{
    int i = emu_dispatch_event(e, ev, slot, fill, table, n);
    if (i < 0)
        return -1;
    const emu_pair *p = &table[i];
    emu_chan *ch = emu_tracks_chan(e->th, slot, p->ch);
    if (p->open == ev->v)
        return emu_chan_push(&e->bay, ch, emu_int(p->value));
    return emu_chan_pop(&e->bay, ch, emu_int(p->value));
}
