/* otf2_stats.c — what a Score-P user asks of a trace first (the summary
 * Vampir and Cube open with): the trace's span and its costliest region
 * (`overview`, listed first; an MPI trace's first screen is the wait
 * analysis's `summary`), per location its events and time range,
 * per region its visits and inclusive and exclusive time over every
 * location, from the Enter/Leave pairs as the cursors give them. */
#include <stdlib.h>
#include <string.h>

#include "formats/otf2/otf2_energy.h"

typedef struct region_time {
    uint64_t calls;
    int64_t incl_ns, excl_ns;
} region_time;

typedef struct open_region {
    uint32_t region;
    int64_t enter, child_ns;
} open_region;

typedef struct walk {
    region_time *regions; /* per region reference */
    uint32_t n_regions;
    open_region *stack;
    size_t depth, cap;
    /* over every location: those with events, their events, clock range */
    uint64_t locations, events;
    int64_t first, last;
} walk;

/* An Enter pushes, a Leave of the top region pops and books its times;
 * a Leave that closes something else is left to `check`. */
static int on_event(walk *w, const ot_event *e, int64_t t)
{
    uint32_t region = (uint32_t)e->a[0];
    if (e->type == OT_EV_Enter) {
        if (w->depth == w->cap) {
            size_t cap = w->cap ? w->cap * 2 : 64;
            open_region *p = realloc(w->stack, cap * sizeof *p);
            if (!p)
                return 0;
            w->stack = p;
            w->cap = cap;
        }
        w->stack[w->depth++] = (open_region){region, t, 0};
    } else if (e->type == OT_EV_Leave && w->depth && w->stack[w->depth - 1].region == region) {
        open_region *o = &w->stack[--w->depth];
        int64_t incl = t - o->enter;
        if (region < w->n_regions) {
            w->regions[region].calls++;
            w->regions[region].incl_ns += incl;
            w->regions[region].excl_ns += incl - o->child_ns;
        }
        if (w->depth)
            w->stack[w->depth - 1].child_ns += incl;
    }
    return 1;
}

static pw_status walk_location(pw_dataset *ds, uint32_t loc, walk *w, pw_rnode *row, pw_error *err)
{
    pw_cursor *c;
    uint64_t events = 0;
    int64_t first = 0, last = 0;
    pw_status st = pw_cursor_open(ds, loc, &c, err);
    if (st == PW_E_DATA) /* an unreadable event file is a finding already */
        c = NULL;
    else if (st != PW_OK)
        return st;
    const pw_record *rec;
    w->depth = 0;
    while (c && (st = pw_cursor_next(c, &rec, err)) == PW_OK) { /* c set: st was PW_OK */
        if (!events++)
            first = rec->t;
        last = rec->t;
        if (!on_event(w, ot_cursor_event(c), rec->t)) {
            st = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
            break;
        }
    }
    if (c)
        pw_cursor_close(c);
    if (events) {
        w->first = w->locations && w->first < first ? w->first : first;
        w->last = w->locations && w->last > last ? w->last : last;
        w->locations++;
        w->events += events;
    }
    pw_rnode_str(row, "location", ds->locs[loc].path);
    pw_rnode_uint(row, "events", events);
    pw_rnode_int(row, "first_ns", first);
    pw_rnode_int(row, "last_ns", last);
    return st == PW_END || st == PW_E_DATA ? PW_OK : st; /* damage is a finding already */
}

typedef struct ranked {
    int64_t excl_ns;
    uint32_t region;
} ranked;

/* Most exclusive time first; ties in reference order, so output is stable. */
static int by_exclusive(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->excl_ns != y->excl_ns)
        return x->excl_ns < y->excl_ns ? 1 : -1;
    return (x->region > y->region) - (x->region < y->region);
}

/* The first screen: locations, events, span, and the region of most
 * exclusive time (order[0]) with its share of all regions' time. */
static void report_summary(const ot_dataset *od, const walk *w, const ranked *order, uint32_t n, pw_rnode *o)
{
    pw_rnode_uint(o, "locations", w->locations);
    pw_rnode_uint(o, "events", w->events);
    pw_rnode_num(o, "span_s", w->locations ? (double)(w->last - w->first) / 1e9 : 0);
    int64_t all = 0;
    for (uint32_t k = 0; k < n; k++)
        all += w->regions[order[k].region].excl_ns;
    if (n) {
        pw_rnode_str(o, "top_region", ot_region_name(od, order[0].region));
        pw_rnode_num(o, "top_region_exclusive_s", (double)order[0].excl_ns / 1e9);
        pw_rnode_num(o, "top_region_pct", all > 0 ? 100.0 * (double)order[0].excl_ns / (double)all : 0);
    }
}

static void report_regions(const ot_dataset *od, const walk *w, pw_rnode *root, pw_rnode *summary)
{
    ranked *order = malloc((w->n_regions + 1) * sizeof *order);
    uint32_t n = 0;
    for (uint32_t i = 0; order && i < w->n_regions; i++)
        if (w->regions[i].calls)
            order[n++] = (ranked){w->regions[i].excl_ns, i};
    if (order)
        qsort(order, n, sizeof *order, by_exclusive);
    report_summary(od, w, order, order ? n : 0, summary);
    pw_rnode *arr = pw_rnode_array(root, "per_region");
    for (uint32_t k = 0; order && k < n; k++) {
        const region_time *r = &w->regions[order[k].region];
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_str(o, "region", ot_region_name(od, order[k].region));
        pw_rnode_uint(o, "calls", r->calls);
        pw_rnode_num(o, "inclusive_s", (double)r->incl_ns / 1e9);
        pw_rnode_num(o, "exclusive_s", (double)r->excl_ns / 1e9);
    }
    free(order);
}

pw_status ot_stats(pw_dataset *ds, pw_report *r, pw_error *err)
{
    const ot_dataset *od = ds->impl;
    walk w = {0};
    w.n_regions = od->regions.n;
    w.regions = calloc(w.n_regions + 1, sizeof *w.regions);
    if (!w.regions)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    pw_rnode *root = pw_report_root(r);
    pw_rnode *summary = pw_rnode_object(root, "overview"); /* filled last, listed first */
    pw_rnode *locs = pw_rnode_array(root, "per_location");
    pw_status st = PW_OK;
    for (size_t i = 0; i < ds->n_locs && st == PW_OK; i++)
        if (ds->locs[i].has_records)
            st = walk_location(ds, (uint32_t)i, &w, pw_rnode_object(locs, NULL), err);
    if (st == PW_OK)
        report_regions(od, &w, root, summary);
    if (st == PW_OK)
        st = ot_energy_by_region(ds, r, err);
    free(w.regions);
    free(w.stack);
    return st;
}
