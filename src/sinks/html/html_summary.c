/* html_summary.c — the verdict at the top of a report: the headline
 * figures of each kind of data, in plain words, from the same tables the
 * figures draw. */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "sinks/html/html_figures.h"
#include "sinks/html/html_svg.h"
#include "views/state_times.h"

void html_finding(const html_run *run, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fputs("<li>", run->f);
    html_escaped(run->f, buf);
    fputs("</li>\n", run->f);
    (*run->findings)++;
}

/* The row of arr with the largest number at key, or NULL. */
static const json_t *largest(const json_t *arr, const char *key)
{
    size_t i;
    const json_t *row, *best = NULL;
    json_array_foreach(arr, i, row) if (!best || jnum(row, key) > jnum(best, key)) best = row;
    return best;
}

static void mpi_findings(const html_run *run)
{
    const json_t *root = run->root, *ranks = json_object_get(root, "ranks"), *row;
    double mpi = 0, span = 0, wait = 0;
    size_t i;
    char a[48];
    json_array_foreach(ranks, i, row)
    {
        mpi += jnum(row, "mpi_s");
        span += jnum(row, "span_s");
    }
    const json_t *ws = json_object_get(root, "wait_states");
    const char *kinds[32], *worst = NULL;
    double worst_total = 0;
    size_t k = html_wait_kinds(ws, kinds, 32);
    for (size_t l = 0; l < k; l++) {
        double total = 0;
        json_array_foreach(ws, i, row) total += jnum(row, kinds[l]);
        wait += total;
        if (!worst || total > worst_total) {
            worst = kinds[l];
            worst_total = total;
        }
    }
    if (span > 0)
        html_finding(run, "MPI takes %.0f %% of the run over %zu ranks.", 100 * mpi / span, json_array_size(ranks));
    if (worst && worst_total > 0 && mpi > 0) {
        const json_t *rank = largest(ws, worst);
        int len = (int)strlen(worst) - (strlen(worst) > 2 && !strcmp(worst + strlen(worst) - 2, "_s") ? 2 : 0);
        fmt_si(a, sizeof a, wait, "s");
        html_finding(run, "Waiting takes %s, %.0f %% of MPI time; %.0f %% of it is %.*s, most on rank %.0f (%.0f %%).", a,
                100 * wait / mpi, 100 * worst_total / wait, len, worst, jnum(rank, "rank"),
                100 * jnum(rank, worst) / worst_total);
    } else if (ws)
        html_finding(run, "No wait state: no rank waits on another in MPI.");
    const json_t *top = largest(json_object_get(root, "functions"), "time_s");
    if (top && mpi > 0)
        html_finding(run, "%s is the costliest MPI call: %.0f %% of MPI time.", jstr(top, "function"),
                100 * jnum(top, "time_s") / mpi);
    double len = jnum(json_object_get(root, "critical_path"), "length_s");
    const json_t *cp_rank = largest(json_object_get(root, "critical_path_ranks"), "time_s");
    if (cp_rank && len > 0) {
        fmt_si(a, sizeof a, len, "s");
        html_finding(run, "The critical path is %s long, %.0f %% of it on rank %.0f.", a, jnum(cp_rank, "share_pct"),
                jnum(cp_rank, "rank"));
    }
}

/* States: for each view, the state of its main channel most often held,
 * and the row that holds no state the longest (html_states.c picks the
 * channel). */
static void state_findings(const html_run *run)
{
    const json_t *states = json_object_get(run->root, pw_state_times_table.name);
    static const char *const views[] = {"thread", "cpu"};
    for (size_t v = 0; v < 2; v++) {
        int64_t type = html_main_channel(states, views[v]);
        if (type < 0)
            continue;
        html_state_verdict(run, states, views[v], type);
    }
}

static void profile_findings(const html_run *run)
{
    const json_t *td = json_object_get(run->root, "top_down");
    char path[768] = "", col[160];
    snprintf(col, sizeof col, "%s (I)", jstr(json_object_get(run->root, "database"), "metric"));
    double total = jnum(json_array_get(td, 0), col);
    size_t n = html_hot_path(td, col, path, sizeof path);
    if (n && total > 0)
        html_finding(run, "Hot path: %s — %.0f %% of %s.", path, 100 * html_hot_path_value(td, col) / total,
                jstr(json_object_get(run->root, "database"), "metric"));
    const json_t *imb = largest(json_object_get(run->root, "imbalance"), "imbalance_pct");
    if (imb && jnum(imb, "imbalance_pct") > 0)
        html_finding(run, "Most unbalanced across profiles: %s, max %.0f %% above the mean.", jstr(imb, "procedure"),
                jnum(imb, "imbalance_pct"));
}

static void pdes_findings(const html_run *run)
{
    const json_t *tot = json_array_get(json_object_get(run->root, "totals"), 0);
    double processed = jnum(tot, "processed");
    if (!tot)
        return;
    html_finding(run, "Efficiency %.0f %%; %.2f events rolled back per committed event; %.0f rollbacks.",
            jnum(tot, "efficiency"), processed - jnum(tot, "rolled_back") > 0
                                         ? jnum(tot, "rolled_back") / (processed - jnum(tot, "rolled_back"))
                                         : 0,
            jnum(tot, "rollbacks"));
    const json_t *worst = NULL, *row;
    size_t i;
    json_array_foreach(json_object_get(run->root, "pes"), i, row) if (!worst ||
                                                                       jnum(row, "efficiency") < jnum(worst, "efficiency"))
        worst = row;
    if (worst)
        html_finding(run, "Least efficient PE: %.0f (%.0f %%).", jnum(worst, "pe"), jnum(worst, "efficiency"));
}

/* GPU power: per benchmark, what the leanest setting saves against the
 * default one (else the hungriest), and for how much more time. */
static void energy_findings(const html_run *run)
{
    size_t i, j;
    const json_t *b, *s;
    json_array_foreach(json_object_get(run->root, "benchmarks"), i, b)
    {
        const json_t *ref = NULL, *lean = NULL, *dflt = NULL;
        json_array_foreach(json_object_get(run->root, "settings"), j, s) if (html_same_keys(s, b, html_benchmark_keys))
        {
            if (!ref || jnum(s, "energy_j") > jnum(ref, "energy_j"))
                ref = s;
            if (!lean || jnum(s, "energy_j") < jnum(lean, "energy_j"))
                lean = s;
            if (!strcmp(jstr(s, "run"), "default"))
                dflt = s;
        }
        ref = dflt && dflt != lean ? dflt : ref;
        if (!ref || !lean || ref == lean || jnum(ref, "energy_j") <= 0 || jnum(ref, "duration_s") <= 0)
            continue;
        double dt = 100 * (jnum(lean, "duration_s") / jnum(ref, "duration_s") - 1);
        html_finding(run, "%s/%s: %s uses %.0f %% less energy than %s, for %.0f %% %s time (EDP %.4g vs %.4g J·s).",
                     jstr(b, "experiment"), jstr(b, "benchmark"), jstr(lean, "run"),
                     100 * (1 - jnum(lean, "energy_j") / jnum(ref, "energy_j")), jstr(ref, "run"), fabs(dt),
                     dt >= 0 ? "more" : "less", jnum(lean, "edp_js"), jnum(ref, "edp_js"));
    }
}

void html_findings(const html_run *run)
{
    int before = *run->findings;
    if (json_is_array(json_object_get(run->root, "ranks")) && json_object_get(run->root, "functions"))
        mpi_findings(run);
    if (json_is_array(json_object_get(run->root, pw_state_times_table.name)))
        state_findings(run);
    if (json_is_array(json_object_get(run->root, "top_down")))
        profile_findings(run);
    if (json_is_array(json_object_get(run->root, "totals")) && json_object_get(run->root, "pes"))
        pdes_findings(run);
    if (json_is_array(json_object_get(run->root, "benchmarks")))
        energy_findings(run);
    if (*run->findings == before)
        html_finding(run, "No headline figure for this data: see its tables below.");
}
