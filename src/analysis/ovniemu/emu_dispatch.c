/* emu_dispatch.c — a model's dispatch square, made at its first event. */
#include "analysis/ovniemu/emu_dispatch.h"

#include <stdlib.h>

#include "analysis/ovniemu/emu.h"

void emu_dispatch_name(emu_dispatch *d, char c, char v, unsigned row)
{
    unsigned x = (unsigned char)c - EMU_DISPATCH_FIRST, y = (unsigned char)v - EMU_DISPATCH_FIRST;
    if (x < EMU_DISPATCH_SPAN && y < EMU_DISPATCH_SPAN && !d->row[x][y] && row < 255)
        d->row[x][y] = (uint8_t)(row + 1);
}

int emu_dispatch_slow(emu *e, const emu_ev *ev, int slot, emu_dispatch_fill fill, const void *table,
                      size_t n)
{
    if (!e->dispatch[slot]) {
        if (!(e->dispatch[slot] = calloc(1, sizeof *e->dispatch[slot]))) {
            e->fault = "out of memory";
            return -1;
        }
        fill(e->dispatch[slot], table, n);
    }
    int row = emu_dispatch_row(e->dispatch[slot], ev->c, ev->v);
    if (row < 0)
        e->fault = "unknown event of the model";
    return row;
}
