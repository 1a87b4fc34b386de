/* emu_rules.c — one table row per simple event. */
#include "analysis/ovniemu/emu_rules.h"

#include "analysis/ovniemu/emu_tracks.h"

static void fill(emu_dispatch *d, const void *table, size_t n)
{
    const emu_rule *r = table;
    for (size_t i = 0; i < n; i++)
        emu_dispatch_name(d, r[i].c, r[i].v, (unsigned)i);
}

int emu_rules_apply(emu *e, emu_ev *ev, int slot, const emu_rule *table, size_t n)
{
    int i = emu_dispatch_event(e, ev, slot, fill, table, n);
    if (i < 0)
        return -1;
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
