/* hpctoolkit_metrics.c — the metric ids of a database and the
 * inclusive/exclusive pairs the views show. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "formats/hpctoolkit/hpctoolkit.h"

pw_status hpc_metric_add(pw_dataset *ds, hpc_dataset *h, uint16_t id, int summary,
                         const char *name, const char *scope, const char *combine,
                         pw_error *err)
{
    if (h->n_metrics == h->cap_metrics) {
        uint32_t cap = h->cap_metrics ? h->cap_metrics * 2 : 16;
        hpc_metric *m = realloc(h->metrics, cap * sizeof *m);
        if (!m)
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
        h->metrics = m;
        h->cap_metrics = cap;
    }
    h->metrics[h->n_metrics++] = (hpc_metric){id, (uint8_t)(summary != 0), name, scope, combine};
    return PW_OK;
}

const hpc_metric *hpc_metric_find(const hpc_dataset *h, uint16_t id, int summary)
{
    for (uint32_t i = 0; i < h->n_metrics; i++)
        if (h->metrics[i].id == id && h->metrics[i].summary == (summary != 0))
            return &h->metrics[i];
    return NULL;
}

static int str_eq(const char *a, const char *b) { return a && b && !strcmp(a, b); }

/* The view metric named `name`, added when new. */
static hpc_view_metric *view_of(hpc_dataset *h, const char *name)
{
    for (uint32_t i = 0; i < h->n_views; i++)
        if (str_eq(h->views[i].name, name))
            return &h->views[i];
    h->views[h->n_views] = (hpc_view_metric){name, -1, -1, -1, -1};
    return &h->views[h->n_views++];
}

/* Inclusive = "execution" scope (released) or "inclusive" (prototype);
 * exclusive = "function" scope or "exclusive".  Summary ids count only
 * when they are plain sums. */
pw_status hpc_views_build(pw_dataset *ds, hpc_dataset *h, pw_error *err)
{
    h->views = pw_ds_alloc(ds, (h->n_metrics ? h->n_metrics : 1) * sizeof *h->views);
    if (!h->views)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; i < h->n_metrics; i++) {
        const hpc_metric *m = &h->metrics[i];
        int incl = str_eq(m->scope, "execution") || str_eq(m->scope, "inclusive");
        int excl = str_eq(m->scope, "function") || str_eq(m->scope, "exclusive");
        if (!incl && !excl)
            continue;
        if (m->summary && !str_eq(m->combine, "sum"))
            continue;
        hpc_view_metric *v = view_of(h, m->name);
        int32_t *slot = m->summary ? (incl ? &v->sum_incl : &v->sum_excl)
                                   : (incl ? &v->prof_incl : &v->prof_excl);
        if (*slot < 0)
            *slot = m->id;
    }
    return PW_OK;
}
