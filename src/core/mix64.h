/* mix64.h — splitmix64's finaliser: every input bit moves every output
 * bit, so the low bits of a key that differs only in its high bits still
 * spread over a power-of-two table, and a few words hash into one id. */
#ifndef PW_CORE_MIX64_H
#define PW_CORE_MIX64_H
#include <stdint.h>

static inline uint64_t pw_mix64(uint64_t h)
{
    h = (h ^ h >> 30) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ h >> 27) * 0x94D049BB133111EBull;
    return h ^ h >> 31;
}
#endif
