/* energy_integral.h — energy over time windows in one streaming pass.
 *
 * Every window [a, b] of a repetition (the whole window, each phase)
 * has its edges in one sorted list.  Samples (t, power) stream by once; the
 * integral of the linear interpolant from the first sample is recorded at
 * each edge as the stream passes it, so a window's energy is
 * value[b] - value[a]: the trapezoid rule over the samples inside, with
 * linear interpolation at the edges, samples outside ignored.  In level
 * mode the interpolated value itself is recorded (an energy counter,
 * whose difference is the energy).  Memory: two doubles per edge. */
#ifndef PW_ANALYSIS_ENERGY_INTEGRAL_H
#define PW_ANALYSIS_ENERGY_INTEGRAL_H
#include <stddef.h>
#include <stdint.h>

/* The running state, kept also as it was before the last sample, so that
 * a sample found out of place can be taken back. */
typedef struct energy_integral_state {
    int64_t t_prev;
    double p_prev, cum, peak;
    size_t next;
    uint64_t samples;
    int has_peak;
} energy_integral_state;

typedef struct energy_integral {
    const int64_t *edges;  /* sorted, unique, ns */
    size_t n_edges;
    double *value;         /* per edge: J since the first sample, or the level */
    double *power;         /* per edge: the interpolated sample value */
    int level;
    int have;
    int64_t t_first;
    energy_integral_state s;      /* now */
    energy_integral_state undo;   /* before the last sample */
    uint64_t backwards;
    int64_t peak_lo, peak_hi; /* the peak is taken over samples in [lo, hi] */
} energy_integral;

/* value and power must hold n_edges doubles each. */
void energy_integral_init(energy_integral *g, const int64_t *edges, size_t n_edges, double *value,
                      double *power, int level, int64_t peak_lo, int64_t peak_hi);
/* One sample.  A time earlier than the previous sample's but not earlier
 * than the one before: the previous sample was out of place and is taken
 * back first (as the CSV reader of a power file does).  Earlier still: counted and ignored. */
void energy_integral_add(energy_integral *g, int64_t t, double v);
/* Edges after the last sample take its value (the integral stops there). */
void energy_integral_finish(energy_integral *g);
/* 1 when the samples span [edges[a], edges[b]]. */
int energy_integral_covers(const energy_integral *g, size_t a, size_t b);
/* The peak over [peak_lo, peak_hi], edges included (after finish). */
double energy_integral_peak(const energy_integral *g, size_t a, size_t b);

/* Index of time t in a sorted edge list (t must be one of them). */
size_t energy_edge_index(const int64_t *edges, size_t n, int64_t t);
/* Sorts and deduplicates; returns the new count. */
size_t energy_edges_sort(int64_t *edges, size_t n);

/* Mean, sample standard deviation (n-1; NaN below 2 values), min, max. */
typedef struct energy_spread {
    size_t n;
    double mean, std, min, max;
} energy_spread;
void energy_spread_of(const double *x, size_t n, energy_spread *out);
#endif
