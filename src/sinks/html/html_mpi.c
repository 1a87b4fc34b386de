/* html_mpi.c — the figures of MPI data (the tables of the MPI profile and
 * wait-state analyses: ranks, idle_time, comm_matrix, message_sizes,
 * time_profile, wait_states, critical_path_ranks and
 * critical_path_functions), mpiP-, Pipit- and
 * Scalasca-like. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sinks/html/html_charts.h"
#include "sinks/html/html_figures.h"
#include "sinks/html/html_svg.h"

/* Bars beyond this many are merged (ranks in sorted order). */
#define MAX_BARS 400
/* Layers of the time profile drawn apart; the rest are "other". */
#define TOP_FUNCTIONS 8

typedef struct rank_time {
    double compute, mpi, wait;
    long rank;
} rank_time;

static int by_mpi_desc(const void *a, const void *b)
{
    const rank_time *x = a, *y = b;
    double ex = x->mpi + x->wait, ey = y->mpi + y->wait;
    return ex < ey ? 1 : ex > ey ? -1 : (x->rank > y->rank) - (x->rank < y->rank);
}

/* Waiting of a rank: idle_time's wait_states_s, looked up by rank. */
static double rank_wait(const json_t *idle, long rank)
{
    size_t i;
    const json_t *row;
    json_array_foreach(idle, i, row) if ((long)jnum(row, "rank") == rank) return jnum(row, "wait_states_s");
    return 0;
}

static void time_per_rank(const html_run *run, const json_t *ranks)
{
    size_t n = json_array_size(ranks), i;
    const json_t *row, *idle = json_object_get(run->root, "idle_time");
    rank_time *rt = calloc(n ? n : 1, sizeof *rt);
    size_t bars = n > MAX_BARS ? MAX_BARS : n;
    double *v = calloc(3 * (bars ? bars : 1), sizeof *v);
    char(*labels)[32] = calloc(bars ? bars : 1, sizeof *labels);
    const char **lp = calloc(bars ? bars : 1, sizeof *lp);
    char id[64];
    if (!rt || !v || !labels || !lp)
        goto out;
    json_array_foreach(ranks, i, row)
    {
        rt[i].rank = (long)jnum(row, "rank");
        rt[i].wait = rank_wait(idle, rt[i].rank);
        rt[i].mpi = fmax(0, jnum(row, "mpi_s") - rt[i].wait);
        rt[i].compute = fmax(0, jnum(row, "span_s") - jnum(row, "mpi_s"));
    }
    qsort(rt, n, sizeof *rt, by_mpi_desc);
    for (i = 0; i < n; i++) { /* merged bars hold the mean of their ranks */
        size_t b = i * bars / n, first = b * n / bars, last = (b + 1) * n / bars;
        double share = 1.0 / (double)(last - first);
        v[b] += rt[i].compute * share;
        v[bars + b] += rt[i].mpi * share;
        v[2 * bars + b] += rt[i].wait * share;
        if (i == first)
            snprintf(labels[b], sizeof labels[b], last - first > 1 ? "%ld…" : "%ld", rt[i].rank);
        lp[b] = labels[b];
    }
    static const char *const names[] = {"compute", "MPI", "waiting in MPI"};
    const char *colours[] = {svg_colour(0), svg_colour(1), svg_colour(3)};
    chart_data d = {bars, 3, lp, names, colours, v, NULL, "", "s", "rank (most MPI time first)", "time"};
    svg_figure_open(run->f, fig_id(run, "mpi-time-per-rank", id, sizeof id),
                    "Time per rank: compute, MPI and waiting", SVG_W, CHART_H);
    chart_columns(run->f, &d);
    svg_figure_close(run->f, n > MAX_BARS ? "Ranks are merged into 400 bars (the mean of each group)." : NULL);
out:
    free(rt);
    free(v);
    free(labels);
    free(lp);
}

/* A colour from white to dark blue for t in [0, 1]. */
static void heat(char *buf, size_t cap, double t)
{
    int r = (int)lround(247 - t * (247 - 8)), g = (int)lround(251 - t * (251 - 48)), b = (int)lround(255 - t * (255 - 107));
    snprintf(buf, cap, "#%02x%02x%02x", r, g, b);
}

static void comm_matrix(const html_run *run, const json_t *m, size_t n_ranks)
{
    size_t i, cells = n_ranks > 200 ? 200 : n_ranks;
    const json_t *row;
    char id[64], tip[160], col[16], a[48];
    double *bytes = cells ? calloc(cells * cells, sizeof *bytes) : NULL, top = 0;
    json_array_foreach(m, i, row)
    {
        size_t s = (size_t)jnum(row, "source"), d = (size_t)jnum(row, "dest");
        if (bytes && s < n_ranks && d < n_ranks)
            bytes[s * cells / n_ranks * cells + d * cells / n_ranks] += jnum(row, "bytes");
    }
    for (i = 0; bytes && i < cells * cells; i++)
        top = fmax(top, bytes[i]);
    double side = 300, cw = cells ? side / (double)cells : side, x0 = 170, y0 = 24;
    svg_figure_open(run->f, fig_id(run, "comm-matrix", id, sizeof id), "Communication matrix: bytes sent, sender by receiver",
                    SVG_W, (int)side + 60);
    svg_text(run->f, x0 + side / 2, 16, "middle", "receiver rank");
    svg_text_up(run->f, x0 - 40, y0 + side / 2, "sender rank");
    svg_box(run->f, x0, y0, side, side, "#f7fbff", NULL);
    for (i = 0; bytes && i < cells * cells; i++) {
        if (bytes[i] <= 0)
            continue;
        heat(col, sizeof col, top > 1 ? log1p(bytes[i]) / log1p(top) : 1);
        fmt_si(a, sizeof a, bytes[i], "B");
        snprintf(tip, sizeof tip, "%zu → %zu: %s", i / cells * n_ranks / cells, i % cells * n_ranks / cells, a);
        svg_box(run->f, x0 + cw * (double)(i % cells), y0 + cw * (double)(i / cells), cw, cw, col, tip);
    }
    for (i = 0; i < cells && cells <= 32; i++) {
        snprintf(a, sizeof a, "%zu", i);
        svg_text(run->f, x0 + cw * ((double)i + 0.5), y0 + side + 14, "middle", a);
        svg_text(run->f, x0 - 4, y0 + cw * ((double)i + 0.5) + 4, "end", a);
    }
    for (i = 0; i <= 4; i++) { /* the colour key */
        heat(col, sizeof col, (double)i / 4);
        svg_box(run->f, x0 + side + 40, y0 + 20 * (double)(4 - i), 16, 20, col, NULL);
        fmt_si(a, sizeof a, top > 1 ? expm1(log1p(top) * (double)i / 4) : 0, "B");
        svg_text(run->f, x0 + side + 62, y0 + 20 * (double)(4 - i) + 14, "start", a);
    }
    svg_figure_close(run->f, !json_array_size(m)       ? "No point-to-point message was matched."
                             : cells < n_ranks          ? "Ranks are merged into 200 × 200 cells; colours on a log scale."
                                                        : "Colours on a log scale.");
    free(bytes);
}

static void message_sizes(const html_run *run, const json_t *h)
{
    size_t n = json_array_size(h), i;
    const json_t *row;
    char(*labels)[64] = calloc(n ? n : 1, sizeof *labels), id[64], a[24], b[24];
    const char **lp = calloc(n ? n : 1, sizeof *lp);
    double *v = calloc(n ? n : 1, sizeof *v);
    if (labels && lp && v) {
        json_array_foreach(h, i, row)
        {
            fmt_si(a, sizeof a, jnum(row, "min_bytes"), "B");
            fmt_si(b, sizeof b, jnum(row, "max_bytes") + 1, "B");
            snprintf(labels[i], sizeof labels[i], "%s – <%s", a, b);
            lp[i] = labels[i];
            v[i] = jnum(row, "messages");
        }
        const char *names[] = {"messages"}, *colours[] = {svg_colour(4)};
        chart_data d = {n, 1, lp, names, colours, v, NULL, "", "", "message size", "messages"};
        svg_figure_open(run->f, fig_id(run, "message-sizes", id, sizeof id), "Message sizes: messages per size class",
                        SVG_W, CHART_H - 40);
        chart_columns(run->f, &d);
        svg_figure_close(run->f, n ? NULL : "No point-to-point message.");
    }
    free(labels);
    free(lp);
    free(v);
}

typedef struct named_total {
    const char *name;
    double total;
} named_total;

static int by_total_desc(const void *a, const void *b)
{
    const named_total *x = a, *y = b;
    return x->total < y->total ? 1 : x->total > y->total ? -1 : strcmp(x->name, y->name);
}

/* A column of the time_profile table that is an MPI function's: every
 * one but the bin's key, its start and the idle time (declared apart). */
static int is_function_column(const char *name)
{
    return strcmp(name, "bin") && strcmp(name, "start_s") && strcmp(name, "idle");
}

/* The time_profile table: a row per bin, a column per MPI function. */
static void time_profile(const html_run *run, const json_t *tp)
{
    const json_t *first = json_array_get(tp, 0), *row, *x0;
    size_t n = json_array_size(tp), k = 0, l, i;
    const char *name;
    json_object_foreach((json_t *)first, name, x0) k += is_function_column(name) && json_is_number(x0);
    named_total *t = calloc(k ? k : 1, sizeof *t);
    size_t layers = (k > TOP_FUNCTIONS ? TOP_FUNCTIONS + 1 : k);
    double *v = calloc((layers ? layers : 1) * (n ? n : 1), sizeof *v), *x = calloc(n ? n : 1, sizeof *x);
    const char **names = calloc(layers + 1, sizeof *names), **colours = calloc(layers + 1, sizeof *colours);
    double bin_s = n > 1 ? jnum(json_array_get(tp, 1), "start_s") - jnum(first, "start_s") : 0;
    char id[64];
    if (!t || !v || !x || !names || !colours || n > 4096)
        goto out;
    l = 0;
    json_object_foreach((json_t *)first, name, x0) if (is_function_column(name) && json_is_number(x0) && l < k)
    {
        t[l].name = name;
        json_array_foreach(tp, i, row) t[l].total += jnum(row, name);
        l++;
    }
    qsort(t, k, sizeof *t, by_total_desc);
    for (l = 0; l < k; l++) {
        size_t layer = l < TOP_FUNCTIONS ? l : TOP_FUNCTIONS;
        names[layer] = l < TOP_FUNCTIONS ? t[l].name : "other";
        colours[layer] = l < TOP_FUNCTIONS ? svg_colour(l) : SVG_GREY;
        json_array_foreach(tp, i, row) v[layer * n + i] += jnum(row, t[l].name);
    }
    json_array_foreach(tp, i, row) x[i] = jnum(row, "start_s") + bin_s / 2;
    chart_data d = {n, layers, NULL, names, colours, v, x, "s", "s", "time from the start", "MPI time per bin, all ranks"};
    svg_figure_open(run->f, fig_id(run, "time-profile", id, sizeof id), "Time profile: MPI time per function over time",
                    SVG_W, CHART_H + 20);
    chart_area(run->f, &d, 1);
    svg_figure_close(run->f, NULL);
out:
    free(t);
    free(v);
    free(x);
    free(names);
    free(colours);
}

size_t html_wait_kinds(const json_t *ws, const char **columns, size_t max)
{
    const char *name;
    const json_t *x;
    size_t k = 0;
    json_object_foreach((json_t *)json_array_get(ws, 0), name, x) if (k < max && strcmp(name, "rank") && json_is_number(x))
        columns[k++] = name;
    return k;
}

/* The wait_states table (a row per rank, a column per kind of wait
 * state): the kinds stacked per rank. */
static void wait_states(const html_run *run, const json_t *ws, size_t n_ranks)
{
    const json_t *row;
    size_t k, l, i;
    size_t ranks = n_ranks > MAX_BARS ? MAX_BARS : n_ranks;
    const char *columns[32], *names[32], *colours[32];
    char kinds[32][48];
    double *v = calloc(32 * (ranks ? ranks : 1), sizeof *v);
    char(*labels)[24] = calloc(ranks ? ranks : 1, sizeof *labels), id[64];
    const char **lp = calloc(ranks ? ranks : 1, sizeof *lp);
    if (!v || !labels || !lp || !ranks)
        goto out;
    k = html_wait_kinds(ws, columns, 32);
    for (l = 0; l < k; l++) {
        size_t len = strlen(columns[l]) > 2 && !strcmp(columns[l] + strlen(columns[l]) - 2, "_s") ? strlen(columns[l]) - 2
                                                                                                  : strlen(columns[l]);
        snprintf(kinds[l], sizeof kinds[l], "%.*s", (int)len, columns[l]);
        names[l] = kinds[l];
        colours[l] = svg_colour(l);
    }
    json_array_foreach(ws, i, row)
    {
        size_t r = (size_t)jnum(row, "rank");
        for (l = 0; l < k && r < n_ranks; l++)
            v[l * ranks + r * ranks / n_ranks] += jnum(row, columns[l]);
    }
    for (i = 0; i < ranks; i++) {
        snprintf(labels[i], sizeof labels[i], "%zu", i * n_ranks / ranks);
        lp[i] = labels[i];
    }
    chart_data d = {ranks, k, lp, names, colours, v, NULL, "", "s", "rank", "waiting time"};
    svg_figure_open(run->f, fig_id(run, "wait-states", id, sizeof id), "Wait states by category and rank", SVG_W,
                    CHART_H);
    chart_columns(run->f, &d);
    svg_figure_close(run->f, NULL);
out:
    free(v);
    free(labels);
    free(lp);
}

/* The rows of a table with the largest share_pct, largest first, as
 * bars labelled by their `key` column; at most max. */
static size_t share_bars(const json_t *rows, const char *key, char (*labels)[48], double *v, size_t max)
{
    const json_t *row;
    size_t n = 0, i;
    char label[48];
    json_array_foreach(rows, i, row)
    {
        double val = jnum(row, "share_pct");
        const json_t *k = json_object_get(row, key);
        if (json_is_string(k))
            snprintf(label, sizeof label, "%s", json_string_value(k));
        else
            snprintf(label, sizeof label, "%s %.0f", key, json_number_value(k));
        size_t at = n < max ? n++ : max;
        if (at == max && val <= v[max - 1])
            continue;
        at = at == max ? max - 1 : at;
        for (; at > 0 && v[at - 1] < val; at--) {
            v[at] = v[at - 1];
            memcpy(labels[at], labels[at - 1], sizeof labels[at]);
        }
        v[at] = val;
        memcpy(labels[at], label, sizeof label);
    }
    return n;
}

/* critical_path_ranks and critical_path_functions: the share of the
 * path's length on each, the largest as bars. */
static void critical_path(const html_run *run, const json_t *by_rank, const json_t *by_function)
{
    enum { MAX = 12 };
    const char *rl[MAX], *fl[MAX];
    char rank_names[MAX][48], fn_names[MAX][48], id[64];
    double rv[MAX], fv[MAX];
    size_t nr = share_bars(by_rank, "rank", rank_names, rv, MAX);
    size_t nf = share_bars(by_function, "function", fn_names, fv, MAX);
    const char *cr[MAX], *cf[MAX];
    for (size_t i = 0; i < MAX; i++) {
        rl[i] = rank_names[i];
        fl[i] = fn_names[i];
        cr[i] = svg_colour(0);
        cf[i] = svg_colour(2);
    }
    chart_data dr = {nr, 1, rl, NULL, cr, rv, NULL, "", "%", NULL, NULL};
    chart_data df = {nf, 1, fl, NULL, cf, fv, NULL, "", "%", NULL, NULL};
    int h = chart_hbars_height(nr) + chart_hbars_height(nf) + 30;
    svg_figure_open(run->f, fig_id(run, "critical-path", id, sizeof id),
                    "Critical path: share of its length by rank and by function", SVG_W, h);
    svg_text(run->f, 10, 14, "start", "by rank");
    chart_hbars(run->f, 10, &dr);
    svg_text(run->f, 10, chart_hbars_height(nr) + 34, "start", "by function");
    chart_hbars(run->f, chart_hbars_height(nr) + 30, &df);
    svg_figure_close(run->f, NULL);
}

/* The number of ranks: the ranks table's rows, or one more than the
 * largest rank named. */
static size_t rank_count(const json_t *ranks)
{
    size_t n = json_array_size(ranks), i;
    const json_t *row;
    json_array_foreach(ranks, i, row) if ((size_t)jnum(row, "rank") + 1 > n) n = (size_t)jnum(row, "rank") + 1;
    return n > 1000000 ? 1000000 : n;
}

int html_mpi_figures(const html_run *run)
{
    const json_t *root = run->root, *ranks = json_object_get(root, "ranks"), *x;
    int n = 0;
    if (!json_is_array(ranks) || !json_object_get(root, "functions"))
        return 0;
    size_t nr = rank_count(ranks);
    time_per_rank(run, ranks), n++;
    if (json_is_array(x = json_object_get(root, "comm_matrix")))
        comm_matrix(run, x, nr), n++;
    if (json_is_array(x = json_object_get(root, "message_sizes")))
        message_sizes(run, x), n++;
    if (json_array_size(x = json_object_get(root, "time_profile")))
        time_profile(run, x), n++;
    if (json_array_size(x = json_object_get(root, "wait_states")))
        wait_states(run, x, nr), n++;
    if (json_is_array(x = json_object_get(root, "critical_path_ranks")))
        critical_path(run, x, json_object_get(root, "critical_path_functions")), n++;
    return n;
}
