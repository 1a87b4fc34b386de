/* gpupower_energy.h — energy over time windows in one streaming pass.
 *
 * Every window [a, b] of a repetition (the experiment, train, each epoch)
 * has its edges in one sorted list.  Samples (t, power) stream by once; the
 * integral of the linear interpolant from the first sample is recorded at
 * each edge as the stream passes it, so a window's energy is
 * value[b] - value[a]: the trapezoid rule over the samples inside, with
 * linear interpolation at the edges, samples outside ignored.  In level
 * mode the interpolated value itself is recorded (the NVML total-energy
 * counter, whose difference is the energy).  Memory: two doubles per edge. */
#ifndef PW_GPUPOWER_ENERGY_H
#define PW_GPUPOWER_ENERGY_H
#include <stddef.h>
#include <stdint.h>

/* The running state, kept also as it was before the last sample, so that
 * a sample found out of place can be taken back. */
typedef struct gp_integral_state {
    int64_t t_prev;
    double p_prev, cum, peak;
    size_t next;
    uint64_t samples;
    int has_peak;
} gp_integral_state;

typedef struct gp_integral {
    const int64_t *edges;  /* sorted, unique, ns */
    size_t n_edges;
    double *value;         /* per edge: J since the first sample, or the level */
    double *power;         /* per edge: the interpolated sample value */
    int level;
    int have;
    int64_t t_first;
    gp_integral_state s;      /* now */
    gp_integral_state undo;   /* before the last sample */
    uint64_t backwards;
    int64_t peak_lo, peak_hi; /* the peak is taken over samples in [lo, hi] */
} gp_integral;

/* value and power must hold n_edges doubles each. */
void gp_integral_init(gp_integral *g, const int64_t *edges, size_t n_edges, double *value,
                      double *power, int level, int64_t peak_lo, int64_t peak_hi);
/* One sample.  A time earlier than the previous sample's but not earlier
 * than the one before: the previous sample was out of place and is taken
 * back first (as gp_table does).  Earlier still: counted and ignored. */
void gp_integral_add(gp_integral *g, int64_t t, double v);
/* Edges after the last sample take its value (the integral stops there). */
void gp_integral_finish(gp_integral *g);
/* 1 when the samples span [edges[a], edges[b]]. */
int gp_integral_covers(const gp_integral *g, size_t a, size_t b);
/* The peak over [peak_lo, peak_hi], edges included (after finish). */
double gp_integral_peak(const gp_integral *g, size_t a, size_t b);

/* Index of time t in a sorted edge list (t must be one of them). */
size_t gp_edge_index(const int64_t *edges, size_t n, int64_t t);
/* Sorts and deduplicates; returns the new count. */
size_t gp_edges_sort(int64_t *edges, size_t n);

/* Mean, sample standard deviation (n-1; NaN below 2 values), min, max. */
typedef struct gp_spread {
    size_t n;
    double mean, std, min, max;
} gp_spread;
void gp_spread_of(const double *x, size_t n, gp_spread *out);
#endif
