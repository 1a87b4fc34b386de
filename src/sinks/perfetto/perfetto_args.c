/* perfetto_args.c — record fields as Perfetto debug annotations (see
 * perfetto_args.h). */
#include "sinks/perfetto/perfetto_args.h"

#include <stdlib.h>
#include <string.h>

#include "sinks/convert/convert.h"

enum { /* debug_annotation.proto, interned_data.proto, track_event.proto */
    TRACK_EVENT_DEBUG_ANNOTATIONS = 4,
    ANNOTATION_NAME_IID = 1,
    ANNOTATION_BOOL = 2,
    ANNOTATION_UINT = 3,
    ANNOTATION_INT = 4,
    ANNOTATION_DOUBLE = 5,
    ANNOTATION_STRING = 6,
    ANNOTATION_NAME = 10,
    ANNOTATION_DICT_ENTRIES = 11,
    ANNOTATION_ARRAY_VALUES = 12,
    INTERNED_ANNOTATION_NAMES = 3,
    ANNOTATION_NAME_ENTRY_IID = 1,
    ANNOTATION_NAME_ENTRY_NAME = 2,
    PACKET_INTERNED_DATA_FIELD = 12
};

int pf_args_init(pf_args *a, const pw_dataset *ds)
{
    memset(a, 0, sizeof *a);
    a->n_schemas = ds->n_schemas;
    a->iid = calloc(ds->n_schemas ? ds->n_schemas : 1, sizeof *a->iid);
    for (size_t i = 0; a->iid && i < ds->n_schemas; i++)
        if (ds->schemas[i]->n_fields && !(a->iid[i] = calloc(ds->schemas[i]->n_fields, sizeof **a->iid)))
            return 0;
    return a->iid != NULL;
}

void pf_args_free(pf_args *a)
{
    for (size_t i = 0; a->iid && i < a->n_schemas; i++)
        free(a->iid[i]);
    free(a->iid);
    for (int i = 0; i < PF_ARGS_DEPTH; i++)
        pb_free(&a->level[i]);
    pb_free(&a->name);
    pw_text_free(&a->text);
    memset(a, 0, sizeof *a);
}

/* Raw bytes (ovni payloads, whose decoded fields are shown) are left out:
 * as text they would double the trace for nothing a reader can use. */
static int shown(const pw_value *v) { return v->present && v->type != PW_T_BYTES; }

int pf_args_any(const pw_record *rec)
{
    const pw_schema *sc = rec->cursor->ds->schemas[rec->schema];
    if (!sc->n_fields)
        return 0;
    const pw_value *v = pw_record_fields(rec);
    for (size_t i = 0; i < sc->n_fields; i++)
        if (shown(&v[i]))
            return 1;
    return 0;
}

/* The iid of field i of schema s, sent on the sequence when it is new. */
static int name_iid(pf_args *a, pf_args_seq *q, const pw_schema *sc, uint32_t s, size_t i, pb_buf *packet,
                    uint32_t *iid)
{
    uint32_t *slot = &a->iid[s][i];
    if (!*slot)
        *slot = ++a->n_iids;
    *iid = *slot;
    if (!pw_grow_zeroed((void **)&q->interned, &q->cap, *iid, 1))
        return 0;
    if (q->interned[*iid])
        return 1;
    q->interned[*iid] = 1;
    pb_buf entry = {0};
    pb_uint(&entry, ANNOTATION_NAME_ENTRY_IID, *iid);
    pb_bytes(&entry, ANNOTATION_NAME_ENTRY_NAME, sc->fields[i].name, strlen(sc->fields[i].name));
    pb_message(&a->name, INTERNED_ANNOTATION_NAMES, &entry);
    pb_message(packet, PACKET_INTERNED_DATA_FIELD, &a->name);
    int ok = !entry.failed;
    pb_free(&entry);
    return ok;
}

/* One value into the annotation built at `depth`, typed as its value
 * field wants; f: the field (labels), NULL inside lists and objects. */
static void put_value(pf_args *a, int depth, const pw_field *f, const pw_value *v)
{
    pb_buf *b = &a->level[depth];
    const char *label = NULL;
    if ((v->type == PW_T_LIST || v->type == PW_T_OBJECT) && depth + 1 < PF_ARGS_DEPTH) {
        int object = v->type == PW_T_OBJECT;
        for (size_t i = 0; i < v->v.list.n; i++) {
            const pw_value *item = &v->v.list.items[i];
            if (object)
                pb_bytes(&a->level[depth + 1], ANNOTATION_NAME, v->v.list.fields[i].name,
                         strlen(v->v.list.fields[i].name));
            if (item->present)
                put_value(a, depth + 1, NULL, item);
            pb_message(b, object ? ANNOTATION_DICT_ENTRIES : ANNOTATION_ARRAY_VALUES, &a->level[depth + 1]);
        }
        return;
    }
    if (f && f->label && (v->type == PW_T_I64 || v->type == PW_T_U64))
        label = f->label(v->type == PW_T_I64 ? v->v.i : (int64_t)v->v.u);
    if (label) {
        pb_bytes(b, ANNOTATION_STRING, label, strlen(label));
        return;
    }
    switch (v->type) {
    case PW_T_BOOL: pb_uint(b, ANNOTATION_BOOL, (uint64_t)v->v.b); break;
    case PW_T_I64: pb_uint(b, ANNOTATION_INT, (uint64_t)v->v.i); break;
    case PW_T_U64: pb_uint(b, ANNOTATION_UINT, v->v.u); break;
    case PW_T_F64:
    case PW_T_DECIMAL: pb_double(b, ANNOTATION_DOUBLE, pw_value_number(v)); break;
    case PW_T_STR: pb_bytes(b, ANNOTATION_STRING, v->v.s.p, v->v.s.n); break;
    default: /* bytes, lists, objects: their text, as CSV shows it */
        pw_value_text(&a->text, v);
        pb_bytes(b, ANNOTATION_STRING, a->text.p, a->text.n);
        break;
    }
}

int pf_args_add(pf_args *a, pf_args_seq *q, const pw_record *rec, pb_buf *e, pb_buf *packet)
{
    const pw_schema *sc = rec->cursor->ds->schemas[rec->schema];
    const pw_value *v = pw_record_fields(rec);
    for (size_t i = 0; i < sc->n_fields; i++) {
        if (!shown(&v[i]))
            continue;
        uint32_t iid;
        if (!name_iid(a, q, sc, rec->schema, i, packet, &iid))
            return 0;
        pb_uint(&a->level[0], ANNOTATION_NAME_IID, iid);
        put_value(a, 0, &sc->fields[i], &v[i]);
        pb_message(e, TRACK_EVENT_DEBUG_ANNOTATIONS, &a->level[0]);
    }
    return !e->failed && !a->text.failed;
}
