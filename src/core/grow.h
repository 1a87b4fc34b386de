/* grow.h — room for one more item in a growing array, kept as (pointer,
 * count, capacity): the capacity doubles, so appends cost O(1) amortised. */
#ifndef PW_CORE_GROW_H
#define PW_CORE_GROW_H
#include <stddef.h>
#include <stdint.h>

/* Makes *items hold at least n + 1 items of item_size bytes.  Returns 0
 * when memory runs out; the array is then unchanged. */
int pw_grow(void **items, size_t n, size_t *cap, size_t item_size);

/* Grows a zero-filled array *p of *cap elements of `size` bytes so that
 * index `need` fits; 0 when memory runs out. */
int pw_grow_zeroed(void **p, uint32_t *cap, uint32_t need, size_t size);
#endif
