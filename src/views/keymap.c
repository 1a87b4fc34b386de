/* keymap.c — linear probing with backward-shift deletion, so the table
 * never fills with tombstones while requests come and go. */
#include "views/keymap.h"

#include <stdlib.h>
#include <string.h>

static uint64_t key_hash(const pw_key *k)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 4; i++) {
        h ^= k->w[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdull;
    }
    return h ^ (h >> 33);
}

static int key_eq(const pw_key *a, const pw_key *b) { return !memcmp(a, b, sizeof *a); }

void pw_keymap_free(pw_keymap *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

/* The slot holding k, or the empty slot ending its probe run (where k
 * would go): one probe serves a lookup and the insert or removal after it.
 * m->cap must be nonzero. */
static size_t slot_of(const pw_keymap *m, const pw_key *k)
{
    size_t i = key_hash(k) & (m->cap - 1);
    while (m->slots[i].used && !key_eq(&m->slots[i].key, k))
        i = (i + 1) & (m->cap - 1);
    return i;
}

uint64_t *pw_keymap_find(const pw_keymap *m, const pw_key *k)
{
    if (!m->cap)
        return NULL;
    size_t i = slot_of(m, k);
    return m->slots[i].used ? &m->slots[i].value : NULL;
}

/* Doubles the table (load stays under 1/2). */
static int keymap_grow(pw_keymap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    pw_keymap_slot *s = calloc(cap, sizeof *s);
    if (!s)
        return 0;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].used)
            continue;
        size_t j = key_hash(&m->slots[i].key) & (cap - 1);
        while (s[j].used)
            j = (j + 1) & (cap - 1);
        s[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = s;
    m->cap = cap;
    return 1;
}

uint64_t *pw_keymap_get(pw_keymap *m, const pw_key *k, uint64_t initial, int *added)
{
    *added = 0;
    size_t i = m->cap ? slot_of(m, k) : 0;
    if (m->cap && m->slots[i].used)
        return &m->slots[i].value;
    if ((m->n + 1) * 2 > m->cap) {
        if (!keymap_grow(m))
            return NULL;
        i = slot_of(m, k);
    }
    m->slots[i] = (pw_keymap_slot){*k, initial, 1};
    m->n++;
    *added = 1;
    return &m->slots[i].value;
}

/* Empties slot i, shifting later members of its probe run back into the
 * hole. */
static void remove_at(pw_keymap *m, size_t i)
{
    size_t mask = m->cap - 1;
    m->slots[i].used = 0;
    m->n--;
    for (size_t j = (i + 1) & mask; m->slots[j].used; j = (j + 1) & mask) {
        size_t home = key_hash(&m->slots[j].key) & mask;
        int movable = i <= j ? (home <= i || home > j) : (home <= i && home > j);
        if (movable) {
            m->slots[i] = m->slots[j];
            m->slots[j].used = 0;
            i = j;
        }
    }
}

void pw_keymap_remove(pw_keymap *m, const pw_key *k)
{
    uint64_t v;
    (void)pw_keymap_take(m, k, &v);
}

int pw_keymap_take(pw_keymap *m, const pw_key *k, uint64_t *value)
{
    if (!m->cap)
        return 0;
    size_t i = slot_of(m, k);
    if (!m->slots[i].used)
        return 0;
    *value = m->slots[i].value;
    remove_at(m, i);
    return 1;
}
