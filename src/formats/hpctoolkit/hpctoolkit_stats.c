/* hpctoolkit_stats.c — what an hpcviewer user looks at, without a GUI:
 * the top-down tree of the summary profile (--depth, --threshold), the
 * flat and bottom-up (callers) views per procedure, per-profile min / mean
 * / max / imbalance of the top procedures, and from traces the samples
 * and time span per profile and the time spent per procedure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "formats/hpctoolkit/hpctoolkit.h"
#include "model/report.h"

#define TOP_PROCEDURES 10
#define FLAT_ROWS 25

typedef struct stats_ctx {
    pw_dataset *ds;
    hpc_dataset *h;
    double **incl, **excl;     /* per view metric, per context id (summary profile) */
    double *proc_incl, *proc_excl; /* first view metric, per procedure */
    uint32_t *order;           /* procedures by exclusive value, descending */
    /* Making a part: the profiles of the share, and where their figures go
     * (the views are computed, not reported, and damage to the summary
     * profile is left to the join to report). */
    const uint8_t *mine;
    pw_part_writer *part;
    /* Joining: the parts, whose figures replace reading the profiles. */
    pw_part_reader *parts;
    size_t n_parts;
    pw_rnode *database; /* the one-row table of the database's figures */
} stats_ctx;

static const double *sort_key;
static int by_key_desc(const void *a, const void *b)
{
    double x = sort_key[*(const uint32_t *)a], y = sort_key[*(const uint32_t *)b];
    return x < y ? 1 : x > y ? -1 : (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

/* qsort has no context argument: the key lives in a static while sorting
 * (stats run on one thread). */
static void sort_desc(uint32_t *idx, uint32_t n, const double *key)
{
    for (uint32_t i = 0; i < n; i++)
        idx[i] = i;
    sort_key = key;
    qsort(idx, n, sizeof *idx, by_key_desc);
}

static void metric_columns(stats_ctx *s, pw_rnode *row, uint32_t id)
{
    hpc_dataset *h = s->h;
    for (uint32_t m = 0; m < h->n_views; m++) {
        char key[160];
        double total = s->incl[m][0];
        snprintf(key, sizeof key, "%s (I)", h->views[m].name);
        pw_rnode_num(row, key, s->incl[m][id]);
        snprintf(key, sizeof key, "%s (E)", h->views[m].name);
        pw_rnode_num(row, key, s->excl[m][id]);
        snprintf(key, sizeof key, "%s (I %%)", h->views[m].name);
        pw_rnode_num(row, key, total > 0 ? 100.0 * s->incl[m][id] / total : 0.0);
    }
}

/* A context's row: its id, plain name, depth and parent (the tree as
 * data; text indents the name by the depth), kind and metric columns. */
static void top_down_row(stats_ctx *s, pw_rnode *arr, uint32_t id, uint32_t depth)
{
    char label[256];
    pw_rnode *row = pw_rnode_object(arr, NULL);
    pw_rnode_uint(row, "id", id);
    pw_rnode_str(row, "name", hpc_ctx_label(s->h, id, label, sizeof label));
    pw_rnode_uint(row, "depth", depth);
    if (s->h->ctx[id].parent == HPC_NONE || id == 0)
        pw_rnode_null(row, "parent");
    else
        pw_rnode_uint(row, "parent", s->h->ctx[id].parent);
    pw_rnode_str(row, "kind", hpc_ctx_kind_name((hpc_ctx_kind)s->h->ctx[id].kind));
    metric_columns(s, row, id);
}

/* A context to visit and its depth. */
typedef struct visit {
    uint32_t id, depth;
} visit;

/* Pushes the children of `id` so that the one of largest inclusive value
 * (first view metric) pops first: hpcviewer's order, the hot path first.
 * Without metrics, the database's order.  Returns the new stack top. */
static size_t push_children(stats_ctx *s, visit *stack, size_t top, uint32_t *kids, uint32_t id, uint32_t depth)
{
    hpc_dataset *h = s->h;
    uint32_t n = 0;
    for (uint32_t c = h->ctx[id].first_child; c != HPC_NONE; c = h->ctx[c].next_sibling)
        kids[n++] = c;
    if (h->n_views && n > 1) {
        sort_key = s->incl[0];
        qsort(kids, n, sizeof *kids, by_key_desc);
    }
    while (n > 0)
        stack[top++] = (visit){kids[--n], depth};
    return top;
}

/* Depth-first over the tree, siblings by inclusive value, pruning below
 * the threshold and beyond the depth: the first rows are the hot path. */
static void top_down(stats_ctx *s, pw_rnode *root)
{
    hpc_dataset *h = s->h;
    pw_rnode *arr = pw_rnode_array(root, "top_down");
    double total = h->n_views ? s->incl[0][0] : 0;
    double cut = total > 0 ? total * h->threshold / 100.0 : -1.0;
    visit *stack = malloc(((size_t)h->n_ids + 1) * sizeof *stack);
    uint32_t *kids = malloc(((size_t)h->n_ids + 1) * sizeof *kids);
    if (!stack || !kids) {
        free(stack);
        free(kids);
        pw_report_set_nomem();
        return;
    }
    top_down_row(s, arr, 0, 0);
    size_t top = push_children(s, stack, 0, kids, 0, 1);
    while (top > 0) {
        visit v = stack[--top];
        int shown = (h->depth == 0 || v.depth <= (uint32_t)h->depth) && (!h->n_views || s->incl[0][v.id] >= cut);
        if (!shown)
            continue;
        top_down_row(s, arr, v.id, v.depth);
        top = push_children(s, stack, top, kids, v.id, v.depth + 1);
    }
    free(stack);
    free(kids);
}

/* The first screen: the hot path, from the root down the child of largest
 * inclusive value (first view metric) while it has any. */
static void hot_path(stats_ctx *s, pw_rnode *root)
{
    hpc_dataset *h = s->h;
    const double *incl = s->incl[0];
    double total = incl[0];
    pw_rnode *arr = pw_rnode_array(root, "summary");
    char label[256];
    for (uint32_t id = 0, depth = 0; id != HPC_NONE && depth <= h->n_ids; depth++) {
        pw_rnode *row = pw_rnode_object(arr, NULL);
        pw_rnode_uint(row, "depth", depth);
        pw_rnode_str(row, "name", hpc_ctx_label(h, id, label, sizeof label));
        pw_rnode_num(row, "inclusive", incl[id]);
        pw_rnode_num(row, "inclusive_pct", total > 0 ? 100.0 * incl[id] / total : 0.0);
        uint32_t best = HPC_NONE;
        for (uint32_t c = h->ctx[id].first_child; c != HPC_NONE; c = h->ctx[c].next_sibling)
            if (incl[c] > 0 && (best == HPC_NONE || incl[c] > incl[best] || (incl[c] == incl[best] && c < best)))
                best = c;
        id = best;
    }
}

static const char *proc_name(const hpc_dataset *h, uint32_t p)
{
    return p < h->n_procs && h->procs[p].name ? h->procs[p].name : "<unknown>";
}

static void flat(stats_ctx *s, pw_rnode *root)
{
    hpc_dataset *h = s->h;
    pw_rnode *arr = pw_rnode_array(root, "flat");
    double total = s->incl[0][0];
    for (uint32_t i = 0; i < h->n_procs && i < FLAT_ROWS; i++) {
        uint32_t p = s->order[i];
        if (s->proc_excl[p] == 0 && s->proc_incl[p] == 0)
            break;
        pw_rnode *row = pw_rnode_object(arr, NULL);
        pw_rnode_str(row, "procedure", proc_name(h, p));
        char key[160];
        snprintf(key, sizeof key, "%s (I)", h->views[0].name);
        pw_rnode_num(row, key, s->proc_incl[p]);
        snprintf(key, sizeof key, "%s (E)", h->views[0].name);
        pw_rnode_num(row, key, s->proc_excl[p]);
        snprintf(key, sizeof key, "%s (E %%)", h->views[0].name);
        pw_rnode_num(row, key, total > 0 ? 100.0 * s->proc_excl[p] / total : 0.0);
        pw_rnode_str(row, "module", h->procs[p].module ? h->procs[p].module : "");
    }
}

/* Callers of the top procedures: exclusive cost grouped by the procedure
 * of the nearest enclosing procedure context. */
static void bottom_up(stats_ctx *s, pw_rnode *root)
{
    hpc_dataset *h = s->h;
    pw_rnode *arr = pw_rnode_array(root, "bottom_up");
    char key[160];
    snprintf(key, sizeof key, "%s (E)", h->views[0].name);
    uint32_t callers[64];
    double cost[64];
    for (uint32_t i = 0; i < h->n_procs && i < TOP_PROCEDURES; i++) {
        uint32_t p = s->order[i], n = 0;
        if (s->proc_excl[p] == 0)
            break;
        for (uint32_t id = 1; id < h->n_ids; id++) {
            const hpc_ctx *c = &h->ctx[id];
            if (!c->present || c->proc != p || s->excl[0][id] == 0)
                continue;
            uint32_t caller = hpc_ctx_proc(h, c->parent), k = 0;
            while (k < n && callers[k] != caller)
                k++;
            if (k == n && n < 64) {
                callers[n] = caller;
                cost[n++] = 0;
            }
            if (k < n)
                cost[k] += s->excl[0][id];
        }
        for (uint32_t k = 0; k < n; k++) {
            pw_rnode *row = pw_rnode_object(arr, NULL);
            pw_rnode_str(row, "procedure", proc_name(h, p));
            pw_rnode_str(row, "caller", callers[k] == HPC_NONE ? "<root>" : proc_name(h, callers[k]));
            pw_rnode_num(row, key, cost[k]);
        }
    }
}

/* min / mean / max over the non-summary profiles of the top procedures'
 * exclusive values, and imbalance = (max - mean) / max. */
static pw_status imbalance(stats_ctx *s, pw_rnode *root, pw_error *err)
{
    hpc_dataset *h = s->h;
    uint32_t n = h->n_procs < TOP_PROCEDURES ? h->n_procs : TOP_PROCEDURES, chosen[TOP_PROCEDURES];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (s->proc_excl[s->order[i]] > 0)
            chosen[k++] = s->order[i];
    uint32_t threads = 0;
    for (uint32_t p = 0; p < h->n_profs; p++)
        threads += !h->profs[p].summary;
    if (!k || !threads || h->views[0].prof_excl < 0)
        return PW_OK;
    double *v = malloc((size_t)h->n_profs * k * sizeof *v);
    if (!v)
        return pw_fail(err, PW_E_NOMEM, s->ds->path, PW_NO_OFFSET, "out of memory");
    pw_status st = PW_OK;
    if (!s->parts)
        st = hpc_procedure_by_profile(s->ds, &h->views[0], chosen, k, s->mine, v, err);
    else if (!hpc_part_get_rows(s->parts, s->n_parts, h->n_profs, k, v))
        st = pw_fail(err, PW_E_USAGE, s->ds->path, PW_NO_OFFSET, "a stats part does not fit this database");
    if (s->part) {
        hpc_part_put_rows(s->part, s->mine, h->n_profs, k, v);
        free(v);
        return st;
    }
    pw_rnode *arr = pw_rnode_array(root, "imbalance");
    for (uint32_t j = 0; st == PW_OK && j < k; j++) {
        double mn = 0, mx = 0, sum = 0;
        int first = 1;
        for (uint32_t p = 0; p < h->n_profs; p++) {
            if (h->profs[p].summary)
                continue;
            double x = v[(size_t)p * k + j];
            mn = first || x < mn ? x : mn;
            mx = first || x > mx ? x : mx;
            sum += x;
            first = 0;
        }
        double mean = sum / threads;
        pw_rnode *row = pw_rnode_object(arr, NULL);
        pw_rnode_str(row, "procedure", proc_name(h, chosen[j]));
        pw_rnode_uint(row, "profiles", threads);
        pw_rnode_num(row, "min", mn);
        pw_rnode_num(row, "mean", mean);
        pw_rnode_num(row, "max", mx);
        pw_rnode_num(row, "imbalance_pct", mx > 0 ? 100.0 * (mx - mean) / mx : 0.0);
    }
    free(v);
    return st;
}

static pw_status traces(stats_ctx *s, pw_rnode *root, pw_error *err)
{
    hpc_dataset *h = s->h;
    if (!h->n_traces)
        return PW_OK;
    hpc_trace_figures *fig = malloc(h->n_traces * sizeof *fig);
    double *ns = malloc(((size_t)h->n_procs + 1) * sizeof *ns);
    uint32_t *order = malloc(((size_t)h->n_procs + 1) * sizeof *order);
    pw_status st = fig && ns && order ? PW_OK : pw_fail(err, PW_E_NOMEM, s->ds->path, PW_NO_OFFSET, "out of memory");
    if (st == PW_OK && !s->parts)
        st = hpc_trace_time(s->ds, s->mine, fig, ns, err);
    else if (st == PW_OK && !hpc_part_get_traces(s->parts, s->n_parts, h, fig, ns))
        st = pw_fail(err, PW_E_USAGE, s->ds->path, PW_NO_OFFSET, "a stats part does not fit this database");
    if (st == PW_OK && s->part)
        hpc_part_put_traces(s->part, h, s->mine, fig, ns);
    else if (st == PW_OK) {
        pw_rnode *arr = pw_rnode_array(root, "trace_lines");
        double all = 0;
        for (uint32_t i = 0; i < h->n_traces; i++) {
            pw_rnode *row = pw_rnode_object(arr, NULL);
            pw_rnode_str(row, "profile", h->profs[h->traces[i].prof].tuple);
            pw_rnode_uint(row, "samples", fig[i].samples);
            pw_rnode_uint(row, "first_ns", fig[i].t_first);
            pw_rnode_uint(row, "last_ns", fig[i].t_last);
            pw_rnode_num(row, "span_s", (double)(fig[i].t_last - fig[i].t_first) / 1e9);
        }
        for (uint32_t i = 0; i <= h->n_procs; i++)
            all += ns[i];
        sort_desc(order, h->n_procs + 1, ns);
        arr = pw_rnode_array(root, "trace_time");
        for (uint32_t i = 0; i <= h->n_procs && i < FLAT_ROWS && ns[order[i]] > 0; i++) {
            pw_rnode *row = pw_rnode_object(arr, NULL);
            pw_rnode_str(row, "procedure",
                         order[i] == h->n_procs ? "<not running>" : proc_name(h, order[i]));
            pw_rnode_num(row, "time_s", ns[order[i]] / 1e9);
            pw_rnode_num(row, "share_pct", all > 0 ? 100.0 * ns[order[i]] / all : 0.0);
        }
    }
    free(fig);
    free(ns);
    free(order);
    return st;
}

static void describe(hpc_dataset *h, pw_rnode *root)
{
    pw_rnode *arr = pw_rnode_array(root, "metrics");
    for (uint32_t i = 0; i < h->n_metrics; i++) {
        const hpc_metric *m = &h->metrics[i];
        pw_rnode *row = pw_rnode_object(arr, NULL);
        pw_rnode_uint(row, "id", m->id);
        pw_rnode_str(row, "in", m->summary ? "summary" : "profiles");
        pw_rnode_str(row, "name", m->name ? m->name : "");
        pw_rnode_str(row, "scope", m->scope ? m->scope : "");
        pw_rnode_str(row, "combine", m->combine ? m->combine : "");
    }
    arr = pw_rnode_array(root, "profiles");
    for (uint32_t i = 0; i < h->n_profs; i++) {
        const hpc_profile *p = &h->profs[i];
        pw_rnode *row = pw_rnode_object(arr, NULL);
        pw_rnode_uint(row, "index", i);
        pw_rnode_str(row, "profile", p->tuple);
        pw_rnode_uint(row, "values", p->n_values);
        pw_rnode_uint(row, "contexts", p->n_ctxs);
        pw_rnode_uint(row, "trace_samples",
                      p->trace == HPC_NONE ? 0 : hpc_trace_samples(&h->traces[p->trace]));
    }
}

/* Adds profile p's columns of view metric m into the summary columns. */
static pw_status add_columns(stats_ctx *s, uint32_t p, uint32_t m, double *incl, double *excl,
                             pw_error *err)
{
    hpc_dataset *h = s->h;
    pw_error e;
    pw_status st = hpc_profile_columns(h, p, &h->views[m], incl, excl, &e);
    if (st == PW_E_DATA && !s->part) /* damage: the views show what could be read */
        pw_ds_diag_error(s->ds, PW_SEV_ERROR, "hpctoolkit.bad-values", &e);
    else if (st != PW_OK)
        return *err = e, st;
    if (incl != s->incl[m])
        for (uint32_t i = 0; i < h->n_ids; i++) {
            s->incl[m][i] += incl[i];
            s->excl[m][i] += excl[i];
        }
    return PW_OK;
}

/* The summary profile's columns; the old format has no summary profile,
 * so its columns are the sums over all profiles. */
static pw_status summary_columns(stats_ctx *s, pw_error *err)
{
    hpc_dataset *h = s->h;
    int summed = h->gen == HPC_OLD_XML;
    double *ti = summed ? malloc(h->n_ids * sizeof(double)) : NULL;
    double *te = summed ? malloc(h->n_ids * sizeof(double)) : NULL;
    pw_status st = !summed || (ti && te) ? PW_OK
                                         : pw_fail(err, PW_E_NOMEM, s->ds->path, PW_NO_OFFSET,
                                                   "out of memory");
    for (uint32_t m = 0; st == PW_OK && m < h->n_views; m++) {
        s->incl[m] = calloc(h->n_ids, sizeof(double));
        s->excl[m] = calloc(h->n_ids, sizeof(double));
        if (!s->incl[m] || !s->excl[m])
            st = pw_fail(err, PW_E_NOMEM, s->ds->path, PW_NO_OFFSET, "out of memory");
        else if (!summed)
            st = add_columns(s, 0, m, s->incl[m], s->excl[m], err);
        for (uint32_t p = 0; summed && st == PW_OK && p < h->n_profs; p++)
            st = add_columns(s, p, m, ti, te, err);
    }
    free(ti);
    free(te);
    return st;
}

/* Is a metric's name one of time ("CPUTIME (sec)", "REALTIME")? */
static int is_time_metric(const char *name)
{
    for (const char *p = name; p && *p; p++)
        if (!strncasecmp(p, "time", 4) || !strncmp(p, "(sec)", 5) || !strncmp(p, "(usec)", 6))
            return 1;
    return 0;
}

/* The view metric the views sort and prune by: --metric NAME, else the
 * first with a non-zero total, time metrics first (a CUDA database whose
 * first metric is zero otherwise shows an empty tree). */
static pw_status choose_metric(stats_ctx *s, uint32_t *chosen, pw_error *err)
{
    hpc_dataset *h = s->h;
    *chosen = 0;
    if (h->metric) {
        for (uint32_t m = 0; m < h->n_views; m++)
            if (h->views[m].name && !strcmp(h->views[m].name, h->metric))
                return *chosen = m, PW_OK;
        return pw_fail(err, PW_E_USAGE, s->ds->path, PW_NO_OFFSET,
                       "--metric: no metric named \"%s\" (see the metrics table of stats)", h->metric);
    }
    for (int time_only = 1; time_only >= 0; time_only--)
        for (uint32_t m = 0; m < h->n_views; m++)
            if (s->incl[m][0] != 0 && (!time_only || is_time_metric(h->views[m].name)))
                return *chosen = m, PW_OK;
    return PW_OK;
}

/* Makes view metric m the first (the one the views use). */
static void swap_first_view(stats_ctx *s, uint32_t m)
{
    hpc_dataset *h = s->h;
    hpc_view_metric v = h->views[0];
    h->views[0] = h->views[m];
    h->views[m] = v;
    double *t = s->incl[0];
    s->incl[0] = s->incl[m];
    s->incl[m] = t;
    t = s->excl[0];
    s->excl[0] = s->excl[m];
    s->excl[m] = t;
}

static pw_status views_of_first(stats_ctx *s, pw_rnode *root, pw_error *err);

static pw_status views(stats_ctx *s, pw_rnode *root, pw_error *err)
{
    uint32_t chosen = 0;
    pw_status st = summary_columns(s, err);
    if (st == PW_OK && s->h->n_views)
        st = choose_metric(s, &chosen, err);
    if (st != PW_OK)
        return st;
    swap_first_view(s, chosen);
    st = views_of_first(s, root, err);
    swap_first_view(s, chosen); /* the dataset keeps its own order */
    return st;
}

/* The views by the first view metric: the summary views read profile 0
 * only; imbalance reads them all. */
static pw_status views_of_first(stats_ctx *s, pw_rnode *root, pw_error *err)
{
    hpc_dataset *h = s->h;
    s->proc_incl = malloc((h->n_procs + 1) * sizeof(double));
    s->proc_excl = malloc((h->n_procs + 1) * sizeof(double));
    s->order = malloc((h->n_procs + 1) * sizeof(uint32_t));
    if (!s->proc_incl || !s->proc_excl || !s->order)
        return pw_fail(err, PW_E_NOMEM, s->ds->path, PW_NO_OFFSET, "out of memory");
    hpc_procedure_totals(h, s->incl[0], s->excl[0], s->proc_incl, s->proc_excl);
    sort_desc(s->order, h->n_procs, s->proc_excl);
    pw_rnode_num(s->database, "total", s->incl[0][0]);
    pw_rnode_str(s->database, "metric", h->views[0].name);
    hot_path(s, root);
    top_down(s, root);
    flat(s, root);
    bottom_up(s, root);
    return h->summary_only ? PW_OK : imbalance(s, root, err);
}

/* The values of one context in one profile: a binary search in the
 * profile's context index, whatever the database size. */
static pw_status lookup(pw_dataset *ds, hpc_dataset *h, pw_rnode *root, pw_error *err)
{
    if (h->lookup_prof >= h->n_profs)
        return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                       "--lookup: profile %u does not exist (%u profiles)", h->lookup_prof,
                       h->n_profs);
    const hpc_profile *p = &h->profs[h->lookup_prof];
    hpc_file f;
    pw_status st = hpc_file_open(&f, p->path, h->big, 4096, err);
    uint64_t first = 0, end = 0;
    if (st == PW_OK)
        st = hpc_profile_find(h, p, &f, h->lookup_ctx, &first, &end, err);
    char label[256];
    pw_rnode *of = pw_rnode_object(root, "lookup_of");
    pw_rnode_str(of, "context", hpc_ctx_label(h, h->lookup_ctx, label, sizeof label));
    pw_rnode_str(of, "profile", p->tuple);
    pw_rnode *arr = pw_rnode_array(root, "lookup");
    for (uint64_t i = first; st == PW_OK && i < end; i++) {
        uint16_t m;
        double v;
        if ((st = hpc_profile_value(h, p, &f, i, &m, &v, err)) != PW_OK)
            break;
        const hpc_metric *md = hpc_metric_find(h, m, p->summary);
        pw_rnode *row = pw_rnode_object(arr, NULL);
        pw_rnode_uint(row, "metric", m);
        pw_rnode_str(row, "name", md && md->name ? md->name : "?");
        pw_rnode_str(row, "scope", md && md->scope ? md->scope : "?");
        pw_rnode_num(row, "value", v);
    }
    hpc_file_close(&f);
    return st;
}

/* The report of the database into r, as far as the context says: whole,
 * a part's figures, or the report from joined parts. */
static pw_status stats_run(stats_ctx *s, pw_report *r, pw_error *err)
{
    pw_dataset *ds = s->ds;
    hpc_dataset *h = s->h;
    pw_rnode *root = pw_report_root(r);
    if (h->has_lookup)
        return lookup(ds, h, root, err);
    s->database = pw_rnode_object(root, "database");
    pw_rnode_str(s->database, "path", ds->path);
    pw_rnode_str(s->database, "format", ds->version);
    pw_rnode_uint(s->database, "contexts", h->n_contexts);
    pw_rnode_uint(s->database, "profiles", h->n_profs);
    pw_rnode_uint(s->database, "traces", h->n_traces);
    describe(h, root);
    s->incl = calloc(h->n_views ? h->n_views : 1, sizeof *s->incl);
    s->excl = calloc(h->n_views ? h->n_views : 1, sizeof *s->excl);
    pw_status st = s->incl && s->excl ? PW_OK
                                      : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET,
                                                "out of memory");
    if (st == PW_OK && h->n_views && h->n_profs && (h->profs[0].summary || h->gen == HPC_OLD_XML))
        st = views(s, root, err);
    if (st == PW_OK && !h->summary_only)
        st = traces(s, root, err);
    for (uint32_t m = 0; s->incl && m < h->n_views; m++) {
        free(s->incl[m]);
        free(s->excl[m]);
    }
    free(s->incl);
    free(s->excl);
    free(s->proc_incl);
    free(s->proc_excl);
    free(s->order);
    return st;
}

pw_status hpc_stats(pw_dataset *ds, pw_report *r, pw_error *err)
{
    stats_ctx s = {.ds = ds, .h = ds->impl};
    return stats_run(&s, r, err);
}

/* Whether a part can hold this database's figures: the old format's
 * summary columns are sums over every profile, and a look-up reads one
 * profile; then the join computes the report alone. */
static int parts_apply(const hpc_dataset *h)
{
    return h->gen != HPC_OLD_XML && !h->has_lookup;
}

pw_status hpc_stats_part(pw_dataset *ds, size_t first, size_t end, void **part, size_t *size, pw_error *err)
{
    hpc_dataset *h = ds->impl;
    size_t n;
    uint32_t *locs = pw_ds_record_locations(ds, &n);
    uint8_t *mine = calloc(h->n_profs ? h->n_profs : 1, 1);
    pw_report *scratch = pw_report_new(); /* the views a part computes, not sent */
    pw_part_writer w = {0};
    pw_status st = locs && mine && scratch ? PW_OK : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    end = end < n ? end : n;
    for (uint32_t p = 0; st == PW_OK && p < h->n_profs; p++)
        for (size_t i = first; i < end; i++)
            mine[p] |= locs[i] == (uint32_t)h->profs[p].location;
    pw_part_put_word(&w, pw_ds_locations_digest(ds));
    stats_ctx s = {.ds = ds, .h = h, .mine = mine, .part = &w};
    if (st == PW_OK && parts_apply(h))
        st = stats_run(&s, scratch, err);
    pw_report_free(scratch);
    free(mine);
    return pw_part_finish(&w, st, ds->path, part, size, err);
}

pw_status hpc_stats_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n, pw_report *r,
                         pw_error *err)
{
    pw_part_reader *readers = calloc(n ? n : 1, sizeof *readers);
    if (!readers)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < n; i++) {
        readers[i] = pw_part_reader_of(parts[i], sizes[i]);
        if (pw_part_next(&readers[i]) != pw_ds_locations_digest(ds)) {
            free(readers);
            return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET, "stats part %zu does not fit this dataset", i);
        }
    }
    stats_ctx s = {.ds = ds, .h = ds->impl, .parts = parts_apply(ds->impl) ? readers : NULL, .n_parts = n};
    pw_status st = stats_run(&s, r, err);
    free(readers);
    return st;
}
