/* xorshift.h — the deterministic generator of the randomized tests, so a
 * failure reproduces run after run. */
#ifndef PW_TEST_XORSHIFT_H
#define PW_TEST_XORSHIFT_H
#include <stdint.h>

/* The next value of the xorshift64 sequence in *state (never 0). */
static inline uint64_t xorshift_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}
#endif
