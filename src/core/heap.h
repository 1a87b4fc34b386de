/* heap.h — a binary min-heap of fixed-size items the caller defines, for
 * things that wait until a stream reaches their time (a span's end, a
 * complete message held back).  Items come and go in any number, so the
 * loser tree of model/tournament.h (a fixed set of sorted sequences, one
 * leaf each) does not fit them.
 *
 * The functions are static inline and always inlined, taking the item's
 * size and its order (a plain function) as arguments: each caller passes
 * constants, so its copy of push and pop compares through a direct,
 * inlined call and moves items with fixed-size copies — as fast as a heap
 * written for that type, with no macro.  Ties leave the heap in the order
 * the sift steps give them; a caller that wants a stable order puts a
 * tie-breaker (a sequence number) in its order. */
#ifndef PW_CORE_HEAP_H
#define PW_CORE_HEAP_H
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/compiler.h"
#include "core/grow.h"

typedef struct pw_heap {
    void *items; /* n items, the first one first */
    size_t n, cap;
} pw_heap;

/* Whether item a comes before item b. */
typedef int (*pw_heap_before)(const void *a, const void *b);

static inline void *pw_heap_at(const pw_heap *h, size_t i, size_t size) { return (char *)h->items + i * size; }

/* The item that comes first; only when h->n > 0. */
static inline const void *pw_heap_first(const pw_heap *h) { return h->items; }

/* Adds a copy of item (which must not lie in the heap); 0 when memory
 * runs out, the heap then unchanged. */
static PW_HOT_INLINE int pw_heap_push(pw_heap *h, const void *item, size_t size, pw_heap_before before)
{
    if (!pw_grow(&h->items, h->n, &h->cap, size))
        return 0;
    size_t i = h->n++;
    while (i && before(item, pw_heap_at(h, (i - 1) / 2, size))) {
        memcpy(pw_heap_at(h, i, size), pw_heap_at(h, (i - 1) / 2, size), size);
        i = (i - 1) / 2;
    }
    memcpy(pw_heap_at(h, i, size), item, size);
    return 1;
}

/* Moves the first item to *top and takes it off; only when h->n > 0.
 * The last item sifts down from the root; it stays at its old place
 * (index n after the count drops) until it lands, as the sift writes
 * only places before it. */
static PW_HOT_INLINE void pw_heap_pop(pw_heap *h, void *top, size_t size, pw_heap_before before)
{
    memcpy(top, h->items, size);
    size_t n = --h->n, i = 0;
    const void *last = pw_heap_at(h, n, size);
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(pw_heap_at(h, c + 1, size), pw_heap_at(h, c, size)))
            c++;
        if (!before(pw_heap_at(h, c, size), last))
            break;
        memcpy(pw_heap_at(h, i, size), pw_heap_at(h, c, size), size);
        i = c;
    }
    if (n)
        memcpy(pw_heap_at(h, i, size), last, size);
}

static inline void pw_heap_free(pw_heap *h)
{
    free(h->items);
    h->items = NULL;
    h->n = h->cap = 0;
}
#endif
