/* names.h — interning of strings: each distinct string gets a dense id
 * from 1 in order of first use, so writers can emit a name once and refer
 * to it by number (Perfetto interned names, Paraver values, SQLite string
 * tables), and a dataset finds a property by key without a scan. */
#ifndef PW_CORE_NAMES_H
#define PW_CORE_NAMES_H
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"

typedef struct pw_names {
    pw_arena arena;
    struct pw_name_entry {
        const char *s;
        size_t n;
        uint64_t hash;
    } *items; /* items[id - 1] */
    uint32_t n_items, cap_items;
    uint32_t *slots; /* open addressing: ids, 0 = empty */
    uint32_t mask;
} pw_names;

void pw_names_init(pw_names *nm);
void pw_names_free(pw_names *nm);
/* The id of s[0..n), added when new; 0 when memory runs out. */
uint32_t pw_names_intern(pw_names *nm, const char *s, size_t n);
/* The id of s[0..n), 0 when it was never interned. */
uint32_t pw_names_find(const pw_names *nm, const char *s, size_t n);
static inline const char *pw_names_str(const pw_names *nm, uint32_t id, size_t *n)
{
    if (n)
        *n = nm->items[id - 1].n;
    return nm->items[id - 1].s;
}
#endif
