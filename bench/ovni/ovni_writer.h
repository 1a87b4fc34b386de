/* ovni_writer.h — what the bench generators of ovni traces share: the
 * stream directories and the event layout (12-byte header: payload-size
 * code, MCV, u64 clock little-endian; jumbo events with a u32 length). */
#ifndef PW_BENCH_OVNI_WRITER_H
#define PW_BENCH_OVNI_WRITER_H
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* mkdir -p, exiting on failure. */
static void mkdirs(const char *path)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(tmp, 0755);
            *p = '/';
        }
    }
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST) {
        perror(tmp);
        exit(1);
    }
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* An event with n payload bytes (0, 2..16). */
static void put_event(FILE *f, const char *mcv, uint64_t clock, const uint8_t *payload, size_t n)
{
    uint8_t h[12];
    h[0] = (uint8_t)(n ? n - 1 : 0);
    memcpy(h + 1, mcv, 3);
    put_le(h + 4, clock, 8);
    fwrite(h, 1, 12, f);
    fwrite(payload, 1, n, f);
}

/* A jumbo event's header; its n bytes of data follow. */
static void put_jumbo_header(FILE *f, const char *mcv, uint64_t clock, size_t n)
{
    uint8_t h[16];
    h[0] = 0x13;
    memcpy(h + 1, mcv, 3);
    put_le(h + 4, clock, 8);
    put_le(h + 12, n, 4);
    fwrite(h, 1, 16, f);
}

/* fopen, exiting on failure. */
static FILE *open_or_exit(const char *path, const char *mode)
{
    FILE *f = fopen(path, mode);
    if (!f) {
        perror(path);
        exit(1);
    }
    return f;
}
#endif
