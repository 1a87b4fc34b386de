/* bytes.h — fixed-width integer and float loads from unaligned bytes, in
 * either byte order.  Callers must have checked that the bytes exist (see
 * window.h); these helpers only decode. */
#ifndef PW_CORE_BYTES_H
#define PW_CORE_BYTES_H
#include <stdint.h>
#include <string.h>

static inline uint16_t pw_le16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t pw_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t pw_le64(const uint8_t *p)
{
    return (uint64_t)pw_le32(p) | (uint64_t)pw_le32(p + 4) << 32;
}
static inline uint16_t pw_be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static inline uint32_t pw_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}
static inline uint64_t pw_be64(const uint8_t *p)
{
    return (uint64_t)pw_be32(p) << 32 | (uint64_t)pw_be32(p + 4);
}

/* Loads in a byte order chosen at run time (big != 0: big-endian). */
static inline uint16_t pw_load16(const uint8_t *p, int big) { return big ? pw_be16(p) : pw_le16(p); }
static inline uint32_t pw_load32(const uint8_t *p, int big) { return big ? pw_be32(p) : pw_le32(p); }
static inline uint64_t pw_load64(const uint8_t *p, int big) { return big ? pw_be64(p) : pw_le64(p); }

static inline double pw_f64_from_bits(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}
static inline float pw_f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline double pw_lef64(const uint8_t *p) { return pw_f64_from_bits(pw_le64(p)); }
static inline double pw_bef64(const uint8_t *p) { return pw_f64_from_bits(pw_be64(p)); }
static inline float pw_lef32(const uint8_t *p) { return pw_f32_from_bits(pw_le32(p)); }
#endif
