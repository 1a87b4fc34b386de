/* ovni.h — the ovni reader's shared state.
 *
 * Layouts (ovni-facts.md §1): v1 `proc.<pid>/metadata.json` + `thread.<tid>`
 * (lib 1.0.0) or `thread.<tid>.obs` (1.1-1.4); v2 adds `thread.<tid>.json`
 * (1.5-1.10); v3 `thread.<tid>/stream.json` + `stream.obs` (1.11+).  The
 * event encoding is the same in all of them (ovni_stream.c). */
#ifndef PW_OVNI_H
#define PW_OVNI_H
#include <stdint.h>

#include "formats/ovni/ovni_events.h"
#include "model/dataset.h"

#define OVNI_HEADER_SIZE 8
#define OVNI_EVENT_HEADER 12
#define OVNI_FLAG_JUMBO 0x1
/* libovni refuses events of 2 MiB or more (ovni-facts.md §2). */
#define OVNI_MAX_EVENT ((size_t)2 << 20)

/* MCV -> schema index, open addressing over 24-bit keys. */
typedef struct ovni_schema_map {
    uint32_t *keys;   /* mcv + 1 (0 = empty slot) */
    int32_t *schema;
    uint32_t mask;
} ovni_schema_map;

typedef struct ovni_dataset {
    int metadata_version;      /* 1, 2 or 3 */
    int old_letters;           /* lib 1.0.0: M and T were other models */
    int32_t unknown_schema;    /* the catch-all for unknown MCVs */
    ovni_schema_map map;
    const ovni_event_def **defs; /* per schema index; NULL for unknown */
} ovni_dataset;

/* Schema of an MCV (the catch-all when unknown). */
int32_t ovni_schema_of(const ovni_dataset *od, uint32_t mcv);
static inline uint32_t ovni_mcv_key(const uint8_t *p)
{
    return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

/* ovni_layout.c: finds streams and metadata, fills locations and props. */
pw_status ovni_layout_open(pw_dataset *ds, pw_error *err);
/* The `ovni` directory under a path the user gave, or NULL (malloc'd). */
char *ovni_find_root(const char *path);
/* 1 when path names a stream file that starts with the ovni magic. */
int ovni_is_stream_file(const char *path);
/* 1 when a file's name is that of a stream (*.obs, thread.<tid>). */
int ovni_looks_like_stream_name(const char *path);

/* ovni_schemas.c: one schema per known event plus the catch-all. */
pw_status ovni_schemas_build(pw_dataset *ds, ovni_dataset *od, pw_error *err);
void ovni_schemas_free(ovni_dataset *od);
void ovni_decode_fields(const ovni_event_def *def, const uint8_t *payload, size_t n, int big,
                        pw_arena *scratch, pw_value *values);

/* ovni_stream.c: the cursor over one stream. */
pw_status ovni_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err);

/* ovni_stats.c */
pw_status ovni_stats(pw_dataset *ds, pw_report *r, pw_error *err);
#endif
