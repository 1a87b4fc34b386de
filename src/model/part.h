/* part.h — the words of a stats part (pw_stats_part): a format's partial
 * state as 64-bit words in the host's byte order (the processes of one
 * run share an architecture), read back with bounds checks. */
#ifndef PW_MODEL_PART_H
#define PW_MODEL_PART_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct pw_part_reader {
    const uint64_t *words;
    size_t n, pos;
    int bad; /* a read went past the end */
} pw_part_reader;

static inline pw_part_reader pw_part_reader_of(const void *part, size_t size)
{
    return (pw_part_reader){(const uint64_t *)part, size / sizeof(uint64_t), 0, size % sizeof(uint64_t) != 0};
}

/* The next word, or 0 (and bad set) past the end. */
static inline uint64_t pw_part_next(pw_part_reader *r)
{
    if (r->pos >= r->n) {
        r->bad = 1;
        return 0;
    }
    return r->words[r->pos++];
}

/* `bytes` (a multiple of 8) into dst, as many words; zeros (and bad set)
 * past the end.  Formats pass their accumulators' plain structs whole. */
static inline void pw_part_take(pw_part_reader *r, void *dst, size_t bytes)
{
    size_t words = bytes / sizeof(uint64_t);
    if (r->n - r->pos < words) {
        r->bad = 1;
        r->pos = r->n;
        memset(dst, 0, bytes);
        return;
    }
    memcpy(dst, r->words + r->pos, bytes);
    r->pos += words;
}

/* A part being written: words appended to a growing buffer. */
typedef struct pw_part_writer {
    uint64_t *words;
    size_t n, cap;
    int nomem; /* an append failed: the part is unusable */
} pw_part_writer;

/* Appends `bytes` (a multiple of 8) from src. */
static inline void pw_part_put(pw_part_writer *w, const void *src, size_t bytes)
{
    size_t words = bytes / sizeof(uint64_t);
    if (w->nomem)
        return;
    if (w->cap - w->n < words) {
        size_t cap = w->cap ? w->cap : 64;
        while (cap - w->n < words)
            cap *= 2;
        uint64_t *p = realloc(w->words, cap * sizeof *p);
        if (!p) {
            w->nomem = 1;
            return;
        }
        w->words = p;
        w->cap = cap;
    }
    memcpy(w->words + w->n, src, bytes);
    w->n += words;
}

static inline void pw_part_put_word(pw_part_writer *w, uint64_t v) { pw_part_put(w, &v, sizeof v); }
#endif
