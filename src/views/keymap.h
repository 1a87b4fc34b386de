/* keymap.h — an open-addressing hash map from a key of four 64-bit words
 * to a 64-bit value.  The analyses use it for keys such as (location,
 * schema, field) or (communicator, source, destination, tag), so that
 * lookups are exact (no hashing of keys into one word that could collide). */
#ifndef PW_VIEWS_KEYMAP_H
#define PW_VIEWS_KEYMAP_H
#include <stddef.h>
#include <stdint.h>

typedef struct pw_key {
    uint64_t w[4];
} pw_key;

typedef struct pw_keymap_slot {
    pw_key key;
    uint64_t value;
    int used;
} pw_keymap_slot;

typedef struct pw_keymap {
    pw_keymap_slot *slots;
    size_t cap; /* a power of two, or 0 before the first insert */
    size_t n;
} pw_keymap;

void pw_keymap_free(pw_keymap *m);
/* The value stored under k, or NULL when k is absent. */
uint64_t *pw_keymap_find(const pw_keymap *m, const pw_key *k);
/* The value under k, inserted as `initial` when absent (*added set to 1);
 * NULL when memory runs out. */
uint64_t *pw_keymap_get(pw_keymap *m, const pw_key *k, uint64_t initial, int *added);
/* Removes k when present. */
void pw_keymap_remove(pw_keymap *m, const pw_key *k);
/* Removes k and gives its value: 0 when k is absent (*value untouched). */
int pw_keymap_take(pw_keymap *m, const pw_key *k, uint64_t *value);
#endif
