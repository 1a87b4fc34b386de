/* timeline_schema.c — the role, slice group and message fields of every
 * schema.  Only field names, kinds and the pairs a format declares
 * (pw_schema.pairs_as) are looked at, so any format whose records follow
 * the model is drawn without code of its own. */
#include "views/timeline_schema.h"

#include <string.h>

static tl_role role_of(const pw_schema *sc)
{
    switch (sc->kind) {
    case PW_REC_BEGIN: return TL_BEGIN;
    case PW_REC_END: return TL_END;
    case PW_REC_SPAN: return TL_SPAN;
    case PW_REC_SAMPLE: return TL_SAMPLE;
    case PW_REC_MESSAGE: return TL_INSTANT;
    case PW_REC_INSTANT:
        return sc->pairs_as == PW_REC_BEGIN ? TL_BEGIN : sc->pairs_as == PW_REC_END ? TL_END : TL_INSTANT;
    case PW_REC_VALUE:
    case PW_REC_META: return TL_LOST;
    }
    return TL_LOST;
}

/* The length of the group prefix of a BEGIN/END name: "6W[" -> 2 ("6W"),
 * a declared pair its group_len; 0 for any other name (the thread track). */
static size_t group_len(const pw_schema *sc, tl_role role)
{
    size_t n = strlen(sc->name);
    if (role != TL_BEGIN && role != TL_END)
        return 0;
    if (n > 1 && (sc->name[n - 1] == '[' || sc->name[n - 1] == ']'))
        return n - 1;
    return sc->kind == PW_REC_INSTANT ? sc->group_len : 0; /* a declared pair */
}

void tl_schemas_classify(const pw_dataset *ds, tl_schema *out)
{
    for (size_t i = 0; i < ds->n_schemas; i++) {
        const pw_schema *sc = ds->schemas[i];
        tl_schema *t = &out[i];
        t->role = role_of(sc);
        t->group_len = group_len(sc, t->role);
        pw_mpi_call_view_of(sc->name, sc->mpi_fields, &t->mpi);
        if (sc->kind == PW_REC_MESSAGE) { /* a message names its peers so */
            t->mpi.f_dest = (int16_t)pw_field_index(sc, "dest");
            t->mpi.f_source = (int16_t)pw_field_index(sc, "source");
        }
        t->f_end = pw_field_index(sc, "end");
        t->f_dur = t->f_end < 0 ? pw_field_index(sc, "duration") : -1;
        if (t->f_end < 0 && t->f_dur < 0)
            t->f_dur = pw_field_index(sc, "dur");
        t->f_name = pw_field_index(sc, "name");
        if (t->f_name >= 0 && sc->fields[t->f_name].type != PW_T_STR)
            t->f_name = -1;
        t->has_msg = t->mpi.f_dest >= 0 || t->mpi.f_source >= 0 || t->mpi.f_request >= 0;
    }
}
