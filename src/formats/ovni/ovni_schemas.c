/* ovni_schemas.c — schemas from the generated signature table, the MCV
 * lookup, and decoding payloads into named fields. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/compiler.h"
#include "formats/ovni/ovni.h"
#include "formats/ovni/ovni_events.h"
#include "model/value.h"

/* Events whose model is not built in keep their raw payload only. */
static const pw_field ovni_unknown_fields[] = {{"payload", PW_T_BYTES, NULL, NULL}};

/* '[' and ']' open and close a state in every ovni model. */
static pw_record_kind kind_of(const char *mcv)
{
    return mcv[2] == '[' ? PW_REC_BEGIN : mcv[2] == ']' ? PW_REC_END : PW_REC_INSTANT;
}

/* A model's table: zeroed, which maps every MCV to schema 0, the
 * catch-all, until known events are put in (calloc of zero pages is
 * nearly free, a fill loop is not). */
static uint16_t *model_table(void)
{
    return calloc(65536, sizeof(uint16_t));
}

/* "6Wt"/"6WT": a lowercase code enters, its uppercase twin leaves a state
 * of the group "6W", when both exist.  Model 'O' (ovni itself) is left
 * out: its "OHC" and "OHc" are a thread's creation and cooling, not a
 * pair; so are events about a task (a "taskid" field: nOS-V "VTc"/"VTC"
 * create a task, the thread enters no state), which would leave slices
 * open for ever.  Declared on the schemas for the timelines
 * (pw_schema.pairs_as). */
static void declare_case_pairs(pw_dataset *ds, const ovni_dataset *od)
{
    for (size_t s = 1; s < ds->n_schemas; s++) {
        const uint8_t *m = (const uint8_t *)ds->schemas[s]->name;
        if (ds->schemas[s]->kind != PW_REC_INSTANT || strlen((const char *)m) != 3 || m[0] == 'O' ||
            !isalpha(m[2]) || pw_field_index(ds->schemas[s], "taskid") >= 0)
            continue;
        int twin = islower(m[2]) ? toupper(m[2]) : tolower(m[2]);
        if (od->by_model[m[0]] && od->by_model[m[0]][m[1] << 8 | twin])
            pw_ds_schema_pairs(ds, (int32_t)s, islower(m[2]) ? PW_REC_BEGIN : PW_REC_END, 2);
    }
}

pw_status ovni_schemas_build(pw_dataset *ds, ovni_dataset *od, pw_error *err)
{
    od->defs = calloc(ovni_n_event_defs + 1, sizeof *od->defs);
    od->kinds = calloc(ovni_n_event_defs + 1, sizeof *od->kinds);
    od->names = calloc(ovni_n_event_defs + 1, sizeof *od->names);
    if (!od->defs || !od->kinds || !od->names)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    od->unknown_schema = pw_ds_add_schema(ds, "ovni.event", "an event of a model perfweave does not know",
                                          PW_REC_INSTANT, ovni_unknown_fields, 1);
    if (od->unknown_schema != 0) /* the first schema: model_table relies on it */
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < ovni_n_event_defs; i++) {
        const ovni_event_def *d = &ovni_event_defs[i];
        /* In lib 1.0.0 'M' was OpenMP and 'T' TAMPI: today's signatures do
         * not apply to them (ovni-facts.md §4). */
        if (od->old_letters && (d->mcv[0] == 'M' || d->mcv[0] == 'T'))
            continue;
        char desc[64];
        snprintf(desc, sizeof desc, "%s %s", d->model, d->model_version);
        int32_t s = pw_ds_add_schema(ds, d->mcv, desc, kind_of(d->mcv), d->fields, (size_t)d->n_sig + 1);
        if (s < 0)
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
        const uint8_t *m = (const uint8_t *)d->mcv;
        if (!od->by_model[m[0]] && !(od->by_model[m[0]] = model_table()))
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
        od->by_model[m[0]][m[1] << 8 | m[2]] = (uint16_t)s;
        od->defs[s] = d;
        od->kinds[s] = (uint8_t)kind_of(d->mcv);
        od->names[s] = ds->schemas[s]->name;
    }
    declare_case_pairs(ds, od);
    return PW_OK;
}

void ovni_schemas_free(ovni_dataset *od)
{
    for (int i = 0; i < 256; i++)
        free(od->by_model[i]);
    free(od->defs);
    free(od->kinds);
    free(od->names);
}

/* One fixed-width integer into v; width < 0 means signed.  Returns its
 * bytes.  One jump on the width (1, 2, 4 or 8 bytes, the only ones the
 * signatures use), where tests of width and sign took one per case. */
static size_t load_int(pw_value *v, const uint8_t *p, int width, int big)
{
    switch (width) {
    case 1:
        pw_set_u64(v, p[0]);
        return 1;
    case 2:
        pw_set_u64(v, pw_load16(p, big));
        return 2;
    case 4:
        pw_set_u64(v, pw_load32(p, big));
        return 4;
    case 8:
        pw_set_u64(v, pw_load64(p, big));
        return 8;
    case -1:
        pw_set_i64(v, (int8_t)p[0]);
        return 1;
    case -2:
        pw_set_i64(v, (int16_t)pw_load16(p, big));
        return 2;
    case -4:
        pw_set_i64(v, (int32_t)pw_load32(p, big));
        return 4;
    default:
        pw_set_i64(v, (int64_t)pw_load64(p, big));
        return 8;
    }
}

/* Jumbo events end either in a NUL-terminated string or in a repeated
 * fixed-width field (nOS-V hardware counters, VWC: one i64 per counter). */
static PW_RARE void decode_jumbo_tail(const ovni_event_def *def, const uint8_t *d, size_t n, int big,
                              pw_arena *scratch, pw_value *out)
{
    int last = def->n_sig - 1;
    int w = def->widths[last] < 0 ? -def->widths[last] : def->widths[last];
    if (w == 0) {
        const uint8_t *nul = memchr(d, 0, n);
        pw_set_str(out, (const char *)d, nul ? (size_t)(nul - d) : n);
        return;
    }
    if (n % (size_t)w)
        return;
    size_t count = n / (size_t)w;
    pw_value *items = pw_arena_alloc(scratch, (count ? count : 1) * sizeof *items);
    if (!items)
        return;
    for (size_t i = 0; i < count; i++)
        load_int(&items[i], d + i * (size_t)w, def->widths[last], big);
    pw_set_items(out, items, count, NULL);
}

void ovni_decode_fields(const ovni_event_def *def, const uint8_t *payload, size_t n, int big,
                        pw_arena *scratch, pw_value *values)
{
    pw_set_bytes(&values[0], payload, n);
    if (!def || def->n_sig == 0)
        return;
    const uint8_t *d = payload;
    if (def->jumbo) { /* fields follow the 4-byte jumbo length */
        if (n < 4)
            return;
        d += 4;
        n -= 4;
    }
    int fixed = def->jumbo ? def->n_sig - 1 : def->n_sig;
    size_t need = (size_t)def->fixed_bytes;
    /* A size that disagrees with the signature (another model version) is
     * left undecoded: the raw payload is still there. */
    if (def->jumbo ? n < need : n != need)
        return;
    size_t off = 0;
    for (int i = 0; i < fixed; i++)
        off += load_int(&values[i + 1], d + off, def->widths[i], big);
    if (def->jumbo)
        decode_jumbo_tail(def, d + off, n - off, big, scratch, &values[def->n_sig]);
}
