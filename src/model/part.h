/* part.h — the words of a stats part (pw_stats_part): a format's partial
 * state as 64-bit words in the host's byte order (the processes of one
 * run share an architecture), read back with bounds checks. */
#ifndef PW_MODEL_PART_H
#define PW_MODEL_PART_H
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

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

/* `bytes` (a multiple of 8) into dst, as many words; zeros (and bad set)
 * past the end.  Formats pass their accumulators' plain structs whole. */
static inline void pw_part_take(pw_part_reader *r, void *dst, size_t bytes)
{
    size_t words = bytes / sizeof(uint64_t);
    if (r->n - r->pos < words) {
        r->bad = 1;
        r->pos = r->n;
        memset(dst, 0, bytes);
        return;
    }
    memcpy(dst, r->words + r->pos, bytes);
    r->pos += words;
}

/* A part being written: words appended to a growing buffer. */
typedef struct pw_part_writer {
    uint64_t *words;
    size_t n, cap;
    int nomem; /* an append failed: the part is unusable */
} pw_part_writer;

/* Appends `bytes` (a multiple of 8) from src. */
static inline void pw_part_put(pw_part_writer *w, const void *src, size_t bytes)
{
    size_t words = bytes / sizeof(uint64_t);
    if (w->nomem)
        return;
    if (w->cap - w->n < words) {
        size_t cap = w->cap ? w->cap : 64;
        while (cap - w->n < words)
            cap *= 2;
        uint64_t *p = realloc(w->words, cap * sizeof *p);
        if (!p) {
            w->nomem = 1;
            return;
        }
        w->words = p;
        w->cap = cap;
    }
    memcpy(w->words + w->n, src, bytes);
    w->n += words;
}

static inline void pw_part_put_word(pw_part_writer *w, uint64_t v) { pw_part_put(w, &v, sizeof v); }

/* A string as words: its length with the NUL (0: NULL), then its n bytes
 * and a NUL, padded to a word.  Only n bytes of s are read, so a name
 * table's unterminated slices travel too.  One encoding for every part
 * that carries strings (OTF2's definitions, the emulator's rows). */
static inline void pw_part_put_str(pw_part_writer *w, const char *s, size_t n)
{
    pw_part_put_word(w, s ? (uint64_t)n + 1 : 0);
    for (size_t at = 0; s && at <= n; at += 8) {
        uint64_t word = 0;
        memcpy(&word, s + at, n - at < 8 ? n - at : 8);
        pw_part_put_word(w, word);
    }
}

/* How every part writer ends: when s is PW_OK and no append failed, the
 * words go to *part and *size (the caller frees *part); else they are
 * freed, *part is NULL, and the result is s, or out of memory naming
 * path.  w is empty afterwards either way. */
pw_status pw_part_finish(pw_part_writer *w, pw_status s, const char *path, void **part, size_t *size,
                         pw_error *err);

/* A string put by pw_part_put_str, in place, its length in *n (when n is
 * not NULL): NULL for a NULL string, and NULL with bad set when it runs
 * past the part or lacks its NUL (a damaged part must not be read past). */
static inline const char *pw_part_take_str(pw_part_reader *r, size_t *n)
{
    uint64_t len = pw_part_next(r);
    if (n)
        *n = 0;
    if (r->bad || !len)
        return NULL;
    uint64_t words = (len - 1) / 8 + 1;
    if (words > r->n - r->pos) {
        r->bad = 1;
        return NULL;
    }
    const char *s = (const char *)(r->words + r->pos);
    r->pos += (size_t)words;
    if (s[len - 1]) {
        r->bad = 1;
        return NULL;
    }
    if (n)
        *n = (size_t)(len - 1);
    return s;
}
#endif
