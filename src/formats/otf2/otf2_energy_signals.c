/* otf2_energy_signals.c — which metrics of an archive carry power: a
 * metric member whose unit is a power (W, mW, µW) or an energy (J, mJ,
 * µJ: a counter, differenced), scaled by its base^exponent; or one the
 * option otf2.power names with its real unit, for producers whose unit
 * string is wrong (rocm_smi's socket power through Score-P says "#" and
 * holds µW).  Each is tied to the system tree node whose locations share
 * it, from the metric instance's scope. */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/otf2/otf2_energy.h"

typedef struct power_unit {
    const char *name;
    double factor; /* to W, or to J */
    int counter;
} power_unit;

static const power_unit power_units[] = {
    {"W", 1, 0},  {"mW", 1e-3, 0}, {"uW", 1e-6, 0}, {"\xc2\xb5W", 1e-6, 0},
    {"J", 1, 1},  {"mJ", 1e-3, 1}, {"uJ", 1e-6, 1}, {"\xc2\xb5J", 1e-6, 1},
    {NULL, 0, 0},
};

static const power_unit *unit_named(const char *s, size_t n)
{
    for (const power_unit *u = power_units; s && u->name; u++)
        if (strlen(u->name) == n && !memcmp(u->name, s, n))
            return u;
    return NULL;
}

/* The unit the option gives member `name`: "GLOB:UNIT[,GLOB:UNIT...]",
 * the unit after each entry's last colon (metric names hold colons). */
static pw_status option_unit(const char *opt, const char *name, const power_unit **out, pw_error *err)
{
    *out = NULL;
    while (opt && *opt) {
        const char *end = strchr(opt, ',');
        size_t len = end ? (size_t)(end - opt) : strlen(opt);
        const char *colon = NULL;
        for (const char *p = opt; p < opt + len; p++)
            if (*p == ':')
                colon = p;
        const power_unit *u = colon ? unit_named(colon + 1, (size_t)(opt + len - colon - 1)) : NULL;
        if (!u || colon == opt)
            return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET,
                           "otf2.power: '%.*s' is not METRIC:UNIT with UNIT one of W mW uW J mJ uJ", (int)len,
                           opt);
        char glob[512];
        size_t g = (size_t)(colon - opt) < sizeof glob - 1 ? (size_t)(colon - opt) : sizeof glob - 1;
        memcpy(glob, opt, g);
        glob[g] = 0;
        if (!*out && name && fnmatch(glob, name, 0) == 0)
            *out = u;
        opt = end ? end + 1 : NULL;
    }
    return PW_OK;
}

static const ot_location *location_by_id(const ot_dataset *od, uint64_t id)
{
    for (uint32_t i = 0; i < od->n_locs; i++)
        if (od->locs[i].id == id)
            return &od->locs[i];
    return NULL;
}

static int64_t group_node(const ot_dataset *od, uint64_t group)
{
    const ot_lgroup *g = ot_table_get(&od->lgroups, group);
    return g && g->defined ? (int64_t)g->parent : -1;
}

int64_t ot_location_node(const ot_dataset *od, uint32_t i)
{
    return i < od->n_locs ? group_node(od, od->locs[i].group) : -1;
}

int ot_node_within(const ot_dataset *od, int64_t inner, int64_t outer)
{
    for (int depth = 0; inner >= 0 && depth < 64; depth++) { /* a damaged tree may loop */
        if (inner == outer)
            return 1;
        const ot_node *n = ot_table_get(&od->nodes, (uint64_t)inner);
        inner = n && n->defined && n->parent != OTF2_UNDEFINED_SYSTEM_TREE_NODE ? (int64_t)n->parent : -1;
    }
    return 0;
}

/* The node a metric's samples belong to: an instance's scope, as a node
 * or through the group or location it names; -1 for a class. */
static int64_t metric_node(const ot_dataset *od, const ot_metric *m)
{
    if (!m->is_instance)
        return -1;
    const ot_location *rec = location_by_id(od, m->recorder);
    switch (m->scope_type) {
    case OTF2_SCOPE_SYSTEM_TREE_NODE: return (int64_t)m->scope;
    case OTF2_SCOPE_LOCATION_GROUP: return group_node(od, m->scope);
    case OTF2_SCOPE_LOCATION: rec = location_by_id(od, m->scope); break;
    default: break;
    }
    return rec ? group_node(od, rec->group) : -1;
}

/* What member mm carries: by the option, else by its unit string scaled
 * by base^exponent; NULL when not power. */
static pw_status member_unit(const pw_dataset *ds, const ot_dataset *od, const ot_metric_member *mm,
                             power_unit *out, int *is_power, pw_error *err)
{
    const power_unit *u;
    pw_status st = option_unit(pw_ds_option(ds, "power"), ot_string(od, mm->name), &u, err);
    *is_power = 0;
    if (st != PW_OK || u) {
        if (u)
            *out = *u, *is_power = 1;
        return st;
    }
    const char *unit = ot_string(od, mm->unit);
    if (!(u = unit ? unit_named(unit, strlen(unit)) : NULL))
        return PW_OK;
    *out = *u;
    out->factor *= pow(mm->base == OTF2_BASE_BINARY ? 2.0 : 10.0, (double)mm->exponent);
    *is_power = isfinite(out->factor) && out->factor > 0;
    return PW_OK;
}

static int add_spec(ot_power_specs *ps, ot_power_spec s)
{
    ot_power_spec *g = realloc(ps->specs, (ps->n + 1) * sizeof *g);
    if (!g)
        return 0;
    ps->specs = g;
    if (ps->first[s.ref] < 0)
        ps->first[s.ref] = (int32_t)ps->n;
    ps->specs[ps->n++] = s;
    return 1;
}

static int add_node(ot_power_specs *ps, uint32_t node)
{
    for (uint32_t i = 0; i < ps->n_nodes; i++)
        if (ps->nodes[i] == node)
            return 1;
    uint32_t *g = realloc(ps->nodes, (ps->n_nodes + 1) * sizeof *g);
    if (!g)
        return 0;
    ps->nodes = g;
    ps->nodes[ps->n_nodes++] = node;
    return 1;
}

/* The nodes to integrate over: every instance's, and for a class recorded
 * directly (no instance names it) the node of every location that could
 * record it. */
static int collect_nodes(const ot_dataset *od, ot_power_specs *ps)
{
    int direct = 0;
    for (uint32_t i = 0; i < ps->n; i++) {
        if (ps->specs[i].node >= 0 && !add_node(ps, (uint32_t)ps->specs[i].node))
            return 0;
        direct |= ps->specs[i].node < 0;
    }
    for (uint32_t i = 0; direct && i < od->n_locs; i++)
        if (ot_location_node(od, i) >= 0 && !add_node(ps, (uint32_t)ot_location_node(od, i)))
            return 0;
    return 1;
}

/* A class that an instance points to is recorded through its instances. */
static int has_instance(const ot_dataset *od, uint32_t cls)
{
    for (uint32_t r = 0; r < od->metrics.n; r++) {
        const ot_metric *m = ot_table_get(&od->metrics, r);
        if (m && m->defined && m->is_instance && m->cls == cls)
            return 1;
    }
    return 0;
}

static pw_status specs_of_metric(const pw_dataset *ds, const ot_dataset *od, uint32_t ref, ot_power_specs *ps,
                                 pw_error *err)
{
    const ot_metric *m = ot_table_get(&od->metrics, ref);
    if (!m || !m->defined || (!m->is_instance && has_instance(od, ref)))
        return PW_OK;
    uint8_t n;
    const uint32_t *members = ot_metric_members(od, ref, &n);
    for (uint8_t i = 0; i < n; i++) {
        const ot_metric_member *mm = ot_table_get(&od->members, members[i]);
        power_unit u;
        int is_power = 0;
        pw_status st = mm && mm->defined ? member_unit(ds, od, mm, &u, &is_power, err) : PW_OK;
        if (st != PW_OK)
            return st;
        if (is_power && !add_spec(ps, (ot_power_spec){ref, i, u.counter, u.factor, metric_node(od, m)}))
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    return PW_OK;
}

pw_status ot_power_specs_find(const pw_dataset *ds, const ot_dataset *od, ot_power_specs *out, pw_error *err)
{
    memset(out, 0, sizeof *out);
    out->n_refs = od->metrics.n;
    out->first = malloc((out->n_refs + 1) * sizeof *out->first);
    if (!out->first)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (uint32_t r = 0; r < out->n_refs; r++)
        out->first[r] = -1;
    pw_status st = PW_OK;
    for (uint32_t r = 0; r < out->n_refs && st == PW_OK; r++)
        st = specs_of_metric(ds, od, r, out, err);
    if (st == PW_OK && !collect_nodes(od, out))
        st = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    return st;
}

void ot_power_specs_free(ot_power_specs *ps)
{
    free(ps->specs);
    free(ps->first);
    free(ps->nodes);
    memset(ps, 0, sizeof *ps);
}
