/* grow.c — doubling growth of arrays. */
#include "core/grow.h"

#include <stdint.h>
#include <stdlib.h>

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
