/* gpupower_cursor.c — the records of one location: the rows of its file
 * as samples (one external channel per location), or the events of
 * timestamps.csv as phase begin/end records whose type is the phase
 * ("experiment", "train", "epoch", "batch"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/gpupower/gpupower.h"
#include "model/value.h"

typedef struct gp_cursor {
    gp_table tab;
    gp_locinfo info;
    const gp_dataset *gd;
    char type[64]; /* the current phase's name */
} gp_cursor;

static void gp_cursor_close(pw_cursor *c)
{
    gp_cursor *g = c->impl;
    if (!g)
        return;
    gp_table_close(&g->tab);
    free(g);
}

/* "epoch_begin" -> BEGIN of "epoch"; other names are instants. */
static void classify_event(pw_cursor *c, gp_cursor *g)
{
    const char *e = g->tab.event;
    size_t n = g->tab.event_len;
    int begin = n > 6 && !memcmp(e + n - 6, "_begin", 6);
    int end = n > 4 && !memcmp(e + n - 4, "_end", 4);
    size_t base = begin ? n - 6 : end ? n - 4 : n;
    if (base >= sizeof g->type)
        base = sizeof g->type - 1;
    memcpy(g->type, e, base);
    g->type[base] = '\0';
    c->rec.type = g->type;
    c->rec.schema = (uint32_t)(begin ? g->gd->schema_begin : end ? g->gd->schema_end : g->gd->schema_event);
    c->rec.kind = begin ? PW_REC_BEGIN : end ? PW_REC_END : PW_REC_INSTANT;
}

static pw_status gp_cursor_next(pw_cursor *c, pw_error *err)
{
    gp_cursor *g = c->impl;
    pw_status s = gp_table_next(&g->tab, err);
    if (s != PW_OK) {
        if (s == PW_E_DATA)
            c->err_code = "gpupower.bad-line";
        return s;
    }
    c->rec.t = g->tab.t;
    c->rec.offset = g->tab.csv.line_off;
    c->rec.size = (size_t)(g->tab.csv.off - g->tab.csv.line_off);
    if (g->info.kind == GP_FILE_TIMESTAMPS)
        classify_event(c, g);
    return PW_OK;
}

/* A reading, absent when the file had none (NaN). */
static void set_f64(pw_value *v, double x)
{
    if (!isnan(x))
        pw_set_f64(v, x);
}

/* Field f of the current row as the cursor of a location with info li
 * reads it: its own, or another channel of the same meter file. */
static void field_of(const gp_cursor *g, const gp_locinfo *li, size_t f, pw_value *v)
{
    const gp_table *t = &g->tab;
    switch (li->kind) {
    case GP_FILE_GPU:
        if (f < GP_GPU_METRICS && t->has_value[f])
            set_f64(v, t->v[f]);
        break;
    case GP_FILE_EXTERNAL:
        if (li->value >= 0 && (size_t)li->value < t->n_values && f < 2)
            set_f64(v, f == 0 ? t->v[li->value] * g->gd->external_w_per_unit : t->v[li->value]);
        break;
    case GP_FILE_SAMPLES:
        if (f == 0)
            set_f64(v, t->v[0]);
        break;
    case GP_FILE_TIMESTAMPS:
        if (f == 0)
            pw_set_str(v, t->event, t->event_len);
        else if (f == 1 && t->has_data)
            pw_set_i64(v, t->data);
        break;
    }
}

static void gp_cursor_decode(pw_cursor *c, pw_value *values)
{
    gp_cursor *g = c->impl;
    size_t n = c->ds->schemas[c->rec.schema]->n_fields;
    for (size_t f = 0; f < n; f++)
        field_of(g, &g->info, f, &values[f]);
}

static void gp_cursor_field_as(pw_cursor *c, uint32_t loc, size_t f, pw_value *v)
{
    gp_cursor *g = c->impl;
    const gp_locinfo *li = loc == c->location ? &g->info : &g->gd->locinfo[loc];
    if (li->kind == g->info.kind)
        field_of(g, li, f, v);
}

static const pw_cursor_ops gp_cursor_ops = {
    .next = gp_cursor_next,
    .decode = gp_cursor_decode,
    .close = gp_cursor_close,
    .field_as = gp_cursor_field_as,
};

static int32_t schema_of(const gp_dataset *gd, const gp_locinfo *li)
{
    switch (li->kind) {
    case GP_FILE_GPU: return gd->schema_gpu;
    case GP_FILE_EXTERNAL: return gd->schema_external;
    case GP_FILE_SAMPLES: return gd->schema_samples[li->value];
    case GP_FILE_TIMESTAMPS: return gd->schema_event;
    }
    return gd->schema_event;
}

pw_status gp_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err)
{
    gp_dataset *gd = ds->impl;
    gp_cursor *g = calloc(1, sizeof *g);
    if (!g)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    g->info = gd->locinfo[c->location];
    g->gd = gd;
    const char *file = ds->locs[c->location].file;
    pw_status s = gp_table_open(&g->tab, ds, file, g->info.kind, &gd->tz, GP_WINDOW_STREAM, err);
    /* A file cut or rewritten since the tree was opened is no shorter series. */
    if (s == PW_OK)
        s = pw_input_same_as(&g->tab.csv.w.in, &g->info.seen, file, err);
    if (s != PW_OK) {
        gp_table_close(&g->tab);
        free(g);
        if (s == PW_E_DATA)
            c->err_code = "gpupower.bad-header";
        return s;
    }
    /* The channels of one meter file share its rows: one reports them. */
    g->tab.quiet = g->info.kind == GP_FILE_EXTERNAL && g->info.value > 0;
    c->impl = g;
    c->ops = &gp_cursor_ops;
    c->rec.clock = PW_CLOCK_NS;
    int32_t sc = schema_of(gd, &g->info);
    c->rec.schema = (uint32_t)sc;
    c->rec.kind = ds->schemas[sc]->kind;
    c->rec.type = ds->schemas[sc]->name;
    return PW_OK;
}
