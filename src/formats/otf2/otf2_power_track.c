/* otf2_power_track.c — the power metrics as numbers the timeline draws.
 * A Metric event carries its values as a list, which no viewer plots; the
 * Metric events of power metrics (otf2_energy_signals.c) get a schema of
 * their own, POWER, with one field in W per power member beside the
 * Metric's fields, so every timeline writer draws each as a counter track
 * through its ordinary SAMPLE route.  An energy counter is drawn as the
 * mean power since its previous sample (its difference over the time
 * between them), at the later sample; one that goes back (reset,
 * wrapped) draws nothing there.  Archives without power metrics
 * keep their schemas unchanged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/otf2/otf2_energy.h"
#include "formats/otf2/otf2_power_track.h"
#include "model/value.h"

/* The field of spec i: the member's name, made unique by its metric
 * reference when two specs share it. */
static const char *field_name(pw_dataset *ds, const ot_dataset *od, const ot_power_specs *ps, uint32_t i)
{
    const ot_power_spec *s = &ps->specs[i];
    uint8_t n;
    const uint32_t *members = ot_metric_members(od, s->ref, &n);
    const ot_metric_member *mm = s->member < n ? ot_table_get(&od->members, members[s->member]) : NULL;
    const char *name = mm ? ot_string(od, mm->name) : NULL;
    int shared = 0;
    for (uint32_t j = 0; j < ps->n; j++)
        if (j != i && ps->specs[j].member == s->member && ot_metric_members(od, ps->specs[j].ref, &n) == members)
            shared = 1;
    char buf[512];
    if (shared || !name)
        snprintf(buf, sizeof buf, "%s #%u", name ? name : "power", s->ref);
    else
        snprintf(buf, sizeof buf, "%s", name);
    return pw_ds_strndup(ds, buf, strlen(buf));
}

pw_status ot_power_track_offer(pw_dataset *ds, ot_dataset *od, pw_error *err)
{
    od->power_schema = -1;
    ot_power_specs *ps = calloc(1, sizeof *ps);
    if (!ps)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    od->power = ps;
    pw_status st = ot_power_specs_find(ds, od, ps, err);
    if (st != PW_OK || !ps->n)
        return st;
    const pw_schema *metric = ds->schemas[od->schema_of[OT_EV_Metric]];
    size_t n_fields = metric->n_fields + ps->n;
    pw_field *fields = pw_ds_alloc(ds, n_fields * sizeof *fields);
    if (!fields)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    memcpy(fields, metric->fields, metric->n_fields * sizeof *fields);
    for (uint32_t i = 0; i < ps->n; i++) {
        pw_field *f = &fields[metric->n_fields + i];
        *f = (pw_field){field_name(ds, od, ps, i), PW_T_F64, "W", NULL};
        if (!f->name)
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    od->power_schema = pw_ds_add_schema(ds, "POWER", "metric values, its power members in W", PW_REC_SAMPLE,
                                        fields, n_fields);
    if (od->power_schema < 0)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}

void ot_power_track_free(ot_dataset *od)
{
    if (od->power)
        ot_power_specs_free(od->power);
    free(od->power);
    od->power = NULL;
}

int ot_power_track_carries(const ot_dataset *od, const ot_event *e)
{
    return od->power_schema >= 0 && e->type == OT_EV_Metric && e->a[0] < od->power->n_refs &&
           od->power->first[e->a[0]] >= 0;
}

/* Value v of event e as a number. */
static double value_of(const ot_event *e, uint32_t v)
{
    uint64_t x = e->extra[v];
    double d;
    switch (e->extra_types[v]) {
    case OTF2_TYPE_DOUBLE: memcpy(&d, &x, sizeof d); return d;
    case OTF2_TYPE_INT64: return (double)(int64_t)x;
    default: return (double)x;
    }
}

int ot_power_track_feed(ot_power_state *st, const ot_dataset *od, const ot_event *e, int64_t t)
{
    const ot_power_specs *ps = od->power;
    if (!st->prev) { /* all three or none */
        ot_power_prev *prev = calloc(ps->n, sizeof *prev);
        double *watts = calloc(ps->n, sizeof *watts);
        uint8_t *present = calloc(ps->n, sizeof *present);
        if (!prev || !watts || !present) {
            free(prev), free(watts), free(present);
            return 0;
        }
        *st = (ot_power_state){prev, watts, present};
    }
    for (uint32_t i = (uint32_t)ps->first[e->a[0]]; i < ps->n && ps->specs[i].ref == e->a[0]; i++) {
        const ot_power_spec *s = &ps->specs[i];
        ot_power_prev *p = &st->prev[i];
        st->present[i] = 0;
        if (s->member >= e->n_extra)
            continue;
        double x = value_of(e, s->member) * s->factor;
        if (!s->counter) {
            st->watts[i] = x, st->present[i] = 1;
        } else if (p->seen && t > p->t && x >= p->value) { /* a reset draws nothing */
            st->watts[i] = (x - p->value) / ((double)(t - p->t) * 1e-9);
            st->present[i] = 1;
        }
        *p = (ot_power_prev){1, t, x};
    }
    return 1;
}

void ot_power_track_decode(const ot_power_state *st, const ot_dataset *od, const ot_event *e, pw_value *values)
{
    const ot_power_specs *ps = od->power;
    size_t base = strlen(od->encs[OT_EV_Metric]);
    for (uint32_t i = (uint32_t)ps->first[e->a[0]]; i < ps->n && ps->specs[i].ref == e->a[0]; i++)
        if (st->present[i])
            pw_set_f64(&values[base + i], st->watts[i]);
}

void ot_power_state_free(ot_power_state *st)
{
    free(st->prev);
    free(st->watts);
    free(st->present);
}
