/* gen_ross.c — writes large synthetic ROSS files for benchmarks:
 *   gen_ross DIR PREFIX GVT_MB EVTRACE_MB [PES KPS_PER_PE LPS_PER_KP]
 * DIR/PREFIX-gvt.bin holds flushes of one chunk per rank (PE) with PE, KP
 * and 48-byte LP samples; DIR/PREFIX-evtrace.bin holds full-mode event
 * records with 16-byte payloads.  Layouts as in ross-facts.md; values are
 * plausible counters from a fixed-seed generator. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rng = 2463534242u;
static uint32_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void putf(uint8_t *p, float v) { memcpy(p, &v, 4); }
static void putd(uint8_t *p, double v) { memcpy(p, &v, 8); }

static size_t sample_header(uint8_t *p, int flag, int size, double gvt, double real)
{
    put32(p, (uint32_t)flag);
    put32(p + 4, (uint32_t)size);
    putd(p + 8, gvt);
    putd(p + 16, real);
    return 24;
}

/* One sampling point of one PE: PE, its KPs, their LPs. */
static size_t sample_point(uint8_t *p, uint32_t pe, int kps, int lps, double gvt, uint32_t n)
{
    size_t o = sample_header(p, 0, 104, gvt, 1000.0 + gvt / 1000);
    put32(p + o, pe);
    for (int i = 1; i < 13; i++)
        put32(p + o + 4 * i, i == 10 ? n : next_rand() % 1000);
    for (int i = 0; i < 13; i++)
        putf(p + o + 52 + 4 * i, (float)(next_rand() % 1000) / 1e5f);
    o += 104;
    for (int k = 0; k < kps; k++) {
        o += sample_header(p + o, 1, 44, gvt, 1000.0 + gvt / 1000);
        put32(p + o, pe);
        put32(p + o + 4, (uint32_t)k);
        for (int i = 2; i < 9; i++)
            put32(p + o + 4 * i, next_rand() % 100);
        putf(p + o + 36, (float)(next_rand() % 50));
        putf(p + o + 40, 90.0f);
        o += 44;
        for (int l = 0; l < lps; l++) {
            o += sample_header(p + o, 2, 48, gvt, 1000.0 + gvt / 1000);
            put32(p + o, pe);
            put32(p + o + 4, (uint32_t)k);
            put32(p + o + 8, (pe * (uint32_t)kps + (uint32_t)k) * (uint32_t)lps + (uint32_t)l);
            for (int i = 3; i < 8; i++)
                put32(p + o + 4 * i, next_rand() % 50);
            memset(p + o + 32, 0xab, 8); /* uninitialised in real files */
            putf(p + o + 40, 95.0f);
            memset(p + o + 44, 0xcd, 4);
            o += 48;
        }
    }
    return o;
}

static int write_gvt(const char *path, uint64_t bytes, int pes, int kps, int lps)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 1;
    size_t point = 128 + (size_t)kps * (68 + (size_t)lps * 72);
    int points_per_chunk = 64;
    uint8_t *buf = malloc(point * (size_t)points_per_chunk);
    uint64_t written = 0;
    uint32_t flush = 0;
    while (buf && written < bytes) {
        for (int pe = 0; pe < pes; pe++) { /* one chunk per rank, rank order */
            size_t o = 0;
            for (int i = 0; i < points_per_chunk; i++) {
                uint32_t n = flush * (uint32_t)points_per_chunk + (uint32_t)i;
                o += sample_point(buf + o, (uint32_t)pe, kps, lps, 4.0 * n, n);
            }
            fwrite(buf, 1, o, f);
            written += o;
        }
        flush++;
    }
    free(buf);
    return fclose(f) != 0;
}

static int write_evtrace(const char *path, uint64_t bytes, uint32_t nlps)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 1;
    uint8_t rec[40];
    float now = 0;
    for (uint64_t written = 0; written < bytes; written += sizeof rec) {
        uint32_t src = next_rand() % nlps, dest = next_rand() % 4 ? src : next_rand() % nlps;
        now += 0.001f;
        put32(rec, src);
        put32(rec + 4, dest);
        putf(rec + 8, now);
        putf(rec + 12, now + (float)(next_rand() % 1000) / 100.0f);
        putf(rec + 16, 1000.0f + now / 1000);
        put32(rec + 20, 16);
        put32(rec + 24, 0x4B4D4556u);
        put32(rec + 28, next_rand() % 10);
        uint64_t origin = src;
        memcpy(rec + 32, &origin, 8);
        fwrite(rec, 1, sizeof rec, f);
    }
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: gen_ross DIR PREFIX GVT_MB EVTRACE_MB [PES KPS LPS]\n");
        return 2;
    }
    int pes = argc > 5 ? atoi(argv[5]) : 16, kps = argc > 6 ? atoi(argv[6]) : 16,
        lps = argc > 7 ? atoi(argv[7]) : 4;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-gvt.bin", argv[1], argv[2]);
    if (write_gvt(path, (uint64_t)atoll(argv[3]) << 20, pes, kps, lps))
        return perror(path), 1;
    snprintf(path, sizeof path, "%s/%s-evtrace.bin", argv[1], argv[2]);
    if (write_evtrace(path, (uint64_t)atoll(argv[4]) << 20, (uint32_t)(pes * kps * lps)))
        return perror(path), 1;
    return 0;
}
