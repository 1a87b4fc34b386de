/* jsonl_dump.c — one JSON object per record: "loc", "t", "type", then each
 * present field under its schema name.  Integers stay raw (no labels). */
#include "sinks/jsonl/jsonl_dump.h"

static void jsonl_items(pw_outbuf *o, const pw_value *v)
{
    int object = v->type == PW_T_OBJECT;
    pw_out_char(o, object ? '{' : '[');
    int first = 1;
    for (size_t i = 0; i < v->v.list.n; i++) {
        const pw_value *it = &v->v.list.items[i];
        if (object && !it->present)
            continue;
        if (!first)
            pw_out_char(o, ',');
        first = 0;
        if (object) {
            pw_out_str(o, "\"");
            pw_out_str(o, v->v.list.fields[i].name);
            pw_out_str(o, "\":");
        }
        pw_jsonl_value(o, it);
    }
    pw_out_char(o, object ? '}' : ']');
}

void pw_jsonl_value(pw_outbuf *o, const pw_value *v)
{
    if (!v->present) {
        pw_out_str(o, "null");
        return;
    }
    switch (v->type) {
    case PW_T_BOOL: pw_out_str(o, v->v.b ? "true" : "false"); break;
    case PW_T_I64: pw_out_i64(o, v->v.i); break;
    case PW_T_U64: pw_out_u64(o, v->v.u); break;
    case PW_T_F64:
        if (v->v.f != v->v.f || v->v.f - v->v.f != 0) /* NaN, inf: not JSON numbers */
            pw_out_str(o, "null");
        else
            pw_out_f64(o, v->v.f);
        break;
    case PW_T_DECIMAL: pw_out_decimal(o, v->v.dec.units, v->v.dec.scale); break;
    case PW_T_STR: pw_out_json_string(o, v->v.s.p, v->v.s.n); break;
    case PW_T_BYTES:
        pw_out_char(o, '"');
        pw_out_hex_colons(o, v->v.bytes.p, v->v.bytes.n);
        pw_out_char(o, '"');
        break;
    case PW_T_LIST:
    case PW_T_OBJECT: jsonl_items(o, v); break;
    }
}

void pw_dump_jsonl_record(const pw_dump *d, pw_outbuf *o, const pw_record *rec,
                          const pw_schema *sc, const pw_value *vals)
{
    pw_out_mem(o, "{\"loc\":", 7);
    pw_dump_put_location(d, o, rec);
    if (rec->clock == PW_CLOCK_NS) {
        pw_out_mem(o, ",\"t\":", 5);
        pw_out_i64(o, rec->t);
    } else if (rec->clock == PW_CLOCK_VIRTUAL) {
        pw_out_mem(o, ",\"t\":", 5);
        pw_out_f64(o, rec->vt);
    }
    pw_out_mem(o, ",\"type\":", 8);
    const pw_dump_name *type = pw_dump_schema_type(d, rec, sc);
    if (type)
        pw_dump_put_text(o, type->text, type->len);
    else
        pw_out_json_string(o, rec->type, strlen(rec->type));
    for (size_t i = 0; i < sc->n_fields; i++) {
        if (!vals[i].present)
            continue;
        pw_dump_put_name(d, o, sc, i);
        pw_jsonl_value(o, &vals[i]);
    }
    pw_out_mem(o, "}\n", 2);
}
