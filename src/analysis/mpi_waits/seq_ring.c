/* seq_ring.c — the FIFO of seq_ring.h. */
#include "analysis/mpi_waits/seq_ring.h"

#include <stdlib.h>
#include <string.h>

/* Room for n items from base on: a ring twice as large, items moved to
 * their places in it. */
static int reserve(mw_seq_ring *r, uint64_t n, size_t size)
{
    if (n <= r->cap)
        return 1;
    uint64_t cap = r->cap ? r->cap : 8;
    while (cap < n)
        cap *= 2;
    unsigned char *items = malloc(cap * size);
    if (!items)
        return 0;
    for (uint64_t i = 0; i < r->n; i++)
        memcpy(items + ((r->base + i) & (cap - 1)) * size, r->items + ((r->base + i) & (r->cap - 1)) * size, size);
    free(r->items);
    r->items = items;
    r->cap = cap;
    return 1;
}

void *mw_seq_ring_make(mw_seq_ring *r, uint64_t seq, size_t size)
{
    if (seq < r->base)
        return NULL;
    if (seq - r->base >= r->n) {
        uint64_t n = seq - r->base + 1;
        if (!reserve(r, n, size))
            return NULL;
        for (uint64_t i = r->n; i < n; i++)
            memset(r->items + ((r->base + i) & (r->cap - 1)) * size, 0, size);
        r->n = n;
    }
    return r->items + (seq & (r->cap - 1)) * size;
}

void mw_seq_ring_free(mw_seq_ring *r)
{
    free(r->items);
    memset(r, 0, sizeof *r);
}
