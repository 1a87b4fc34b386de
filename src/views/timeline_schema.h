/* timeline_schema.h — how the timeline draws each record type, decided
 * once per schema from its kind, name and field names (see timeline.h). */
#ifndef PW_VIEWS_TIMELINE_SCHEMA_H
#define PW_VIEWS_TIMELINE_SCHEMA_H
#include "core/names.h"
#include "model/dataset.h"
#include "model/mpi_call.h"

typedef enum tl_role { TL_LOST, TL_BEGIN, TL_END, TL_INSTANT, TL_SPAN, TL_SAMPLE } tl_role;

typedef struct tl_schema {
    tl_role role;
    /* Name ids, interned on first use so that frequent names get small ids
     * (one-byte varints in Perfetto): the schema's name, and for BEGIN/END
     * the group (its first group_len characters; 0: the thread track). */
    uint32_t name;
    uint32_t group;
    size_t group_len;
    /* An MPI call's arguments (timeline_flows.h reads the messages'); a
     * MESSAGE record's peers too (its fields "dest" and "source"). */
    pw_mpi_call_view mpi;
    /* field indexes, -1: none */
    int f_end, f_dur;
    int f_name; /* a text field "name": the slice's or instant's name */
    int has_msg;
} tl_schema;

/* Fills out[0 .. schema count) (names and groups left to intern). */
void tl_schemas_classify(const pw_dataset *ds, tl_schema *out);
#endif
