/* part.h — the words of a stats part (pw_stats_part): a format's partial
 * state as 64-bit words in the host's byte order (the processes of one
 * run share an architecture), read back with bounds checks. */
#ifndef PW_MODEL_PART_H
#define PW_MODEL_PART_H
#include <stddef.h>
#include <stdint.h>

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
#endif
