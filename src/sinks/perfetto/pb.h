/* pb.h — the protobuf wire format, as much as the Perfetto writer needs:
 * varints, tags, fixed64 and length-delimited fields, into a growable
 * buffer reused from packet to packet (no allocation in steady state). */
#ifndef PW_SINKS_PERFETTO_PB_H
#define PW_SINKS_PERFETTO_PB_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct pb_buf {
    uint8_t *p;
    size_t n, cap;
    int failed; /* memory ran out: the content is incomplete */
} pb_buf;

enum { PB_VARINT = 0, PB_FIXED64 = 1, PB_LEN = 2 };

/* The most an event encoded in place in the output buffer takes (the
 * writers' fast paths: a packet under 128 bytes, so that its lengths are
 * one byte each), reserved and checked before the first byte. */
enum { PB_INPLACE_EVENT_MAX = 96 };

static inline int pb_room(pb_buf *b, size_t need)
{
    if (b->cap - b->n >= need)
        return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->n < need)
        cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
        b->failed = 1;
        return 0;
    }
    b->p = p;
    b->cap = cap;
    return 1;
}

static inline void pb_varint(pb_buf *b, uint64_t v)
{
    if (!pb_room(b, 10))
        return;
    while (v >= 0x80) {
        b->p[b->n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->p[b->n++] = (uint8_t)v;
}

static inline void pb_tag(pb_buf *b, uint32_t field, int wire) { pb_varint(b, (uint64_t)field << 3 | (uint64_t)wire); }

static inline void pb_uint(pb_buf *b, uint32_t field, uint64_t v)
{
    pb_tag(b, field, PB_VARINT);
    pb_varint(b, v);
}

static inline void pb_fixed64(pb_buf *b, uint32_t field, uint64_t v)
{
    pb_tag(b, field, PB_FIXED64);
    if (!pb_room(b, 8))
        return;
    for (int i = 0; i < 8; i++)
        b->p[b->n++] = (uint8_t)(v >> (8 * i));
}

static inline void pb_double(pb_buf *b, uint32_t field, double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    pb_fixed64(b, field, v);
}

static inline void pb_bytes(pb_buf *b, uint32_t field, const void *p, size_t n)
{
    pb_tag(b, field, PB_LEN);
    pb_varint(b, n);
    if (n && pb_room(b, n)) {
        memcpy(b->p + b->n, p, n);
        b->n += n;
    }
}

/* A nested message: its bytes were built in `inner`, which is emptied. */
static inline void pb_message(pb_buf *b, uint32_t field, pb_buf *inner)
{
    pb_bytes(b, field, inner->p, inner->n);
    b->failed |= inner->failed;
    inner->n = 0;
}

/* v as a varint at p (up to 10 bytes); returns how many bytes it wrote.
 * For encoders that write in place, without a pb_buf. */
static inline size_t pb_put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* The longest tag and length that frame a field: pb_frame_head. */
enum { PB_FRAME_HEAD = 16 };

/* Writes to head the tag and length of a length-delimited field `field`
 * of n bytes (the bytes follow it); returns how many bytes it wrote. */
static inline size_t pb_frame_head(uint8_t *head, uint32_t field, uint64_t n)
{
    size_t k = pb_put_varint(head, (uint64_t)field << 3 | PB_LEN);
    return k + pb_put_varint(head + k, n);
}

static inline void pb_free(pb_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}
#endif
