/* otf2_schemas.c — one schema per OTF2 event type, made from the table
 * of otf2_events.def: each field's name and encoding become its pw_field,
 * and decode turns the raw values the callbacks kept into values,
 * references into the names their definitions give. */
#include <string.h>

#include "formats/otf2/otf2.h"
#include "model/value.h"

const ot_event_type ot_event_types[OT_N_EVENTS] = {
#define OT_EV(Name, label, kind, desc, fields, ...) {label, kind, desc, fields},
#include "formats/otf2/otf2_events.def"
#undef OT_EV
};

static pw_type type_of(char enc, const char **unit)
{
    *unit = NULL;
    switch (enc) {
    case OT_I64: case OT_RANK: case OT_WORLD: return PW_T_I64;
    case OT_BYTES: *unit = "B"; return PW_T_U64;
    case OT_TIME: *unit = "ns"; return PW_T_I64;
    case OT_REGION: case OT_STRING: case OT_COMM: case OT_WIN: case OT_PARAM: case OT_GROUP:
    case OT_HANDLE: case OT_METRIC: return PW_T_STR;
    case OT_VALUES: case OT_ARGS: return PW_T_LIST;
    default: return PW_T_U64;
    }
}

/* "name:enc name:enc" into fields (names copied to the dataset) and the
 * encodings; the count, or -1 when memory runs out. */
static int parse_fields(pw_dataset *ds, const char *spec, pw_field *fields, char *encs)
{
    int n = 0;
    for (const char *p = spec; *p && n < OT_MAX_ARGS + 1;) {
        while (*p == ' ')
            p++;
        const char *colon = strchr(p, ':');
        if (!*p || !colon)
            break;
        const char *name = pw_ds_strndup(ds, p, (size_t)(colon - p));
        if (!name)
            return -1;
        encs[n] = colon[1];
        fields[n].name = name;
        fields[n].type = type_of(colon[1], &fields[n].unit);
        fields[n].label = NULL;
        n++;
        p = colon + 2;
    }
    return n;
}

pw_status ot_schemas_build(pw_dataset *ds, ot_dataset *od, pw_error *err)
{
    for (int t = 0; t < OT_N_EVENTS; t++) {
        const ot_event_type *et = &ot_event_types[t];
        pw_field *fields = pw_ds_alloc(ds, (OT_MAX_ARGS + 1) * sizeof *fields);
        od->encs[t] = pw_ds_alloc(ds, OT_MAX_ARGS + 2);
        int n = fields && od->encs[t] ? parse_fields(ds, et->fields, fields, od->encs[t]) : -1;
        od->schema_of[t] = n < 0 ? -1 : pw_ds_add_schema(ds, et->name, et->description, et->kind, fields, (size_t)n);
        if (od->schema_of[t] < 0)
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    return PW_OK;
}

int64_t ot_ns(const ot_dataset *od, uint64_t ticks)
{
    uint64_t res = od->resolution ? od->resolution : 1000000000u;
    int neg = ticks < od->offset;
    unsigned __int128 d = neg ? od->offset - ticks : ticks - od->offset;
    unsigned __int128 ns = d * 1000000000u / res;
    int64_t v = ns > INT64_MAX ? INT64_MAX : (int64_t)ns;
    return neg ? -v : v;
}

const uint32_t *ot_metric_members(const ot_dataset *od, uint32_t ref, uint8_t *n)
{
    const ot_metric *m = ot_table_get(&od->metrics, ref);
    if (m && m->is_instance)
        m = ot_table_get(&od->metrics, m->cls);
    *n = m && m->defined && !m->is_instance ? m->n_members : 0;
    return *n ? m->members : NULL;
}

static void set_name(pw_value *v, const char *s)
{
    if (s)
        pw_set_str(v, s, strlen(s));
}

static const char *named(const ot_table *t, const ot_dataset *od, uint64_t ref)
{
    const ot_named *e = ot_table_get(t, ref);
    return e && e->defined ? ot_string(od, e->name) : NULL;
}

static const char *comm_name(const ot_dataset *od, uint64_t ref)
{
    const ot_comm *c = ot_table_get(&od->comms, ref);
    return c && c->defined ? ot_string(od, c->name) : NULL;
}

static const char *group_name(const ot_dataset *od, uint64_t ref)
{
    const ot_group *g = ot_table_get(&od->groups, ref);
    return g ? ot_string(od, g->name) : NULL;
}

static const char *metric_name(const ot_dataset *od, uint64_t ref)
{
    uint8_t n;
    const uint32_t *m = ot_metric_members(od, (uint32_t)ref, &n);
    const ot_metric_member *mm = n ? ot_table_get(&od->members, m[0]) : NULL;
    return mm ? ot_string(od, mm->name) : NULL;
}

/* Metric values as their type says: integers stay exact. */
static void set_values(const ot_event *e, pw_arena *scratch, pw_value *v, char enc, const ot_dataset *od)
{
    pw_value *items = e->n_extra ? pw_arena_alloc(scratch, e->n_extra * sizeof *items) : NULL;
    if (e->n_extra && !items)
        return;
    for (uint32_t i = 0; i < e->n_extra; i++) {
        uint64_t x = e->extra[i];
        if (enc == OT_ARGS) {
            const char *s = ot_string(od, (uint32_t)x);
            pw_set_str(&items[i], s ? s : "", s ? strlen(s) : 0);
        } else if (e->extra_types[i] == OTF2_TYPE_DOUBLE) {
            double d;
            memcpy(&d, &x, sizeof d);
            pw_set_f64(&items[i], d);
        } else if (e->extra_types[i] == OTF2_TYPE_INT64) {
            pw_set_i64(&items[i], (int64_t)x);
        } else {
            pw_set_u64(&items[i], x);
        }
    }
    pw_set_items(v, items, e->n_extra, NULL);
}

void ot_decode(const pw_dataset *ds, const ot_event *e, pw_arena *scratch, pw_value *values)
{
    const ot_dataset *od = ds->impl;
    const char *encs = od->encs[e->type];
    size_t raw = 0;
    for (size_t f = 0; encs[f]; f++) {
        pw_value *v = &values[f];
        char enc = encs[f];
        uint64_t x = enc == OT_WORLD || enc == OT_VALUES || enc == OT_ARGS ? 0 : e->a[raw++];
        switch (enc) {
        case OT_I64: pw_set_i64(v, (int64_t)x); break;
        case OT_RANK:
            if (x != OTF2_UNDEFINED_UINT32)
                pw_set_i64(v, (int64_t)x);
            break;
        case OT_WORLD: {
            int64_t w = ot_world_rank(od, (uint32_t)e->a[1], e->a[0], e->self_rank);
            if (w >= 0)
                pw_set_i64(v, w);
            break;
        }
        case OT_TIME: pw_set_i64(v, ot_ns(od, x)); break;
        case OT_REGION: set_name(v, ot_region_name(od, (uint32_t)x)); break;
        case OT_STRING: set_name(v, ot_string(od, (uint32_t)x)); break;
        case OT_COMM: set_name(v, comm_name(od, x)); break;
        case OT_WIN: set_name(v, named(&od->wins, od, x)); break;
        case OT_PARAM: set_name(v, named(&od->params, od, x)); break;
        case OT_HANDLE: set_name(v, named(&od->handles, od, x)); break;
        case OT_GROUP: set_name(v, group_name(od, x)); break;
        case OT_METRIC: set_name(v, metric_name(od, x)); break;
        case OT_VALUES: case OT_ARGS: set_values(e, scratch, v, enc, od); break;
        default: pw_set_u64(v, x); break;
        }
    }
}
