/* otf2_energy.c — energy attributed to code regions ("energy_by_region").
 * Per system tree node that has power samples, the events of its
 * locations are merged by time (one cursor each, so memory is the open
 * state: region stacks and one open segment per signal).  Each power
 * signal is linear between its samples (the trapezoid rule; an energy
 * counter's difference is spread evenly); at every instant it is split
 * equally among the node's locations that are inside a region, each share
 * going to that location's innermost region (exclusive time), or wholly
 * to "(outside regions)" when none is.  Between two samples of a signal
 * the power is p0 + slope * (t - t0), so a region's share of that segment
 * is p0 * S0 + slope * S1 with S0 = sum of w dt and S1 = sum of
 * w (t - t0) dt over the stretches where it held weight w: two sums per
 * (signal, region), booked when the segment's second sample comes.  A
 * window clips the integration to [start, end). */
#include <stdlib.h>
#include <string.h>

#include "formats/otf2/otf2_energy.h"
#include "model/filter.h"
#include "model/table.h"

static const pw_table_decl energy_by_region_table = {
    "energy_by_region",
    "Energy by region",
    "the power samples integrated (trapezoid rule) over each region's exclusive time on its system tree node",
    "most energy first, then the time outside every region",
    {{"region", "", 1}, {"energy_J", "J", 0}, {"time_s", "s", 0}, {"mean_W", "W", 0}, {NULL, NULL, 0}},
};

/* Sums per region (the last index: outside every region), with the list
 * of those touched since the last reset so that a reset costs what was
 * touched. */
typedef struct moments {
    double *s0, *s1;
    uint32_t *touched;
    uint8_t *mark;
    uint32_t n_touched;
} moments;

typedef struct signal {
    uint32_t spec, loc; /* loc: the recording cursor */
    int open;
    int64_t t0;
    double v0; /* W, or J of the counter */
    moments m;
} signal;

typedef struct lane { /* one location of the node */
    pw_cursor *c;
    const ot_event *ev;
    int64_t t;
    int64_t node; /* its system tree node */
    uint32_t *stack;
    uint32_t depth, cap;
} lane;

typedef struct node_run {
    pw_dataset *ds;
    const ot_dataset *od;
    const ot_power_specs *ps;
    int64_t node;
    uint32_t n_regions; /* R: od's regions + 1 for outside */
    lane *lanes;
    uint32_t n_lanes;
    uint32_t *heap; /* lanes by (t, index) */
    uint32_t n_heap;
    uint32_t *active; /* per region: lanes whose innermost region it is */
    uint32_t *active_list, *active_pos, n_active;
    uint32_t n_inside;
    signal *signals;
    uint32_t n_signals;
    moments pending; /* node time since its last sample */
    int started;
    int windowed;
    int64_t win_start, win_end;
    double *energy, *time; /* the totals, per region */
} node_run;

static int moments_init(moments *m, uint32_t n)
{
    m->s0 = calloc(n, sizeof *m->s0);
    m->s1 = calloc(n, sizeof *m->s1);
    m->touched = malloc(n * sizeof *m->touched);
    m->mark = calloc(n, 1);
    m->n_touched = 0;
    return m->s0 && m->s1 && m->touched && m->mark;
}

static void moments_free(moments *m)
{
    free(m->s0);
    free(m->s1);
    free(m->touched);
    free(m->mark);
}

static void moments_add(moments *m, uint32_t r, double s0, double s1)
{
    if (!m->mark[r]) {
        m->mark[r] = 1;
        m->touched[m->n_touched++] = r;
    }
    m->s0[r] += s0;
    m->s1[r] += s1;
}

static void moments_reset(moments *m)
{
    for (uint32_t k = 0; k < m->n_touched; k++) {
        uint32_t r = m->touched[k];
        m->s0[r] = m->s1[r] = 0;
        m->mark[r] = 0;
    }
    m->n_touched = 0;
}

/* The stretch [a, b) (ns) with its weights: region r holds active[r] of
 * the n_inside locations inside a region, or outside holds all. */
static void advance(node_run *n, int64_t a, int64_t b)
{
    if (n->windowed) {
        a = a > n->win_start ? a : n->win_start;
        b = b < n->win_end ? b : n->win_end;
    }
    if (a >= b)
        return;
    uint32_t outside = n->n_regions - 1;
    uint32_t count = n->n_inside ? n->n_active : 1;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t r = n->n_inside ? n->active_list[k] : outside;
        double w = n->n_inside ? (double)n->active[r] / n->n_inside : 1.0;
        double dt = (double)(b - a) / 1e9;
        for (uint32_t s = 0; s < n->n_signals; s++) {
            signal *g = &n->signals[s];
            if (!g->open)
                continue;
            double ea = (double)(a - g->t0) / 1e9, eb = (double)(b - g->t0) / 1e9;
            moments_add(&g->m, r, w * dt, w * (eb * eb - ea * ea) / 2);
        }
        if (n->started)
            moments_add(&n->pending, r, w * dt, 0);
    }
}

/* Region r gains (+1) or loses (-1) a location whose innermost it is. */
static void activate(node_run *n, uint32_t r, int delta)
{
    if (delta > 0 && n->active[r]++ == 0) {
        n->active_pos[r] = n->n_active;
        n->active_list[n->n_active++] = r;
    } else if (delta < 0 && --n->active[r] == 0) {
        uint32_t last = n->active_list[--n->n_active];
        n->active_list[n->active_pos[r]] = last;
        n->active_pos[last] = n->active_pos[r];
    }
}

static int on_enter(node_run *n, lane *l, uint32_t region)
{
    if (region >= n->n_regions - 1)
        region = n->n_regions - 1; /* an undefined region: check names it */
    if (l->depth == l->cap) {
        uint32_t cap = l->cap ? l->cap * 2 : 16;
        uint32_t *p = realloc(l->stack, cap * sizeof *p);
        if (!p)
            return 0;
        l->stack = p;
        l->cap = cap;
    }
    if (l->depth)
        activate(n, l->stack[l->depth - 1], -1);
    else
        n->n_inside++;
    l->stack[l->depth++] = region;
    activate(n, region, +1);
    return 1;
}

/* A Leave closes the innermost region; one that closes another is left
 * to check, as the region tables do. */
static void on_leave(node_run *n, lane *l, uint32_t region)
{
    if (region >= n->n_regions - 1)
        region = n->n_regions - 1;
    if (!l->depth || l->stack[l->depth - 1] != region)
        return;
    activate(n, region, -1);
    if (--l->depth)
        activate(n, l->stack[l->depth - 1], +1);
    else
        n->n_inside--;
}

/* The signal of (spec, recording lane), made on its first sample. */
static signal *signal_of(node_run *n, uint32_t spec, uint32_t lane_ix)
{
    for (uint32_t s = 0; s < n->n_signals; s++)
        if (n->signals[s].spec == spec && n->signals[s].loc == lane_ix)
            return &n->signals[s];
    signal *g = realloc(n->signals, (n->n_signals + 1) * sizeof *g);
    if (!g)
        return NULL;
    n->signals = g;
    g = &n->signals[n->n_signals];
    *g = (signal){.spec = spec, .loc = lane_ix};
    if (!moments_init(&g->m, n->n_regions)) {
        moments_free(&g->m);
        return NULL;
    }
    n->n_signals++;
    return g;
}

static double value_of(const ot_event *e, uint8_t member)
{
    uint64_t x = e->extra[member];
    if (e->extra_types[member] == OTF2_TYPE_DOUBLE) {
        double d;
        memcpy(&d, &x, sizeof d);
        return d;
    }
    return e->extra_types[member] == OTF2_TYPE_INT64 ? (double)(int64_t)x : (double)x;
}

/* A sample closes the signal's open segment: its share per region. */
static void on_sample(node_run *n, signal *g, const ot_power_spec *sp, int64_t t, double v)
{
    double dt = (double)(t - g->t0) / 1e9;
    if (g->open && dt > 0) {
        double p0 = sp->counter ? (v - g->v0) / dt : g->v0;
        double slope = sp->counter ? 0 : (v - g->v0) / dt;
        if (p0 >= 0 || !sp->counter) /* a counter that went back was reset: that segment is lost */
            for (uint32_t k = 0; k < g->m.n_touched; k++) {
                uint32_t r = g->m.touched[k];
                n->energy[r] += p0 * g->m.s0[r] + slope * g->m.s1[r];
            }
    }
    moments_reset(&g->m);
    g->open = 1;
    g->t0 = t;
    g->v0 = v;
    /* The node's time counts from its first sample to its last. */
    for (uint32_t k = 0; k < n->pending.n_touched; k++)
        n->time[n->pending.touched[k]] += n->pending.s0[n->pending.touched[k]];
    moments_reset(&n->pending);
    n->started = 1;
}

/* The power samples of a Metric event that belong to this node. */
static pw_status on_metric(node_run *n, uint32_t lane_ix, const ot_event *e, int64_t t, pw_error *err)
{
    uint32_t ref = (uint32_t)e->a[0];
    int32_t first = ref < n->ps->n_refs ? n->ps->first[ref] : -1;
    for (uint32_t k = first < 0 ? n->ps->n : (uint32_t)first; k < n->ps->n && n->ps->specs[k].ref == ref; k++) {
        const ot_power_spec *sp = &n->ps->specs[k];
        int64_t node = sp->node >= 0 ? sp->node : n->lanes[lane_ix].node;
        if (node != n->node || sp->member >= e->n_extra)
            continue;
        signal *g = signal_of(n, k, lane_ix);
        if (!g)
            return pw_fail(err, PW_E_NOMEM, n->ds->path, PW_NO_OFFSET, "out of memory");
        on_sample(n, g, sp, t, value_of(e, sp->member) * sp->factor);
    }
    return PW_OK;
}

/* Heap of lanes by their next event's time, ties by lane order. */
static int before(const node_run *n, uint32_t a, uint32_t b)
{
    const lane *x = &n->lanes[a], *y = &n->lanes[b];
    return x->t != y->t ? x->t < y->t : a < b;
}

static void sift_down(node_run *n, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, m = i;
        if (l < n->n_heap && before(n, n->heap[l], n->heap[m]))
            m = l;
        if (l + 1 < n->n_heap && before(n, n->heap[l + 1], n->heap[m]))
            m = l + 1;
        if (m == i)
            return;
        uint32_t tmp = n->heap[i];
        n->heap[i] = n->heap[m];
        n->heap[m] = tmp;
        i = m;
    }
}

/* The lane's next event; 0 when it has none (ended, or damaged: the
 * cursor noted the damage as a finding). */
static pw_status lane_step(lane *l, int *more, pw_error *err)
{
    const pw_record *rec;
    pw_status st = pw_cursor_next(l->c, &rec, err);
    *more = st == PW_OK;
    if (st == PW_OK) {
        l->t = rec->t;
        l->ev = ot_cursor_event(l->c);
    }
    return st == PW_END || st == PW_E_DATA ? PW_OK : st;
}

/* Does this location take part: every non-metric location under the
 * node, and metric locations that record one of its signals. */
static int lane_wanted(const node_run *n, uint32_t i)
{
    const ot_location *l = &n->od->locs[i];
    int64_t at = ot_location_node(n->od, i);
    if (l->type != OTF2_LOCATION_TYPE_METRIC)
        return ot_node_within(n->od, at, n->node);
    for (uint32_t k = 0; k < n->ps->n; k++) {
        const ot_power_spec *sp = &n->ps->specs[k];
        const ot_metric *m = ot_table_get(&n->od->metrics, sp->ref);
        if (sp->node == n->node && m && m->is_instance && m->recorder == l->id)
            return 1;
        if (sp->node < 0 && at == n->node)
            return 1;
    }
    return 0;
}

/* A cursor per location of the node, over the whole run: the samples
 * around a window's edges interpolate it. */
static pw_status open_lanes(node_run *n, pw_error *err)
{
    n->lanes = calloc(n->od->n_locs + 1, sizeof *n->lanes);
    n->heap = malloc((n->od->n_locs + 1) * sizeof *n->heap);
    if (!n->lanes || !n->heap)
        return pw_fail(err, PW_E_NOMEM, n->ds->path, PW_NO_OFFSET, "out of memory");
    size_t wanted = 0;
    for (uint32_t i = 0; i < n->od->n_locs; i++)
        wanted += lane_wanted(n, i);
    pw_status st = PW_OK;
    for (uint32_t i = 0; i < n->od->n_locs && st == PW_OK; i++) {
        uint32_t loc = (uint32_t)n->od->locs[i].loc;
        if (!lane_wanted(n, i) || !pw_ds_history_has_records(n->ds, loc))
            continue;
        lane *l = &n->lanes[n->n_lanes];
        l->node = ot_location_node(n->od, i);
        st = pw_cursor_open_whole_run(n->ds, loc, pw_merge_window_cap(wanted), &l->c, err);
        if (st == PW_E_DATA) { /* a missing event file is a finding already */
            st = PW_OK;
            continue;
        }
        int more = 0;
        if (st == PW_OK)
            st = lane_step(l, &more, err);
        n->n_lanes++;
        if (more)
            n->heap[n->n_heap++] = n->n_lanes - 1;
    }
    for (uint32_t i = n->n_heap / 2; i-- > 0;)
        sift_down(n, i);
    return st;
}

/* Past the window's end with no segment reaching back into it, nothing
 * more can count. */
static int done(const node_run *n, int64_t t)
{
    if (!n->windowed || t < n->win_end)
        return 0;
    for (uint32_t s = 0; s < n->n_signals; s++)
        if (n->signals[s].open && n->signals[s].t0 < n->win_end)
            return 0;
    return 1;
}

/* What an event changes: a location's innermost region, or a signal. */
static pw_status apply(node_run *n, uint32_t ix, pw_error *err)
{
    lane *l = &n->lanes[ix];
    const ot_event *e = l->ev;
    if (e->type == OT_EV_Enter)
        return on_enter(n, l, (uint32_t)e->a[0]) ? PW_OK
                                                 : pw_fail(err, PW_E_NOMEM, n->ds->path, PW_NO_OFFSET, "out of memory");
    if (e->type == OT_EV_Leave)
        on_leave(n, l, (uint32_t)e->a[0]);
    else if (e->type == OT_EV_Metric)
        return on_metric(n, ix, e, l->t, err);
    return PW_OK;
}

/* The node's events in time order; each stretch between two of them is
 * booked with the weights in force before the later one applies. */
static pw_status merge(node_run *n, pw_error *err)
{
    pw_status st = PW_OK;
    int64_t prev = INT64_MIN;
    while (st == PW_OK && n->n_heap) {
        uint32_t ix = n->heap[0];
        lane *l = &n->lanes[ix];
        if (done(n, l->t))
            break;
        if (prev != INT64_MIN)
            advance(n, prev, l->t);
        prev = l->t;
        st = apply(n, ix, err);
        int more = 0;
        if (st == PW_OK)
            st = lane_step(l, &more, err);
        if (!more)
            n->heap[0] = n->heap[--n->n_heap];
        sift_down(n, 0);
    }
    return st;
}

static void node_free(node_run *n)
{
    for (uint32_t i = 0; n->lanes && i < n->n_lanes; i++) {
        if (n->lanes[i].c)
            pw_cursor_close(n->lanes[i].c);
        free(n->lanes[i].stack);
    }
    for (uint32_t s = 0; s < n->n_signals; s++)
        moments_free(&n->signals[s].m);
    free(n->signals);
    free(n->lanes);
    free(n->heap);
    free(n->active);
    free(n->active_list);
    free(n->active_pos);
    moments_free(&n->pending);
}

/* Integrates the signals of one node into the totals. */
static pw_status run_node(node_run *proto, int64_t node, pw_error *err)
{
    node_run n = *proto;
    n.node = node;
    uint32_t r = n.n_regions;
    n.active = calloc(r, sizeof *n.active);
    n.active_list = malloc(r * sizeof *n.active_list);
    n.active_pos = malloc(r * sizeof *n.active_pos);
    pw_status st = n.active && n.active_list && n.active_pos && moments_init(&n.pending, r)
                       ? PW_OK
                       : pw_fail(err, PW_E_NOMEM, n.ds->path, PW_NO_OFFSET, "out of memory");
    if (st == PW_OK)
        st = open_lanes(&n, err);
    if (st == PW_OK)
        st = merge(&n, err);
    proto->started |= n.started;
    node_free(&n);
    return st;
}

typedef struct ranked {
    double energy;
    uint32_t region;
} ranked;

/* Most energy first; ties in reference order, so output is stable. */
static int by_energy(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->energy != y->energy)
        return x->energy < y->energy ? 1 : -1;
    return (x->region > y->region) - (x->region < y->region);
}

static void add_row(pw_rnode *arr, const char *name, double energy, double time)
{
    pw_rnode *o = pw_rnode_object(arr, NULL);
    pw_rnode_str(o, "region", name ? name : "");
    pw_rnode_num(o, "energy_J", energy);
    pw_rnode_num(o, "time_s", time);
    pw_rnode_num(o, "mean_W", time > 0 ? energy / time : 0);
}

/* The rows, declared as energy_by_region_table (the format's own list of
 * tables may not name it). */
static pw_status report(const node_run *n, pw_report *r, pw_error *err)
{
    uint32_t outside = n->n_regions - 1, k = 0;
    ranked *order = malloc(n->n_regions * sizeof *order);
    if (!order)
        return pw_fail(err, PW_E_NOMEM, n->ds->path, PW_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; i < outside; i++)
        if (n->time[i] > 0 || n->energy[i] != 0)
            order[k++] = (ranked){n->energy[i], i};
    qsort(order, k, sizeof *order, by_energy);
    pw_rnode *arr = pw_rnode_array(pw_report_root(r), "energy_by_region");
    for (uint32_t i = 0; i < k; i++)
        add_row(arr, ot_region_name(n->od, order[i].region), order[i].energy, n->time[order[i].region]);
    if (n->time[outside] > 0 || n->energy[outside] != 0)
        add_row(arr, "(outside regions)", n->energy[outside], n->time[outside]);
    free(order);
    const pw_table_decl *const decls[] = {&energy_by_region_table, NULL};
    return pw_report_declare_present(r, decls) ? PW_OK
                                               : pw_fail(err, PW_E_NOMEM, n->ds->path, PW_NO_OFFSET, "out of memory");
}

pw_status ot_energy_by_region(pw_dataset *ds, pw_report *r, pw_error *err)
{
    const ot_dataset *od = ds->impl;
    ot_power_specs ps;
    pw_status st = ot_power_specs_find(ds, od, &ps, err);
    node_run n = {.ds = ds, .od = od, .ps = &ps, .n_regions = od->regions.n + 1};
    n.windowed = pw_selection_window_ns(ds, &n.win_start, &n.win_end);
    n.energy = calloc(n.n_regions, sizeof *n.energy);
    n.time = calloc(n.n_regions, sizeof *n.time);
    if (st == PW_OK && (!n.energy || !n.time))
        st = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; st == PW_OK && i < ps.n_nodes; i++)
        st = run_node(&n, ps.nodes[i], err);
    if (st == PW_OK && n.started)
        st = report(&n, r, err);
    free(n.energy);
    free(n.time);
    ot_power_specs_free(&ps);
    return st;
}
