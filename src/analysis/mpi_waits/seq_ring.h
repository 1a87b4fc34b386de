/* seq_ring.h — a FIFO of items numbered by sequence, as the replay's
 * exchange points keep them (messages of a channel, collective instances
 * of a communicator): items [base, base + n) live at [seq & (cap - 1)] of
 * a ring whose size is a power of two; the oldest leave from the front. */
#ifndef PW_ANALYSIS_MPI_WAITS_SEQ_RING_H
#define PW_ANALYSIS_MPI_WAITS_SEQ_RING_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct mw_seq_ring {
    unsigned char *items;
    uint64_t base, n, cap;
} mw_seq_ring;

/* Item seq of `size` bytes, made zeroed (with those before it) when new;
 * NULL when seq left already (< base) or memory runs out (seq >= base). */
void *mw_seq_ring_make(mw_seq_ring *r, uint64_t seq, size_t size);
/* mw_seq_ring_make, inline when the item is there (the common case: one
 * side of a message finds the other's) or is the next one and fits (the
 * other common case: the first side of a message; its item zeroed by a
 * memset of the caller's constant size, a few stores). */
static inline void *mw_seq_ring_at(mw_seq_ring *r, uint64_t seq, size_t size)
{
    if (seq >= r->base && seq - r->base < r->n)
        return r->items + (seq & (r->cap - 1)) * size;
    if (seq >= r->base && seq - r->base == r->n && r->n < r->cap) {
        unsigned char *item = r->items + (seq & (r->cap - 1)) * size;
        memset(item, 0, size);
        r->n++;
        return item;
    }
    return mw_seq_ring_make(r, seq, size);
}
/* The oldest item, or NULL when none (inline: once per message). */
static inline void *mw_seq_ring_front(const mw_seq_ring *r, size_t size)
{
    return r->n ? r->items + (r->base & (r->cap - 1)) * size : NULL;
}
static inline void mw_seq_ring_pop(mw_seq_ring *r)
{
    r->base++;
    r->n--;
}
void mw_seq_ring_free(mw_seq_ring *r);
#endif
