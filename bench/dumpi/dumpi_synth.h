/* dumpi_synth.h — a small writer of DUMPI `.bin` files in the layout
 * libdumpi 13 writes (dumpi-facts.md §2-5), for synthetic traces: the
 * benchmark generator and the reader's tests (16-bit second wraps,
 * damaged files).  Header-only so that both can include it. */
#ifndef PW_DUMPI_SYNTH_H
#define PW_DUMPI_SYNTH_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define SYNTH_BUF (1u << 20)

typedef struct synth {
    FILE *f;
    uint64_t off;            /* bytes written so far */
    uint32_t calls[291];     /* footer counts; 290 = total */
    uint8_t buf[SYNTH_BUF];
    size_t len;
    int failed;
} synth;

static inline void synth_flush(synth *s)
{
    if (s->len && fwrite(s->buf, 1, s->len, s->f) != s->len)
        s->failed = 1;
    s->len = 0;
}

static inline void synth_bytes(synth *s, const void *p, size_t n)
{
    if (s->len + n > SYNTH_BUF)
        synth_flush(s);
    if (n > SYNTH_BUF) {
        if (fwrite(p, 1, n, s->f) != n)
            s->failed = 1;
    } else {
        memcpy(s->buf + s->len, p, n);
        s->len += n;
    }
    s->off += n;
}

static inline void synth_u8(synth *s, uint8_t v) { synth_bytes(s, &v, 1); }
static inline void synth_u16(synth *s, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    synth_bytes(s, b, 2);
}
static inline void synth_u32(synth *s, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    synth_bytes(s, b, 4);
}
static inline void synth_u64(synth *s, uint64_t v)
{
    synth_u32(s, (uint32_t)(v >> 32));
    synth_u32(s, (uint32_t)v);
}
static inline void synth_str16(synth *s, const char *str)
{
    synth_u16(s, (uint16_t)strlen(str));
    synth_bytes(s, str, strlen(str));
}

/* Magic and the stream's two time biases (seconds). */
static inline int synth_begin(synth *s, const char *path, uint32_t cpu_bias, uint32_t wall_bias)
{
    memset(s->calls, 0, sizeof s->calls);
    s->off = 0;
    s->len = 0;
    s->failed = 0;
    s->f = fopen(path, "wb");
    if (!s->f)
        return -1;
    static const uint8_t magic[8] = {0xff, 0xaa, 0xdd, 'D', 'U', 'M', 'P', 'I'};
    synth_bytes(s, magic, 8);
    synth_u32(s, cpu_bias);
    synth_u32(s, wall_bias);
    return 0;
}

/* One record's prefix with thread id and both time blocks (mask 0x4f,
 * or 0x4c without statuses); times are (sec, nsec) after the bias. */
static inline void synth_call(synth *s, uint16_t label, int statuses, uint16_t thread, uint16_t sec0,
                              uint32_t ns0, uint16_t sec1, uint32_t ns1)
{
    synth_u16(s, label);
    synth_u8(s, statuses ? 0x4f : 0x4c);
    synth_u16(s, thread);
    for (int clock = 0; clock < 2; clock++) { /* cpu, then wall: the same values */
        synth_u16(s, sec0);
        synth_u32(s, ns0);
        synth_u16(s, sec1);
        synth_u32(s, ns1);
    }
    if (label < 290) {
        s->calls[label]++;
        s->calls[290]++;
    }
}

/* End of stream, header, footer, keyval, perf labels, datatype sizes
 * (Open MPI's 28 built-ins), function addresses and the 64-byte index. */
static inline int synth_finish(synth *s, uint64_t starttime)
{
    static const uint32_t sizes[28] = {0, 0, 1, 1, 1, 1, 4, 2, 2, 4, 4, 8, 8, 4,
                                       8, 16, 0, 8, 8, 1, 0, 0, 8, 12, 12, 6, 8, 20};
    synth_u16(s, 293);
    uint64_t header = s->off;
    synth_u8(s, 13);
    synth_u8(s, 0);
    synth_u8(s, 0);
    synth_u64(s, starttime);
    synth_str16(s, "synth-host");
    synth_str16(s, "<none>");
    synth_u32(s, 0);
    synth_u32(s, 0);
    uint64_t footer = s->off;
    synth_u64(s, 0xF007FEE7u);
    for (int i = 0; i < 291; i++)
        synth_u32(s, s->calls[i]);
    for (int i = 0; i < 291; i++)
        synth_u32(s, 0);
    synth_u32(s, 0); /* keyval count */
    uint64_t perf = s->off;
    synth_u32(s, 0);
    uint64_t types = s->off;
    synth_u32(s, 28);
    for (int i = 0; i < 28; i++)
        synth_u32(s, sizes[i]);
    uint64_t addr = s->off;
    synth_u32(s, 0);
    synth_u64(s, 0xFFAADD44554D5049ull);
    synth_u64(s, types);
    synth_u64(s, addr);
    synth_u64(s, perf);
    synth_u64(s, header);
    synth_u64(s, 8);
    synth_u64(s, footer);
    synth_u64(s, 0);
    synth_flush(s);
    int rc = fclose(s->f) != 0 || s->failed ? -1 : 0;
    s->f = NULL;
    return rc;
}

/* A .meta file for ranks written as "<dir>/<prefix>-%04d.bin". */
static inline int synth_meta(const char *dir, const char *prefix, int ranks, uint64_t starttime)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.meta", dir, prefix);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "hostname=synth-host\nnumprocs=%d\nusername=<none>\nstartime=%llu\nfileprefix=%s\n"
               "version=13\nsubversion=0\nsubsubversion=0\n",
            ranks, (unsigned long long)starttime, prefix);
    return fclose(f);
}
#endif
