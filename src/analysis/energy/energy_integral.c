/* energy_integral.c — streaming trapezoid integration at window edges, and
 * the spread of a figure over repetitions. */
#include "analysis/energy/energy_integral.h"

#include <math.h>
#include <stdlib.h>

void energy_integral_init(energy_integral *g, const int64_t *edges, size_t n_edges, double *value,
                      double *power, int level, int64_t peak_lo, int64_t peak_hi)
{
    *g = (energy_integral){.edges = edges, .n_edges = n_edges, .value = value, .power = power,
                       .level = level, .peak_lo = peak_lo, .peak_hi = peak_hi};
}

static void note_peak(energy_integral *g, int64_t t, double v)
{
    if (t >= g->peak_lo && t <= g->peak_hi && (!g->s.has_peak || v > g->s.peak)) {
        g->s.peak = v;
        g->s.has_peak = 1;
    }
}

/* Records edges up to t, interpolating between the previous sample and
 * (t, v).  Times are taken relative to the previous sample so that the
 * doubles stay small and exact. */
static void pass_edges(energy_integral *g, int64_t t, double v)
{
    energy_integral_state *s = &g->s;
    int64_t dt = t - s->t_prev;
    while (s->next < g->n_edges && g->edges[s->next] <= t) {
        int64_t de = g->edges[s->next] - s->t_prev;
        double pe = dt ? s->p_prev + (v - s->p_prev) * ((double)de / (double)dt) : v;
        g->power[s->next] = pe;
        g->value[s->next] = g->level ? pe : s->cum + (s->p_prev + pe) * 0.5 * (double)de * 1e-9;
        s->next++;
    }
}

void energy_integral_add(energy_integral *g, int64_t t, double v)
{
    energy_integral_state *s = &g->s;
    if (g->have && t < s->t_prev) {
        if (s->samples < 2 || t < g->undo.t_prev) {
            g->backwards++;
            return;
        }
        *s = g->undo; /* the previous sample was out of place */
        g->backwards++;
    }
    g->undo = *s;
    if (!g->have) {
        g->have = 1;
        g->t_first = s->t_prev = t;
        s->p_prev = v;
        /* Edges before the first sample: nothing integrated yet. */
        while (s->next < g->n_edges && g->edges[s->next] <= t) {
            g->power[s->next] = v;
            g->value[s->next++] = g->level ? v : 0.0;
        }
    } else {
        pass_edges(g, t, v);
        s->cum += (s->p_prev + v) * 0.5 * (double)(t - s->t_prev) * 1e-9;
        s->t_prev = t;
        s->p_prev = v;
    }
    s->samples++;
    note_peak(g, t, v);
}

void energy_integral_finish(energy_integral *g)
{
    energy_integral_state *s = &g->s;
    for (size_t i = s->next; i < g->n_edges; i++) {
        g->power[i] = s->p_prev;
        g->value[i] = g->level ? s->p_prev : s->cum;
    }
}

int energy_integral_covers(const energy_integral *g, size_t a, size_t b)
{
    return g->s.samples && g->t_first <= g->edges[a] && g->s.t_prev >= g->edges[b];
}

double energy_integral_peak(const energy_integral *g, size_t a, size_t b)
{
    double p = g->power[a] > g->power[b] ? g->power[a] : g->power[b];
    return g->s.has_peak && g->s.peak > p ? g->s.peak : p;
}

size_t energy_edge_index(const int64_t *edges, size_t n, int64_t t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (edges[mid] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

size_t energy_edges_sort(int64_t *edges, size_t n)
{
    qsort(edges, n, sizeof *edges, cmp_i64);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!k || edges[i] != edges[k - 1])
            edges[k++] = edges[i];
    return k;
}

void energy_spread_of(const double *x, size_t n, energy_spread *out)
{
    *out = (energy_spread){.n = n, .mean = NAN, .std = NAN, .min = NAN, .max = NAN};
    if (!n)
        return;
    double sum = 0, mn = x[0], mx = x[0];
    for (size_t i = 0; i < n; i++) {
        sum += x[i];
        mn = x[i] < mn ? x[i] : mn;
        mx = x[i] > mx ? x[i] : mx;
    }
    double mean = sum / (double)n, ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - mean) * (x[i] - mean);
    out->mean = mean;
    out->std = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
    out->min = mn;
    out->max = mx;
}
