/* pair_counts.c — the counter map of pair_counts.h. */
#include <stdlib.h>

#include "core/pair_counts.h"

static size_t slot_of(uint64_t key, size_t mask) { return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & mask; }

static int grow(pw_pair_counts *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    pw_pair_count *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].used)
            continue;
        size_t j = slot_of(m->slots[i].key, cap - 1);
        while (slots[j].used)
            j = (j + 1) & (cap - 1);
        slots[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return 0;
}

void pw_pair_counts_add(pw_pair_counts *m, uint64_t key, uint64_t msgs, uint64_t bytes)
{
    if ((m->n + 1) * 2 > m->cap && grow(m) != 0) {
        m->failed = 1;
        return;
    }
    size_t i = slot_of(key, m->cap - 1);
    while (m->slots[i].used && m->slots[i].key != key)
        i = (i + 1) & (m->cap - 1);
    pw_pair_count *s = &m->slots[i];
    if (!s->used) {
        s->used = 1;
        s->key = key;
        m->n++;
    }
    s->msgs += msgs;
    s->bytes += bytes;
}

void pw_pair_counts_free(pw_pair_counts *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = m->n = 0;
}

static int by_key(const void *a, const void *b)
{
    const pw_pair_count *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

pw_pair_count *pw_pair_counts_sorted(const pw_pair_counts *m)
{
    if (!m->n)
        return NULL;
    pw_pair_count *out = malloc(m->n * sizeof *out);
    if (!out)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].used)
            out[k++] = m->slots[i];
    qsort(out, k, sizeof *out, by_key);
    return out;
}
