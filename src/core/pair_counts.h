/* pair_counts.h — counters (messages, bytes) under a 64-bit key, such as
 * (source rank, destination rank) for a communication matrix.  Open
 * addressing; memory grows with the distinct keys, not with the calls. */
#ifndef PW_CORE_PAIR_COUNTS_H
#define PW_CORE_PAIR_COUNTS_H
#include <stddef.h>
#include <stdint.h>

typedef struct pw_pair_count {
    uint64_t key;
    uint64_t msgs, bytes;
    int used;
} pw_pair_count;

typedef struct pw_pair_counts {
    pw_pair_count *slots;
    size_t cap, n;      /* cap is a power of two or 0 */
    int failed;         /* memory ran out: some adds were lost */
} pw_pair_counts;

static inline uint64_t pw_pair_key(uint32_t a, uint32_t b) { return (uint64_t)a << 32 | b; }
void pw_pair_counts_add(pw_pair_counts *m, uint64_t key, uint64_t msgs, uint64_t bytes);
void pw_pair_counts_free(pw_pair_counts *m);
/* The used entries sorted by key, in a new array of m->n (NULL when out
 * of memory or empty). */
pw_pair_count *pw_pair_counts_sorted(const pw_pair_counts *m);
#endif
