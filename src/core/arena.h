/* arena.h — bump allocation for memory that lives as long as its owner
 * (dataset strings and tables) or until a reset (a cursor's per-record
 * scratch).  Chunks are reused after a reset, so steady-state reading does
 * not allocate. */
#ifndef PW_CORE_ARENA_H
#define PW_CORE_ARENA_H
#include <stddef.h>

typedef struct pw_arena_chunk pw_arena_chunk;
typedef struct pw_arena {
    pw_arena_chunk *head;  /* chunk being filled */
    pw_arena_chunk *first; /* all chunks, in allocation order */
    size_t chunk_size;
    int dirty;             /* something was allocated since the last reset */
} pw_arena;

void pw_arena_init(pw_arena *a, size_t chunk_size);
void pw_arena_free(pw_arena *a);
/* Forget everything allocated, keep the chunks for reuse.  Inline, as
 * most records decode without allocating and reset per record. */
void pw_arena_reset_chunks(pw_arena *a);
static inline void pw_arena_reset(pw_arena *a)
{
    if (a->dirty)
        pw_arena_reset_chunks(a);
}
/* size bytes aligned for any type, or NULL when memory runs out. */
void *pw_arena_alloc(pw_arena *a, size_t size);
/* A NUL-terminated copy of s[0..n). */
char *pw_arena_strndup(pw_arena *a, const char *s, size_t n);
char *pw_arena_strdup(pw_arena *a, const char *s);
#endif
