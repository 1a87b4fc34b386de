/* grow.c — doubling growth of arrays. */
#include "core/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int pw_grow(void **items, size_t n, size_t *cap, size_t item_size)
{
    if (n < *cap)
        return 1;
    size_t nc = *cap ? *cap * 2 : 16;
    if (nc < *cap || (item_size && nc > SIZE_MAX / item_size))
        return 0;
    void *grown = realloc(*items, nc * item_size);
    if (!grown)
        return 0;
    *items = grown;
    *cap = nc;
    return 1;
}

int pw_grow_zeroed(void **p, uint32_t *cap, uint32_t need, size_t size)
{
    if (need < *cap)
        return 1;
    uint32_t c = *cap ? *cap : 64;
    while (c <= need)
        c *= 2;
    void *n = realloc(*p, (size_t)c * size);
    if (!n)
        return 0;
    memset((char *)n + (size_t)*cap * size, 0, (size_t)(c - *cap) * size);
    *p = n;
    *cap = c;
    return 1;
}
