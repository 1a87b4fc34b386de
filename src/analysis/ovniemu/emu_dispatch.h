/* emu_dispatch.h — which row of a model's event table (emu_rules.h,
 * emu_pairs.h) an event's category and value name, by one lookup in a
 * small square instead of a walk down the table per event. */
#ifndef PW_EMU_DISPATCH_H
#define PW_EMU_DISPATCH_H
#include <stddef.h>
#include <stdint.h>

/* Printable ASCII: the categories and values of the MCVs. */
#define EMU_DISPATCH_FIRST 0x20
#define EMU_DISPATCH_SPAN 96

typedef struct emu_dispatch {
    uint8_t row[EMU_DISPATCH_SPAN][EMU_DISPATCH_SPAN]; /* row + 1; 0: none */
} emu_dispatch;

/* Names row `row` by (c, v), unless an earlier row has it (the first row
 * of a table wins, as a walk would find it). */
void emu_dispatch_name(emu_dispatch *d, char c, char v, unsigned row);
/* Fills a square from a model's table of n rows. */
typedef void (*emu_dispatch_fill)(emu_dispatch *d, const void *table, size_t n);

struct emu;
struct emu_ev;
/* emu_dispatch_event (emu.h) when the model's square is not made yet or
 * names no row for the event: makes the square, or sets e->fault. */
int emu_dispatch_slow(struct emu *e, const struct emu_ev *ev, int slot, emu_dispatch_fill fill,
                      const void *table, size_t n);

/* The row (c, v) names, or -1. */
static inline int emu_dispatch_row(const emu_dispatch *d, char c, char v)
{
    unsigned x = (unsigned char)c - EMU_DISPATCH_FIRST, y = (unsigned char)v - EMU_DISPATCH_FIRST;
    if (x >= EMU_DISPATCH_SPAN || y >= EMU_DISPATCH_SPAN)
        return -1;
    return (int)d->row[x][y] - 1;
}
#endif
