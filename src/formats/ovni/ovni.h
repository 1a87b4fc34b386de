/* ovni.h — the ovni reader's shared state.
 *
 * Layouts (ovni-facts.md §1): v1 `proc.<pid>/metadata.json` + `thread.<tid>`
 * (lib 1.0.0) or `thread.<tid>.obs` (1.1-1.4); v2 adds `thread.<tid>.json`
 * (1.5-1.10); v3 `thread.<tid>/stream.json` + `stream.obs` (1.11+).  The
 * event encoding is the same in all of them (ovni_cursor.c). */
#ifndef PW_OVNI_H
#define PW_OVNI_H
#include <stdint.h>

#include "core/input.h"
#include "formats/ovni/ovni_events.h"
#include "model/dataset.h"

#define OVNI_HEADER_SIZE 8
#define OVNI_EVENT_HEADER 12
#define OVNI_FLAG_JUMBO 0x1

/* libovni refuses events of 2 MiB or more (ovni-facts.md §2). */
#define OVNI_MAX_EVENT ((size_t)2 << 20)

typedef struct ovni_dataset {
    int metadata_version;      /* 1, 2 or 3 */
    int old_letters;           /* lib 1.0.0: M and T were other models */
    int32_t unknown_schema;    /* the catch-all for unknown MCVs */
    /* MCV -> schema: one table of 65536 (category, value) entries per model
     * letter that has known events, NULL for the others.  Two loads per
     * event, where a hash costs a probe loop. */
    uint16_t *by_model[256];
    const ovni_event_def **defs; /* per schema index; NULL for unknown */
    uint8_t *kinds;            /* per schema index: its pw_record_kind */
    const char **names;        /* per schema index: its name (the MCV), as the dataset keeps it */
    /* Per location: 1 when its stream was written big-endian, learnt from
     * the stream header by the first cursor to read it. */
    uint8_t *big_of_loc;
    /* Per location: its stream's identity when the trace was opened, so a
     * stream cut or rewritten before its cursor opens is an I/O error. */
    pw_input_id *seen_of_loc;
} ovni_dataset;

static inline uint32_t ovni_mcv_key(const uint8_t *p)
{
    return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

/* Schema of the MCV at p[0..2] (the catch-all when unknown). */
static inline int32_t ovni_schema_of(const ovni_dataset *od, const uint8_t *p)
{
    const uint16_t *t = od->by_model[p[0]];
    return t ? t[p[1] << 8 | p[2]] : od->unknown_schema;
}

/* ovni_locations.c: finds streams and metadata, fills locations and props. */
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

/* ovni_cursor.c: the cursor over one stream. */
pw_status ovni_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err);

/* ovni_stats.c */
/* The tables of the summary (ovni_tables.c). */
extern const pw_table_decl *const ovni_table_decls[];
pw_status ovni_stats_part(pw_dataset *ds, size_t first, size_t end, void **part, size_t *size,
                          pw_error *err);
pw_status ovni_stats_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n_parts,
                          pw_report *r, pw_error *err);
#endif
