/* timeline_schema.c — the role, slice group and message fields of every
 * schema.  Only field names and kinds are looked at, so any format whose
 * records follow the model is drawn without code of its own; the one
 * format-specific convention is ovni's lowercase/uppercase state pairs,
 * which its schemas cannot express as BEGIN/END. */
#include "analysis/timeline_schema.h"

#include <ctype.h>
#include <string.h>

int pw_field_index(const pw_schema *sc, const char *name)
{
    for (size_t i = 0; i < sc->n_fields; i++)
        if (!strcmp(sc->fields[i].name, name))
            return (int)i;
    return -1;
}

int pw_field_either(const pw_schema *sc, const char *a, const char *b)
{
    int i = pw_field_index(sc, a);
    return i < 0 && b ? pw_field_index(sc, b) : i;
}

static int schema_named(const pw_dataset *ds, const char *name)
{
    for (size_t i = 0; i < ds->n_schemas; i++)
        if (!strcmp(ds->schemas[i]->name, name))
            return 1;
    return 0;
}

/* ovni "6Wt"/"6WT": lowercase enters, uppercase leaves a state of category
 * "6W" when both exist.  Model 'O' (ovni itself) is excluded: its "OHC" and
 * "OHc" are a thread's creation and cooling, not a pair; so are events
 * about a task (a "taskid" field: nOS-V "VTc"/"VTC" create a task, the
 * thread enters no state), which would leave slices open for ever. */
static tl_role ovni_case_pair(const pw_dataset *ds, const pw_schema *sc)
{
    const char *mcv = sc->name;
    if (strcmp(ds->fmt->name, "ovni") || strlen(mcv) != 3 || mcv[0] == 'O' ||
        !isalpha((unsigned char)mcv[2]) || pw_field_index(sc, "taskid") >= 0)
        return TL_INSTANT;
    char twin[4] = {mcv[0], mcv[1], 0, 0};
    twin[2] = (char)(islower((unsigned char)mcv[2]) ? toupper((unsigned char)mcv[2])
                                                    : tolower((unsigned char)mcv[2]));
    if (!schema_named(ds, twin))
        return TL_INSTANT;
    return islower((unsigned char)mcv[2]) ? TL_BEGIN : TL_END;
}

static tl_role role_of(const pw_dataset *ds, const pw_schema *sc)
{
    switch (sc->kind) {
    case PW_REC_BEGIN: return TL_BEGIN;
    case PW_REC_END: return TL_END;
    case PW_REC_SPAN: return TL_SPAN;
    case PW_REC_SAMPLE: return TL_SAMPLE;
    case PW_REC_MESSAGE: return TL_INSTANT;
    case PW_REC_INSTANT: return ovni_case_pair(ds, sc);
    case PW_REC_VALUE:
    case PW_REC_META: return TL_LOST;
    }
    return TL_LOST;
}

/* The length of the group prefix of a BEGIN/END name: "6W[" and the ovni
 * pair "6Wt" -> 2 ("6W"); 0 for any other name (the thread track). */
static size_t group_len(const pw_schema *sc, tl_role role)
{
    size_t n = strlen(sc->name);
    if (role != TL_BEGIN && role != TL_END)
        return 0;
    if (n > 1 && (sc->name[n - 1] == '[' || sc->name[n - 1] == ']'))
        return n - 1;
    return sc->kind == PW_REC_INSTANT ? 2 : 0; /* an ovni case pair */
}

void tl_schemas_classify(const pw_dataset *ds, tl_schema *out)
{
    for (size_t i = 0; i < ds->n_schemas; i++) {
        const pw_schema *sc = ds->schemas[i];
        tl_schema *t = &out[i];
        t->role = role_of(ds, sc);
        t->group_len = group_len(sc, t->role);
        t->f_dest = pw_field_index(sc, "dest");
        t->f_source = pw_field_index(sc, "source");
        t->f_tag = pw_field_index(sc, "tag");
        t->f_comm = pw_field_index(sc, "comm");
        t->f_sendtag = pw_field_index(sc, "sendtag");
        t->f_recvtag = pw_field_index(sc, "recvtag");
        t->f_request = pw_field_index(sc, "request");
        if (t->f_request < 0)
            t->f_request = pw_field_index(sc, "requests");
        t->f_status = pw_field_index(sc, "status");
        if (t->f_status < 0)
            t->f_status = pw_field_index(sc, "statuses");
        t->f_index = pw_field_index(sc, "index");
        t->f_flag = pw_field_index(sc, "flag");
        t->f_end = pw_field_index(sc, "end");
        t->f_dur = t->f_end < 0 ? pw_field_index(sc, "duration") : -1;
        if (t->f_end < 0 && t->f_dur < 0)
            t->f_dur = pw_field_index(sc, "dur");
        t->f_name = pw_field_index(sc, "name");
        if (t->f_name >= 0 && sc->fields[t->f_name].type != PW_T_STR)
            t->f_name = -1;
        t->has_msg = t->f_dest >= 0 || t->f_source >= 0 || t->f_request >= 0;
    }
}
