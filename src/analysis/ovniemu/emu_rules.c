/* emu_rules.c — one table row per simple event. */
#include "analysis/ovniemu/emu_rules.h"

#include <stdlib.h>

#include "analysis/ovniemu/emu_tracks.h"

/* The slot's dispatch square from its table, made once. */
static const emu_dispatch *dispatch_of(emu *e, int slot, const emu_rule *table, size_t n)
{
    if (!e->dispatch[slot] && (e->dispatch[slot] = calloc(1, sizeof *e->dispatch[slot])))
        for (size_t i = 0; i < n; i++)
            emu_dispatch_name(e->dispatch[slot], table[i].c, table[i].v, (unsigned)i);
    return e->dispatch[slot];
}

int emu_rules_apply(emu *e, emu_ev *ev, int slot, const emu_rule *table, size_t n)
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
    const emu_rule *r = &table[i];
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
