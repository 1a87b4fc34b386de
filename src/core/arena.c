/* arena.c — chunked bump allocator. */
#include "core/arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pw_arena_chunk {
    pw_arena_chunk *next;
    size_t size;
    size_t used;
    alignas(max_align_t) unsigned char data[];
};

void pw_arena_init(pw_arena *a, size_t chunk_size)
{
    a->head = a->first = NULL;
    a->chunk_size = chunk_size ? chunk_size : 64 * 1024;
    a->dirty = 0;
}

void pw_arena_free(pw_arena *a)
{
    pw_arena_chunk *c = a->first;
    while (c) {
        pw_arena_chunk *n = c->next;
        free(c);
        c = n;
    }
    a->head = a->first = NULL;
}

void pw_arena_reset_chunks(pw_arena *a)
{
    for (pw_arena_chunk *c = a->first; c; c = c->next)
        c->used = 0;
    a->head = a->first;
    a->dirty = 0;
}

/* Appends a chunk that can hold `size` bytes after the current head. */
static pw_arena_chunk *arena_new_chunk(pw_arena *a, size_t size)
{
    size_t cs = size > a->chunk_size ? size : a->chunk_size;
    pw_arena_chunk *c = malloc(sizeof *c + cs);
    if (!c)
        return NULL;
    c->size = cs;
    c->used = 0;
    if (!a->head) {
        c->next = a->first;
        a->first = c;
    } else {
        c->next = a->head->next;
        a->head->next = c;
    }
    return c;
}

void *pw_arena_alloc(pw_arena *a, size_t size)
{
    const size_t al = alignof(max_align_t);
    size = (size + al - 1) & ~(al - 1);
    if (size == 0)
        size = al;
    pw_arena_chunk *c = a->head;
    /* After a reset, later chunks are empty and can be reused in turn. */
    while (c && c->size - c->used < size) {
        if (c->next && c->next->used == 0 && c->next->size >= size) {
            c = c->next;
            break;
        }
        c = NULL;
    }
    if (!c) {
        c = arena_new_chunk(a, size);
        if (!c)
            return NULL;
    }
    a->head = c;
    a->dirty = 1;
    void *p = c->data + c->used;
    c->used += size;
    return p;
}

char *pw_arena_strndup(pw_arena *a, const char *s, size_t n)
{
    char *d = pw_arena_alloc(a, n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *pw_arena_strdup(pw_arena *a, const char *s)
{
    return pw_arena_strndup(a, s, strlen(s));
}
