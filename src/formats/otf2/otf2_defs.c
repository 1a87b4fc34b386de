/* otf2_defs.c — the global definitions into tables indexed by reference:
 * what events name (regions, strings, communicators, metrics ...) and
 * what the locations are made of (system tree, location groups).  A
 * reference defined twice keeps its last definition, as libotf2 hands
 * them; an undefined one reads as a zeroed entry (`defined` 0). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/otf2/otf2.h"

/* No OTF2 producer numbers definitions this densely past 2^26: a larger
 * reference is damage, not a reason to allocate gigabytes. */
#define OT_MAX_REF (1u << 26)

void *ot_table_at(ot_table *t, uint64_t ref)
{
    if (ref >= OT_MAX_REF)
        return NULL;
    if (ref >= t->cap) {
        uint32_t cap = t->cap ? t->cap : 64;
        while (cap <= ref)
            cap *= 2;
        void *p = realloc(t->items, (size_t)cap * t->size);
        if (!p)
            return NULL;
        memset((char *)p + (size_t)t->cap * t->size, 0, (size_t)(cap - t->cap) * t->size);
        t->items = p;
        t->cap = cap;
    }
    if (ref >= t->n)
        t->n = (uint32_t)ref + 1;
    return (char *)t->items + (size_t)ref * t->size;
}

const void *ot_table_get(const ot_table *t, uint64_t ref)
{
    return ref < t->n ? (const char *)t->items + (size_t)ref * t->size : NULL;
}

void ot_tables_free(ot_dataset *od)
{
    ot_table *all[] = {&od->strings, &od->regions, &od->nodes, &od->lgroups, &od->groups, &od->comms,
                       &od->members, &od->metrics, &od->params, &od->wins, &od->handles, &od->attrs};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        free(all[i]->items);
    free(od->locs);
}

const char *ot_string(const ot_dataset *od, uint32_t ref)
{
    const char *const *s = ot_table_get(&od->strings, ref);
    return s && *s ? *s : NULL;
}

const char *ot_region_name(const ot_dataset *od, uint32_t ref)
{
    const ot_region *r = ot_table_get(&od->regions, ref);
    const char *s = r ? ot_string(od, r->name) : NULL;
    return s ? s : "(undefined region)";
}

int64_t ot_world_rank(const ot_dataset *od, uint32_t comm, uint64_t rank, int64_t self)
{
    const ot_comm *c = ot_table_get(&od->comms, comm);
    const ot_group *g = c && c->defined ? ot_table_get(&od->groups, c->group) : NULL;
    if (!g)
        return -1;
    if (g->type == OTF2_GROUP_TYPE_COMM_SELF)
        return rank == 0 ? self : -1;
    if (g->type != OTF2_GROUP_TYPE_COMM_GROUP || rank >= g->n_members)
        return -1;
    return (int64_t)g->members[rank];
}

/* The definitions' callbacks: each fills its table entry.  userData is
 * the dataset; a table that cannot grow ends the read (out of memory or
 * an absurd reference), which the reader reports. */
typedef struct def_ctx {
    pw_dataset *ds;
    ot_dataset *od;
    int nomem;
} def_ctx;

#define ENTRY(ctx, table, ref, type)                                                                   \
    type *e = ot_table_at(&(ctx)->od->table, ref);                                                     \
    if (!e) {                                                                                          \
        (ctx)->nomem = 1;                                                                              \
        return OTF2_CALLBACK_INTERRUPT;                                                                \
    }

static OTF2_CallbackCode def_clock(void *u, uint64_t res, uint64_t off, uint64_t len, uint64_t realtime)
{
    def_ctx *x = u;
    (void)realtime;
    x->od->resolution = res;
    x->od->offset = off;
    x->od->length = len;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *s)
{
    def_ctx *x = u;
    ENTRY(x, strings, self, const char *);
    *e = pw_ds_strdup(x->ds, s ? s : "");
    if (!*e) {
        x->nomem = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canonical,
                                    OTF2_StringRef description, OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin, uint32_t end)
{
    def_ctx *x = u;
    (void)canonical, (void)description, (void)flags, (void)file, (void)begin, (void)end;
    ENTRY(x, regions, self, ot_region);
    e->name = name;
    e->role = role;
    e->paradigm = paradigm;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_node(void *u, OTF2_SystemTreeNodeRef self, OTF2_StringRef name, OTF2_StringRef cls,
                                  OTF2_SystemTreeNodeRef parent)
{
    def_ctx *x = u;
    ENTRY(x, nodes, self, ot_node);
    e->name = name;
    e->cls = cls;
    e->parent = parent;
    e->loc = -1;
    e->defined = 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_lgroup(void *u, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                    OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
                                    OTF2_LocationGroupRef creator)
{
    def_ctx *x = u;
    (void)creator;
    ENTRY(x, lgroups, self, ot_lgroup);
    e->name = name;
    e->type = type;
    e->parent = parent;
    e->loc = -1;
    e->defined = 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
                                      uint64_t n_events, OTF2_LocationGroupRef group)
{
    def_ctx *x = u;
    ot_dataset *od = x->od;
    if (od->n_locs == od->cap_locs) {
        uint32_t cap = od->cap_locs ? od->cap_locs * 2 : 16;
        ot_location *p = cap > OT_MAX_REF ? NULL : realloc(od->locs, cap * sizeof *p);
        if (!p) {
            x->nomem = 1;
            return OTF2_CALLBACK_INTERRUPT;
        }
        od->locs = p;
        od->cap_locs = cap;
    }
    od->locs[od->n_locs++] = (ot_location){.id = self, .name = name, .type = type, .group = group,
                                           .n_events = n_events, .loc = -1, .world_rank = -1};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
                                   OTF2_Paradigm paradigm, OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
    def_ctx *x = u;
    (void)flags;
    ENTRY(x, groups, self, ot_group);
    e->name = name;
    e->type = type;
    e->paradigm = paradigm;
    e->members = n ? pw_ds_alloc(x->ds, (size_t)n * sizeof *members) : NULL;
    if (n && !e->members) {
        x->nomem = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (n)
        memcpy(e->members, members, (size_t)n * sizeof *members);
    e->n_members = n;
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && paradigm == OTF2_PARADIGM_MPI)
        x->od->mpi_paradigm_group = self;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                                  OTF2_CommRef parent, OTF2_CommFlag flags)
{
    def_ctx *x = u;
    (void)flags;
    ENTRY(x, comms, self, ot_comm);
    e->name = name;
    e->group = group;
    e->parent = parent;
    e->defined = 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_member(void *u, OTF2_MetricMemberRef self, OTF2_StringRef name,
                                    OTF2_StringRef description, OTF2_MetricType type, OTF2_MetricMode mode,
                                    OTF2_Type value_type, OTF2_Base base, int64_t exponent, OTF2_StringRef unit)
{
    def_ctx *x = u;
    (void)description;
    ENTRY(x, members, self, ot_metric_member);
    *e = (ot_metric_member){.name = name, .unit = unit, .defined = 1, .type = type, .mode = mode,
                            .value_type = value_type, .base = base, .exponent = exponent};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_metric_class(void *u, OTF2_MetricRef self, uint8_t n,
                                          const OTF2_MetricMemberRef *members, OTF2_MetricOccurrence occurrence,
                                          OTF2_RecorderKind recorder)
{
    def_ctx *x = u;
    (void)occurrence, (void)recorder;
    ENTRY(x, metrics, self, ot_metric);
    e->members = n ? pw_ds_alloc(x->ds, (size_t)n * sizeof *e->members) : NULL;
    if (n && !e->members) {
        x->nomem = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    for (uint8_t i = 0; i < n; i++)
        e->members[i] = members[i];
    e->n_members = n;
    e->cls = self;
    e->recorder = UINT64_MAX;
    e->defined = 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_metric_instance(void *u, OTF2_MetricRef self, OTF2_MetricRef cls,
                                             OTF2_LocationRef recorder, OTF2_MetricScope scope_type, uint64_t scope)
{
    def_ctx *x = u;
    ENTRY(x, metrics, self, ot_metric);
    e->cls = cls;
    e->recorder = recorder; /* Score-P's location ids pass 2^32 */
    e->scope_type = scope_type;
    e->scope = scope;
    e->is_instance = 1;
    e->defined = 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode named(def_ctx *x, ot_table *t, uint64_t self, OTF2_StringRef name)
{
    ot_named *e = ot_table_at(t, self);
    if (!e) {
        x->nomem = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    e->name = name;
    e->defined = 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_param(void *u, OTF2_ParameterRef self, OTF2_StringRef name, OTF2_ParameterType type)
{
    def_ctx *x = u;
    (void)type;
    return named(x, &x->od->params, self, name);
}

static OTF2_CallbackCode def_win(void *u, OTF2_RmaWinRef self, OTF2_StringRef name, OTF2_CommRef comm,
                                 OTF2_RmaWinFlag flags)
{
    def_ctx *x = u;
    (void)comm, (void)flags;
    return named(x, &x->od->wins, self, name);
}

static OTF2_CallbackCode def_handle(void *u, OTF2_IoHandleRef self, OTF2_StringRef name, OTF2_IoFileRef file,
                                    OTF2_IoParadigmRef paradigm, OTF2_IoHandleFlag flags, OTF2_CommRef comm,
                                    OTF2_IoHandleRef parent)
{
    def_ctx *x = u;
    (void)file, (void)paradigm, (void)flags, (void)comm, (void)parent;
    return named(x, &x->od->handles, self, name);
}

static OTF2_GlobalDefReaderCallbacks *def_callbacks(void)
{
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    if (!cb)
        return NULL;
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, def_node);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, def_lgroup);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
    OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cb, def_member);
    OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(cb, def_metric_class);
    OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(cb, def_metric_instance);
    OTF2_GlobalDefReaderCallbacks_SetParameterCallback(cb, def_param);
    OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, def_win);
    OTF2_GlobalDefReaderCallbacks_SetIoHandleCallback(cb, def_handle);
    return cb;
}

/* The world rank of each location: its place in the MPI locations group. */
static void world_ranks(ot_dataset *od)
{
    const ot_group *g = ot_table_get(&od->groups, od->mpi_paradigm_group);
    if (!g)
        return;
    for (uint32_t i = 0; i < od->n_locs; i++)
        for (uint32_t r = 0; r < g->n_members; r++)
            if (g->members[r] == od->locs[i].id) {
                od->locs[i].world_rank = (int32_t)r;
                break;
            }
}

static void init_tables(ot_dataset *od)
{
    od->strings.size = sizeof(const char *);
    od->regions.size = sizeof(ot_region);
    od->nodes.size = sizeof(ot_node);
    od->lgroups.size = sizeof(ot_lgroup);
    od->groups.size = sizeof(ot_group);
    od->comms.size = sizeof(ot_comm);
    od->members.size = sizeof(ot_metric_member);
    od->metrics.size = sizeof(ot_metric);
    od->params.size = od->wins.size = od->handles.size = od->attrs.size = sizeof(ot_named);
    od->mpi_paradigm_group = UINT32_MAX;
}

pw_status ot_read_global_defs(pw_dataset *ds, ot_dataset *od, OTF2_Reader *rd, pw_error *err)
{
    init_tables(od);
    OTF2_GlobalDefReader *gr = OTF2_Reader_GetGlobalDefReader(rd);
    if (!gr)
        return ot_fail(err, PW_E_DATA, od->anchor, OTF2_ERROR_INVALID, "readable global definitions (traces.def) expected");
    OTF2_GlobalDefReaderCallbacks *cb = def_callbacks();
    if (!cb)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    def_ctx x = {ds, od, 0};
    OTF2_ErrorCode rc = OTF2_Reader_RegisterGlobalDefCallbacks(rd, gr, cb, &x);
    uint64_t n = 0;
    if (rc == OTF2_SUCCESS)
        rc = OTF2_Reader_ReadAllGlobalDefinitions(rd, gr, &n);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    OTF2_Reader_CloseGlobalDefReader(rd, gr);
    if (x.nomem)
        return pw_fail(err, PW_E_DATA, od->anchor, PW_NO_OFFSET,
                       "global definitions with references below 2^26 expected (or out of memory)");
    if (rc != OTF2_SUCCESS) {
        /* The global definitions are the anchor's name with .def. */
        size_t len = strlen(od->anchor);
        char defs[4096];
        snprintf(defs, sizeof defs, "%.*s.def", (int)(len > 5 ? len - 5 : len), od->anchor);
        return ot_fail(err, PW_E_DATA, defs, rc, "whole global definitions expected");
    }
    world_ranks(od);
    return PW_OK;
}
