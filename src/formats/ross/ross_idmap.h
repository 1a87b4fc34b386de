/* ross_idmap.h — (parent location, id) -> location index, for finding the
 * PE, KP and LP locations that records name.  Open addressing; grows by
 * doubling, so lookups stay O(1) with millions of LPs. */
#ifndef PW_ROSS_IDMAP_H
#define PW_ROSS_IDMAP_H
#include <stddef.h>
#include <stdint.h>

typedef struct ross_idmap_slot {
    uint64_t id;
    int32_t parent;
    int32_t value;   /* -1: empty slot */
} ross_idmap_slot;

typedef struct ross_idmap {
    ross_idmap_slot *slots;
    size_t mask, used;
} ross_idmap;

/* 0 on success, -1 when memory runs out. */
int ross_idmap_init(ross_idmap *m);
void ross_idmap_free(ross_idmap *m);
/* The value stored for (parent, id), or -1. */
int32_t ross_idmap_get(const ross_idmap *m, int32_t parent, uint64_t id);
/* Stores value for (parent, id); -1 when memory runs out. */
int ross_idmap_put(ross_idmap *m, int32_t parent, uint64_t id, int32_t value);

/* A small direct-mapped cache in front of a map, private to one reader
 * (the map itself is shared by threads and never written while read): the
 * same few thousand PE/KP/LP ids recur in every sampling point. */
typedef struct ross_idcache {
    ross_idmap_slot *slots;
    size_t mask;
} ross_idcache;

/* A cache of `slots` entries (a power of two); -1 when memory runs out. */
int ross_idcache_init(ross_idcache *c, size_t slots);
void ross_idcache_free(ross_idcache *c);

static inline int32_t ross_idcache_get(ross_idcache *c, const ross_idmap *m, int32_t parent,
                                       uint64_t id)
{
    ross_idmap_slot *s = &c->slots[(id * 31 + (uint32_t)parent * 17) & c->mask];
    if (s->value >= 0 && s->id == id && s->parent == parent)
        return s->value;
    int32_t v = ross_idmap_get(m, parent, id);
    if (v >= 0)
        *s = (ross_idmap_slot){id, parent, v};
    return v;
}

#endif
