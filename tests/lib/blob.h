/* blob.h — whole files in memory for the mutation tests: read a fixture,
 * write a damaged copy.  Include after harness.h (write failures are
 * CHECKs). */
#ifndef PW_TEST_BLOB_H
#define PW_TEST_BLOB_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct blob {
    uint8_t *p;
    size_t n;
} blob;

/* The file's bytes (p == NULL when it cannot be read); free(b.p) after. */
static inline blob blob_read(const char *path)
{
    blob b = {NULL, 0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return b;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    b.p = malloc(n > 0 ? (size_t)n : 1);
    b.n = b.p ? fread(b.p, 1, (size_t)(n > 0 ? n : 0), f) : 0;
    fclose(f);
    return b;
}

/* Writes p[0..n) to path, replacing it. */
static inline void blob_write(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK(n == 0 || fwrite(p, 1, n, f) == n);
    fclose(f);
}
#endif
