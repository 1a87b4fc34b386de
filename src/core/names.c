/* names.c — a string set with FNV-1a hashes and linear probing. */
#include "core/names.h"

#include <stdlib.h>
#include <string.h>

void pw_names_init(pw_names *nm)
{
    memset(nm, 0, sizeof *nm);
    pw_arena_init(&nm->arena, 64 * 1024);
}

void pw_names_free(pw_names *nm)
{
    pw_arena_free(&nm->arena);
    free(nm->items);
    free(nm->slots);
    memset(nm, 0, sizeof *nm);
}

static uint64_t name_hash(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}

/* Rebuilds the slot table at twice the size (load stays under 1/2). */
static int names_grow(pw_names *nm)
{
    uint32_t cap = nm->mask ? (nm->mask + 1) * 2 : 256;
    uint32_t *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return 0;
    for (uint32_t id = 1; id <= nm->n_items; id++) {
        uint32_t i = (uint32_t)nm->items[id - 1].hash & (cap - 1);
        while (slots[i])
            i = (i + 1) & (cap - 1);
        slots[i] = id;
    }
    free(nm->slots);
    nm->slots = slots;
    nm->mask = cap - 1;
    return 1;
}

/* The id of s[0..n) with hash h, 0 when absent. */
static uint32_t names_lookup(const pw_names *nm, const char *s, size_t n, uint64_t h)
{
    if (!nm->mask)
        return 0;
    for (uint32_t i = (uint32_t)h & nm->mask; nm->slots[i]; i = (i + 1) & nm->mask) {
        const struct pw_name_entry *e = &nm->items[nm->slots[i] - 1];
        if (e->hash == h && e->n == n && !memcmp(e->s, s, n))
            return nm->slots[i];
    }
    return 0;
}

uint32_t pw_names_find(const pw_names *nm, const char *s, size_t n)
{
    return names_lookup(nm, s, n, name_hash(s, n));
}

uint32_t pw_names_intern(pw_names *nm, const char *s, size_t n)
{
    uint64_t h = name_hash(s, n);
    uint32_t found = names_lookup(nm, s, n, h);
    if (found)
        return found;
    if ((nm->n_items + 1) * 2 > nm->mask && !names_grow(nm))
        return 0;
    if (nm->n_items == nm->cap_items) {
        uint32_t cap = nm->cap_items ? nm->cap_items * 2 : 128;
        struct pw_name_entry *it = realloc(nm->items, cap * sizeof *it);
        if (!it)
            return 0;
        nm->items = it;
        nm->cap_items = cap;
    }
    char *copy = pw_arena_strndup(&nm->arena, s, n);
    if (!copy)
        return 0;
    nm->items[nm->n_items++] = (struct pw_name_entry){copy, n, h};
    uint32_t id = nm->n_items;
    uint32_t i = (uint32_t)h & nm->mask;
    while (nm->slots[i])
        i = (i + 1) & nm->mask;
    nm->slots[i] = id;
    return id;
}
