/* otf2_locations.c — the system tree as locations: each system tree node
 * (machine, node ...) a node location, each location group (an MPI rank's
 * process, an accelerator) under its node, each OTF2 location (CPU
 * thread, accelerator stream, metric location) under its group, with its
 * event file traces/<id>.evt as the file its records come from. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/otf2/otf2.h"

static const char *name_or(const ot_dataset *od, uint32_t ref, char *buf, size_t n, const char *what,
                           uint64_t id)
{
    const char *s = ot_string(od, ref);
    if (s && *s)
        return s;
    snprintf(buf, n, "%s %" PRIu64, what, id);
    return buf;
}

/* A node's location, its ancestors added first; -1 for none.  depth
 * bounds a damaged tree whose parents loop. */
static int32_t node_location(pw_dataset *ds, ot_dataset *od, uint32_t ref, int depth)
{
    ot_node *n = (ot_node *)ot_table_get(&od->nodes, ref);
    if (!n || !n->defined || depth > 64)
        return -1;
    if (n->loc >= 0)
        return n->loc;
    int32_t parent = node_location(ds, od, n->parent, depth + 1);
    char buf[64];
    const char *cls = ot_string(od, n->cls);
    const char *name = name_or(od, n->name, buf, sizeof buf, "node", ref);
    char full[512];
    snprintf(full, sizeof full, "%s%s%s", cls && *cls ? cls : "", cls && *cls ? "." : "", name);
    n->loc = pw_ds_add_location(ds, parent, PW_LOC_NODE, ref, full, NULL, 0);
    return n->loc;
}

static int32_t group_location(pw_dataset *ds, ot_dataset *od, uint32_t ref)
{
    ot_lgroup *g = (ot_lgroup *)ot_table_get(&od->lgroups, ref);
    if (!g || !g->defined)
        return -1;
    if (g->loc >= 0)
        return g->loc;
    char buf[64];
    int32_t parent = node_location(ds, od, g->parent, 0);
    pw_location_kind kind = g->type == OTF2_LOCATION_GROUP_TYPE_PROCESS ? PW_LOC_PROCESS : PW_LOC_OTHER;
    g->loc = pw_ds_add_location(ds, parent, kind, ref, name_or(od, g->name, buf, sizeof buf, "group", ref),
                                NULL, 0);
    return g->loc;
}

static pw_location_kind location_kind(uint32_t type)
{
    switch (type) {
    case OTF2_LOCATION_TYPE_CPU_THREAD: return PW_LOC_THREAD;
    case OTF2_LOCATION_TYPE_ACCELERATOR_STREAM: return PW_LOC_GPU;
    case OTF2_LOCATION_TYPE_METRIC: return PW_LOC_METER;
    default: return PW_LOC_OTHER;
    }
}

/* The archive's event directory: the anchor's name without ".otf2". */
static char *event_path(const ot_dataset *od, uint64_t id)
{
    size_t n = strlen(od->anchor);
    size_t stem = n > 5 && !strcmp(od->anchor + n - 5, ".otf2") ? n - 5 : n;
    char *p = malloc(stem + 32);
    if (p)
        snprintf(p, stem + 32, "%.*s/%" PRIu64 ".evt", (int)stem, od->anchor, id);
    return p;
}

pw_status ot_locations_build(pw_dataset *ds, ot_dataset *od, pw_error *err)
{
    for (uint32_t i = 0; i < od->n_locs; i++) {
        ot_location *l = &od->locs[i];
        char name[320];
        const char *given = ot_string(od, l->name);
        snprintf(name, sizeof name, "%s", given && *given ? given : "location");
        /* Score-P names many locations alike ("Master thread"): the id
         * keeps their paths apart. */
        size_t len = strlen(name);
        snprintf(name + len, sizeof name - len, " <%" PRIu64 ">", l->id);
        char *file = event_path(od, l->id);
        if (!file)
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
        int32_t parent = group_location(ds, od, l->group);
        l->loc = pw_ds_add_location(ds, parent, location_kind(l->type), (int64_t)l->id, name, file, 1);
        free(file);
        if (l->loc < 0)
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    od->ot_of_loc = pw_ds_alloc(ds, (ds->n_locs + 1) * sizeof *od->ot_of_loc);
    if (!od->ot_of_loc)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < ds->n_locs; i++)
        od->ot_of_loc[i] = -1;
    for (uint32_t i = 0; i < od->n_locs; i++)
        od->ot_of_loc[od->locs[i].loc] = (int32_t)i;
    return PW_OK;
}
