/* ross_idmap.c — the open-addressing map of ross_idmap.h. */
#include <stdlib.h>

#include "formats/ross/ross_idmap.h"

static size_t slot_of(const ross_idmap *m, int32_t parent, uint64_t id)
{
    uint64_t h = (id ^ ((uint64_t)(uint32_t)parent << 40)) * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 20) & m->mask;
}

static int table_alloc(ross_idmap *m, size_t slots)
{
    m->slots = malloc(slots * sizeof *m->slots);
    if (!m->slots)
        return -1;
    for (size_t i = 0; i < slots; i++)
        m->slots[i].value = -1;
    m->mask = slots - 1;
    m->used = 0;
    return 0;
}

int ross_idmap_init(ross_idmap *m) { return table_alloc(m, 256); }

void ross_idmap_free(ross_idmap *m)
{
    free(m->slots);
    m->slots = NULL;
}

int32_t ross_idmap_get(const ross_idmap *m, int32_t parent, uint64_t id)
{
    for (size_t i = slot_of(m, parent, id);; i = (i + 1) & m->mask) {
        const ross_idmap_slot *s = &m->slots[i];
        if (s->value < 0)
            return -1;
        if (s->id == id && s->parent == parent)
            return s->value;
    }
}

/* Doubles the table when it is half full. */
static int grow(ross_idmap *m)
{
    ross_idmap old = *m;
    if (table_alloc(m, (old.mask + 1) * 2) < 0) {
        *m = old;
        return -1;
    }
    for (size_t i = 0; i <= old.mask; i++)
        if (old.slots[i].value >= 0)
            ross_idmap_put(m, old.slots[i].parent, old.slots[i].id, old.slots[i].value);
    free(old.slots);
    return 0;
}

int ross_idmap_put(ross_idmap *m, int32_t parent, uint64_t id, int32_t value)
{
    if ((m->used + 1) * 2 > m->mask + 1 && grow(m) < 0)
        return -1;
    size_t i = slot_of(m, parent, id);
    while (m->slots[i].value >= 0 && !(m->slots[i].id == id && m->slots[i].parent == parent))
        i = (i + 1) & m->mask;
    if (m->slots[i].value < 0)
        m->used++;
    m->slots[i] = (ross_idmap_slot){id, parent, value};
    return 0;
}

int ross_idcache_init(ross_idcache *c, size_t slots)
{
    c->slots = malloc(slots * sizeof *c->slots);
    if (!c->slots)
        return -1;
    c->mask = slots - 1;
    for (size_t i = 0; i < slots; i++)
        c->slots[i].value = -1;
    return 0;
}

void ross_idcache_free(ross_idcache *c)
{
    free(c->slots);
    c->slots = NULL;
}
