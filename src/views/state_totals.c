/* state_totals.c — time per state over all the rows of a view. */
#include "views/state_totals.h"

#include <stdlib.h>
#include <string.h>

#include "core/grow.h"

void pw_state_totals_add(pw_state_totals *t, const char *view, int32_t type, const char *channel, int64_t value,
                         const char *label, uint64_t ns)
{
    if (!pw_grow((void **)&t->v, t->n, &t->cap, sizeof *t->v)) {
        t->failed = 1;
        return;
    }
    t->v[t->n++] = (pw_state_total){view, channel ? channel : "", label ? label : "", type, value, ns, 1};
}

static int by_channel_value(const void *a, const void *b)
{
    const pw_state_total *x = a, *y = b;
    int c = strcmp(x->view, y->view);
    if (c)
        return c;
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    return x->value < y->value ? -1 : x->value > y->value;
}

static int same_channel(const pw_state_total *x, const pw_state_total *y)
{
    return x->type == y->type && !strcmp(x->view, y->view);
}

/* Within a channel, the longest first (ties by value). */
static int by_channel_time(const void *a, const void *b)
{
    const pw_state_total *x = a, *y = b;
    int c = strcmp(x->view, y->view);
    if (c || x->type != y->type)
        return c ? c : x->type < y->type ? -1 : 1;
    if (x->ns != y->ns)
        return x->ns > y->ns ? -1 : 1;
    return x->value < y->value ? -1 : x->value > y->value;
}

/* Sums the entries of one (view, channel, value) into one; returns how many are left. */
static size_t merge(pw_state_total *v, size_t n)
{
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (out && !by_channel_value(&v[out - 1], &v[i])) {
            v[out - 1].ns += v[i].ns;
            v[out - 1].rows++;
        } else {
            v[out++] = v[i];
        }
    }
    return out;
}

int pw_state_totals_report(pw_state_totals *t, pw_rnode *root)
{
    int ok = !t->failed;
    size_t n = 0;
    if (ok && t->n) {
        qsort(t->v, t->n, sizeof *t->v, by_channel_value);
        n = merge(t->v, t->n);
        qsort(t->v, n, sizeof *t->v, by_channel_time);
    }
    pw_rnode *arr = ok ? pw_rnode_array(root, "state_totals") : NULL;
    uint64_t channel_ns = 0;
    for (size_t i = 0; arr && i < n; i++) {
        if (i == 0 || !same_channel(&t->v[i - 1], &t->v[i])) { /* a channel starts: its time */
            channel_ns = 0;
            for (size_t k = i; k < n && same_channel(&t->v[i], &t->v[k]); k++)
                channel_ns += t->v[k].ns;
        }
        const pw_state_total *e = &t->v[i];
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_str(o, "view", e->view);
        pw_rnode_int(o, "type", e->type);
        pw_rnode_str(o, "channel", e->channel);
        pw_rnode_int(o, "value", e->value);
        pw_rnode_str(o, "label", e->label);
        pw_rnode_uint(o, "rows", e->rows);
        pw_rnode_num(o, "time_s", (double)e->ns / 1e9);
        pw_rnode_num(o, "share_pct", channel_ns ? 100.0 * (double)e->ns / (double)channel_ns : 0.0);
    }
    free(t->v);
    *t = (pw_state_totals){0};
    return ok;
}

const pw_table_decl pw_state_totals_table = {
    "state_totals", "time per state over all rows",
    "per view and channel, each state's time summed over the threads (or CPUs) that held it: the top task types, "
    "MPI functions, subsystems",
    "view, channel, then time, longest first",
    {{"view", "", 1}, {"type", "", 1}, {"channel", "", 0}, {"value", "", 1}, {"label", "", 0}, {"rows", "count", 0},
     {"time_s", "s", 0}, {"share_pct", "%", 0}}};
