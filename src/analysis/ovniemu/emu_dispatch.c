/* emu_dispatch.c — filling a model's dispatch square. */
#include "analysis/ovniemu/emu_dispatch.h"

void emu_dispatch_name(emu_dispatch *d, char c, char v, unsigned row)
{
    unsigned x = (unsigned char)c - EMU_DISPATCH_FIRST, y = (unsigned char)v - EMU_DISPATCH_FIRST;
    if (x < EMU_DISPATCH_SPAN && y < EMU_DISPATCH_SPAN && !d->row[x][y] && row < 255)
        d->row[x][y] = (uint8_t)(row + 1);
}
