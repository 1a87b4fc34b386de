/* energy_report.c — the energy tables of the stats report (issue #6
 * contract):
 *   repetitions: names, settings, duration_s, energy_j per source, mean and
 *                peak power, EDP, ED²P, phases (train and each epoch);
 *   runs:        mean/std/min/max over repetitions per setting;
 *   benchmarks:  the settings side by side, the energy-optimal and
 *                EDP-optimal run, the Pareto front of (time, energy);
 *   baselines:   the idle power of each `_baseline`.
 * Repetitions of one run (and runs of one benchmark) are adjacent because
 * the tree is walked in sorted order.  Repetitions stream (a row each as it
 * is read); runs, benchmarks and baselines need only the figures every
 * energy_result keeps once its phases are freed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/energy/energy.h"
#include "analysis/energy/energy_integral.h"

static void put_settings(pw_rnode *parent, const pw_energy_unit *r)
{
    pw_rnode *o = pw_rnode_object(parent, "settings");
    for (size_t i = 0; i < r->n_settings; i++)
        pw_rnode_int(o, r->settings[i].key, r->settings[i].value);
}

static void put_energy(pw_rnode *parent, const energy_run *run, const int *has, const double *e)
{
    pw_rnode *o = pw_rnode_object(parent, "energy_j");
    for (size_t s = 0; s < run->lay->n_sources; s++)
        if (has[s])
            pw_rnode_num(o, run->lay->sources[s].name, e[s]);
}

static void put_names(pw_rnode *o, const pw_energy_unit *r)
{
    pw_rnode_str(o, "experiment", r->experiment);
    pw_rnode_str(o, "benchmark", r->benchmark);
    pw_rnode_str(o, "run", r->run);
}

void energy_report_repetition(pw_rnode *arr, const energy_run *run, const pw_energy_unit *rep,
                              const energy_result *r)
{
    pw_rnode *o = pw_rnode_object(arr, NULL);
    put_names(o, rep);
    pw_rnode_str(o, "repetition", rep->repetition);
    put_settings(o, rep);
    pw_rnode_num(o, "duration_s", r->duration_s);
    put_energy(o, run, r->has, r->energy);
    if (run->primary >= 0 && r->has[run->primary]) {
        double e = r->energy[run->primary], d = r->duration_s;
        pw_rnode_num(o, "mean_power_w", d > 0 ? e / d : NAN);
        pw_rnode_num(o, "peak_power_w", r->peak_w);
        pw_rnode_num(o, "edp_js", e * d);
        pw_rnode_num(o, "ed2p_js2", e * d * d);
    }
    if (r->baseline_applied) {
        pw_rnode *b = pw_rnode_object(o, "baseline_power_w");
        for (size_t s = 0; s < run->lay->n_sources; s++)
            if (r->has[s] && !isnan(r->baseline_w[s]))
                pw_rnode_num(b, run->lay->sources[s].name, r->baseline_w[s]);
    }
}

/* A row per phase of every reported repetition (their windows start at
 * the repetition's): the repetitions' rows stream, their phases come
 * after them as a table of their own. */
static void put_phases(pw_rnode *root, const energy_run *run, const energy_result *res)
{
    pw_rnode *arr = pw_rnode_array(root, "phases");
    for (size_t u = 0; u < run->lay->n_units; u++) {
        const energy_result *r = &res[u];
        for (size_t i = 0; r->ok && i < r->n_phases; i++) {
            const energy_phase *p = &r->phases[i];
            pw_rnode *po = pw_rnode_object(arr, NULL);
            put_names(po, &run->lay->units[u]);
            pw_rnode_str(po, "repetition", run->lay->units[u].repetition);
            pw_rnode_str(po, "phase", p->name);
            pw_rnode_int(po, "index", p->index);
            pw_rnode_num(po, "start_s", (double)(p->begin - r->begin) * 1e-9);
            pw_rnode_num(po, "duration_s", (double)(p->end - p->begin) * 1e-9);
            put_energy(po, run, r->has, p->energy);
        }
    }
}

static void put_spread(pw_rnode *parent, const char *key, const double *x, size_t n)
{
    energy_spread sp;
    energy_spread_of(x, n, &sp);
    pw_rnode *o = pw_rnode_object(parent, key);
    pw_rnode_num(o, "mean", sp.mean);
    pw_rnode_num(o, "std", sp.std);
    pw_rnode_num(o, "min", sp.min);
    pw_rnode_num(o, "max", sp.max);
}

/* A run's means, kept for its benchmark's comparisons. */
typedef struct run_summary {
    const pw_energy_unit *first;
    double duration, energy, edp;
    int has_energy;
} run_summary;

static int same_run(const pw_energy_unit *a, const pw_energy_unit *b)
{
    return !strcmp(a->experiment, b->experiment) && !strcmp(a->benchmark, b->benchmark) &&
           !strcmp(a->run, b->run);
}

static int same_benchmark(const pw_energy_unit *a, const pw_energy_unit *b)
{
    return !strcmp(a->experiment, b->experiment) && !strcmp(a->benchmark, b->benchmark);
}

/* The spread of one figure over the repetitions idx[0..n). */
static void put_figure(pw_rnode *o, const char *key, const energy_result *res, const size_t *idx,
                       size_t n, double *tmp, int src, int edp)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const energy_result *r = &res[idx[i]];
        if (src < 0)
            tmp[k++] = r->duration_s;
        else if (r->has[src])
            tmp[k++] = edp ? r->energy[src] * r->duration_s : r->energy[src];
    }
    if (k)
        put_spread(o, key, tmp, k);
}

/* One run object from the repetitions idx[0..n); fills its summary. */
static void put_run(pw_rnode *arr, const energy_run *run, const energy_result *res, const size_t *idx,
                    size_t n, double *tmp, run_summary *sum)
{
    const pw_energy_unit *rep = &run->lay->units[idx[0]];
    int p = run->primary;
    pw_rnode *o = pw_rnode_object(arr, NULL);
    put_names(o, rep);
    put_settings(o, rep);
    pw_rnode_uint(o, "repetitions", n);
    put_figure(o, "duration_s", res, idx, n, tmp, -1, 0);
    pw_rnode *e = pw_rnode_object(o, "energy_j");
    for (size_t s = 0; s < run->lay->n_sources; s++)
        put_figure(e, run->lay->sources[s].name, res, idx, n, tmp, (int)s, 0);
    if (p >= 0)
        put_figure(o, "edp_js", res, idx, n, tmp, p, 1);
    *sum = (run_summary){.first = rep};
    double d = 0, en = 0, edp = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const energy_result *r = &res[idx[i]];
        d += r->duration_s;
        if (p >= 0 && r->has[p]) {
            en += r->energy[p];
            edp += r->energy[p] * r->duration_s;
            k++;
        }
    }
    sum->duration = d / (double)n;
    /* A run compares on energy only when every repetition has it. */
    sum->has_energy = k == n;
    sum->energy = k ? en / (double)k : NAN;
    sum->edp = k ? edp / (double)k : NAN;
}

/* 1 when run j is at least as good as i in time and energy, better in one. */
static int dominates(const run_summary *j, const run_summary *i)
{
    return j->duration <= i->duration && j->energy <= i->energy &&
           (j->duration < i->duration || j->energy < i->energy);
}

/* Where a benchmark's figures go: its row, its row in the first screen,
 * and a row per setting (run) with whether it is on the Pareto front. */
typedef struct benchmark_tables {
    pw_rnode *benchmarks, *summary, *settings;
} benchmark_tables;

static int on_pareto_front(const run_summary *runs, size_t n, size_t i)
{
    int on_front = runs[i].has_energy;
    for (size_t j = 0; j < n && on_front; j++)
        on_front = !(j != i && runs[j].has_energy && dominates(&runs[j], &runs[i]));
    return on_front;
}

static void put_benchmark_names(pw_rnode *o, const run_summary *runs)
{
    pw_rnode_str(o, "experiment", runs[0].first->experiment);
    pw_rnode_str(o, "benchmark", runs[0].first->benchmark);
}

/* The first screen's row: the best setting by energy and by EDP, and the
 * Pareto front (time against energy) as one line of runs. */
static void put_benchmark_summary(pw_rnode *arr, const run_summary *runs, size_t n, const run_summary *best_e,
                                  const run_summary *best_edp)
{
    pw_rnode *o = pw_rnode_object(arr, NULL);
    put_benchmark_names(o, runs);
    pw_rnode_str(o, "best_energy_run", best_e ? best_e->first->run : NULL);
    pw_rnode_num(o, "best_energy_j", best_e ? best_e->energy : NAN);
    pw_rnode_str(o, "best_edp_run", best_edp ? best_edp->first->run : NULL);
    pw_rnode_num(o, "best_edp_js", best_edp ? best_edp->edp : NAN);
    char front[1024] = "";
    for (size_t i = 0, used = 0; i < n; i++)
        if (on_pareto_front(runs, n, i) && used < sizeof front)
            used += (size_t)snprintf(front + used, sizeof front - used, "%s%s", used ? "; " : "", runs[i].first->run);
    pw_rnode_str(o, "pareto_front", front);
}

static void put_benchmark(const benchmark_tables *to, const run_summary *runs, size_t n)
{
    pw_rnode *o = pw_rnode_object(to->benchmarks, NULL);
    put_benchmark_names(o, runs);
    pw_rnode_uint(o, "runs", n);
    const run_summary *best_e = NULL, *best_edp = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!runs[i].has_energy)
            continue;
        if (!best_e || runs[i].energy < best_e->energy)
            best_e = &runs[i];
        if (!best_edp || runs[i].edp < best_edp->edp)
            best_edp = &runs[i];
    }
    pw_rnode_str(o, "energy_optimal_run", best_e ? best_e->first->run : NULL);
    pw_rnode_str(o, "edp_optimal_run", best_edp ? best_edp->first->run : NULL);
    pw_rnode *front = pw_rnode_array(o, "pareto_runs");
    for (size_t i = 0; i < n; i++) {
        int on_front = on_pareto_front(runs, n, i);
        if (on_front)
            pw_rnode_str(front, NULL, runs[i].first->run);
        pw_rnode *s = pw_rnode_object(to->settings, NULL);
        put_benchmark_names(s, runs);
        pw_rnode_str(s, "run", runs[i].first->run);
        pw_rnode_num(s, "duration_s", runs[i].duration);
        pw_rnode_num(s, "energy_j", runs[i].energy);
        pw_rnode_num(s, "edp_js", runs[i].edp);
        pw_rnode_bool(s, "pareto", on_front);
    }
    put_benchmark_summary(to->summary, runs, n, best_e, best_edp);
}

/* runs and benchmarks from the repetitions that have a window. */
static void put_runs_and_benchmarks(pw_rnode *root, const energy_run *run, const energy_result *res)
{
    const pw_energy_layout *gd = run->lay;
    size_t *idx = malloc((gd->n_units + 1) * sizeof *idx);
    double *tmp = malloc((gd->n_units + 1) * sizeof *tmp);
    run_summary *runs = malloc((gd->n_units + 1) * sizeof *runs);
    benchmark_tables to = {.summary = pw_rnode_array(root, "summary")};
    pw_rnode *run_arr = pw_rnode_array(root, "runs");
    to.benchmarks = pw_rnode_array(root, "benchmarks");
    to.settings = pw_rnode_array(root, "settings");
    size_t n_idx = 0, n_runs = 0;
    for (size_t i = 0; idx && tmp && runs && i <= gd->n_units; i++) {
        int usable = i < gd->n_units && !gd->units[i].baseline && res[i].ok;
        if (i < gd->n_units && !usable)
            continue;
        const pw_energy_unit *last = n_idx ? &gd->units[idx[n_idx - 1]] : NULL;
        if (last && (!usable || !same_run(last, &gd->units[i]))) {
            put_run(run_arr, run, res, idx, n_idx, tmp, &runs[n_runs++]);
            n_idx = 0;
            if (!usable || !same_benchmark(last, &gd->units[i])) {
                put_benchmark(&to, runs, n_runs);
                n_runs = 0;
            }
        }
        if (usable)
            idx[n_idx++] = i;
    }
    free(idx);
    free(tmp);
    free(runs);
}

/* Idle power of each baseline group, per source. */
static void put_baselines(pw_rnode *root, const energy_run *run, const energy_result *res)
{
    const pw_energy_layout *gd = run->lay;
    pw_rnode *arr = pw_rnode_array(root, "baselines");
    for (size_t i = 0; i < gd->n_units; i++) {
        const pw_energy_unit *b = &gd->units[i];
        if (!b->baseline || (i && gd->units[i - 1].baseline &&
                             !strcmp(gd->units[i - 1].baseline_group, b->baseline_group)))
            continue;
        double sum[ENERGY_MAX_SOURCES] = {0};
        size_t cnt[ENERGY_MAX_SOURCES] = {0}, reps = 0;
        for (size_t k = i; k < gd->n_units && gd->units[k].baseline &&
                           !strcmp(gd->units[k].baseline_group, b->baseline_group);
             k++) {
            reps++;
            for (size_t s = 0; s < gd->n_sources; s++)
                if (res[k].ok && res[k].has[s] && res[k].duration_s > 0) {
                    sum[s] += res[k].energy[s] / res[k].duration_s;
                    cnt[s]++;
                }
        }
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_str(o, "experiment", b->experiment);
        pw_rnode_str(o, "directory", b->baseline_group);
        pw_rnode_uint(o, "repetitions", reps);
        pw_rnode *p = pw_rnode_object(o, "power_w");
        for (size_t s = 0; s < gd->n_sources; s++)
            if (cnt[s])
                pw_rnode_num(p, gd->sources[s].name, sum[s] / (double)cnt[s]);
    }
}

void energy_report_end(const energy_run *run, const energy_result *res, pw_rnode *root)
{
    put_phases(root, run, res);
    put_runs_and_benchmarks(root, run, res);
    put_baselines(root, run, res);
}

/* The tables of the analysis.  Settings are the tree's own (clocks, power
 * limits) and keep its units; energies per source are dotted columns
 * ("energy_j.gpu"). */
static const pw_table_decl summary = {
    "summary", "energy at a glance",
    "per benchmark: the best setting by energy and by energy-delay product, and the Pareto front of time and energy",
    "experiment, then benchmark",
    {{"experiment", "", 1}, {"benchmark", "", 1}, {"best_energy_run", "", 0}, {"best_energy_j", "J", 0},
     {"best_edp_run", "", 0}, {"best_edp_js", "J\xc2\xb7" "s", 0}, {"pareto_front", "", 0}}};
static const pw_table_decl repetitions = {
    "repetitions", "repetitions", "duration, energy per source, power and EDP of each repetition of each run",
    "tree order", {{"experiment", "", 1}, {"benchmark", "", 1}, {"run", "", 1}, {"repetition", "", 1}}};
static const pw_table_decl phases = {
    "phases", "phases", "duration and energy per source of each phase (training, epochs) of each repetition",
    "repetition, then phase",
    {{"experiment", "", 1}, {"benchmark", "", 1}, {"run", "", 1}, {"repetition", "", 1}, {"phase", "", 1},
     {"index", "", 1}, {"start_s", "s", 0}, {"duration_s", "s", 0}}};
static const pw_table_decl runs = {
    "runs", "runs", "per run (a setting of a benchmark): mean, spread and range over its repetitions",
    "tree order", {{"experiment", "", 1}, {"benchmark", "", 1}, {"run", "", 1}, {"repetitions", "count", 0}}};
static const pw_table_decl benchmarks = {
    "benchmarks", "benchmarks", "per benchmark: its runs and the optimal ones by energy and by EDP",
    "tree order", {{"experiment", "", 1}, {"benchmark", "", 1}, {"runs", "count", 0}}};
static const pw_table_decl settings = {
    "settings", "settings compared", "per run of a benchmark: mean duration, energy, EDP, and whether it is on the Pareto front",
    "benchmark, then tree order",
    {{"experiment", "", 1}, {"benchmark", "", 1}, {"run", "", 1}, {"duration_s", "s", 0}, {"energy_j", "J", 0},
     {"edp_js", "J\xc2\xb7" "s", 0}, {"pareto", "", 0}}};
static const pw_table_decl baselines = {
    "baselines", "baselines", "idle power per source of each baseline group", "tree order",
    {{"experiment", "", 1}, {"directory", "", 1}, {"repetitions", "count", 0}}};

const pw_table_decl *const energy_table_decls[] = {&summary, &repetitions, &phases, &runs, &benchmarks, &settings, &baselines,
                                                   NULL};
