/* html_profile.c — the figures of call-path profiles (HPCToolkit's
 * top_down and imbalance tables): an icicle of the top-down tree by
 * inclusive cost, and each procedure's spread across profiles.  The tree
 * is read from the table's rows in pre-order, by their depth and name
 * columns. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sinks/html/html_charts.h"
#include "sinks/html/html_figures.h"
#include "sinks/html/html_svg.h"

#define ICICLE_DEPTH 14 /* levels drawn */
#define LEVEL_H 22.0

/* A row's depth and plain name: the tree table's depth and name columns. */
static size_t depth_of(const json_t *row)
{
    double d = jnum(row, "depth");
    return d > 0 ? (size_t)d : 0;
}

static const char *name_of(const json_t *row)
{
    return jstr(row, "name");
}

/* Procedure names without their load module ("f [libx.so]" is f). */
static void append_name(char *buf, size_t cap, size_t *o, const char *sep, const char *name)
{
    const char *bracket = strstr(name, " [");
    int len = bracket ? (int)(bracket - name) : (int)strlen(name);
    if (*o < cap)
        *o += (size_t)snprintf(buf + *o, cap - *o, "%s%.*s", sep, len, name);
    *o = *o < cap ? *o : cap - 1;
}

/* The row of the heaviest child (by col) of the row at `at`, at depth
 * `depth`, in a depth-first table of n rows; n when it has none.  The hot
 * path is these children followed from the root. */
static size_t heaviest_child(const json_t *td, size_t n, size_t at, size_t depth, const char *col)
{
    size_t best = n;
    for (size_t i = at + 1; i < n; i++) {
        size_t d = depth_of(json_array_get(td, i));
        if (d <= depth)
            break;
        if (d == depth + 1 && (best == n || jnum(json_array_get(td, i), col) > jnum(json_array_get(td, best), col)))
            best = i;
    }
    return best;
}

size_t html_hot_path(const json_t *td, const char *col, char *buf, size_t cap)
{
    size_t n = json_array_size(td), steps = 0, at = 0, depth = 0, o = 0;
    const char *fns[4] = {0}; /* the first function and the last three */
    buf[0] = 0;
    while (at < n) { /* the heaviest child of the row at `at` */
        size_t best = heaviest_child(td, n, at, depth, col);
        if (best == n)
            break;
        const json_t *row = json_array_get(td, best);
        if (!strcmp(jstr(row, "kind"), "function")) {
            if (steps++ == 0)
                fns[0] = name_of(row);
            else {
                fns[1] = fns[2];
                fns[2] = fns[3];
                fns[3] = name_of(row);
            }
        }
        at = best;
        depth++;
    }
    if (fns[0])
        append_name(buf, cap, &o, "", fns[0]);
    if (steps > 4)
        append_name(buf, cap, &o, " → ", "…");
    for (size_t i = 1; i < 4; i++)
        if (fns[i])
            append_name(buf, cap, &o, " → ", fns[i]);
    return steps;
}

double html_hot_path_value(const json_t *td, const char *col)
{
    size_t n = json_array_size(td), at = 0, depth = 0, last_fn = 0;
    for (;;) {
        size_t best = heaviest_child(td, n, at, depth, col);
        if (best == n)
            break;
        if (!strcmp(jstr(json_array_get(td, best), "kind"), "function"))
            last_fn = best;
        at = best;
        depth++;
    }
    return jnum(json_array_get(td, last_fn), col);
}

/* A name's colour, the same wherever it appears in the tree. */
static const char *colour_of(const char *name)
{
    size_t h = 0;
    for (; *name; name++)
        h = h * 31 + (unsigned char)*name;
    return svg_colour(h % 97);
}

/* Each row's box: x from where its parent's children have reached. */
static void icicle(const html_run *run, const json_t *td, const char *col)
{
    size_t n = json_array_size(td), i;
    double next[ICICLE_DEPTH + 2] = {0};
    double total = jnum(json_array_get(td, 0), col), w = SVG_W - 20;
    char id[64], tip[512], val[48], label[64];
    size_t deepest = 0;
    for (i = 0; i < n; i++) {
        size_t d = depth_of(json_array_get(td, i));
        deepest = d > deepest && d <= ICICLE_DEPTH ? d : deepest;
    }
    int h = (int)(LEVEL_H * (double)(deepest + 1) + 12);
    svg_figure_open(run->f, fig_id(run, "flame-graph", id, sizeof id), "Top-down tree by inclusive cost (icicle)", SVG_W,
                    h);
    fputs("<g fill-opacity=\"0.6\">\n", run->f);
    for (i = 0; i < n && total > 0; i++) {
        const json_t *row = json_array_get(td, i);
        size_t d = depth_of(row);
        double v = jnum(row, col);
        if (d > ICICLE_DEPTH)
            continue;
        /* A row starts where its parent's last child ended. */
        double x = d ? next[d] : 10, bw = w * v / total;
        next[d] = x + bw;
        next[d + 1] = x; /* its children start at its left */
        if (bw < 0.5)
            continue;
        fmt_si(val, sizeof val, v, "");
        snprintf(tip, sizeof tip, "%s — %s (%.1f %%)", name_of(row), val, 100 * v / total);
        svg_box(run->f, x, 4 + LEVEL_H * (double)d, bw - 0.5, LEVEL_H - 2, colour_of(name_of(row)), tip);
        if (bw > 40) {
            snprintf(label, sizeof label, "%.*s", (int)(bw / 7) < 60 ? (int)(bw / 7) : 60, name_of(row));
            fprintf(run->f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#111\" fill-opacity=\"1\" class=\"tick\">", x + 3,
                    4 + LEVEL_H * (double)d + 14);
            html_escaped(run->f, label);
            fputs("</text>\n", run->f);
        }
    }
    char note[256];
    snprintf(note, sizeof note, "Width: %s inclusive, of %s at the root; levels below %d are not drawn.", col,
             total > 0 ? "the total" : "nothing", ICICLE_DEPTH);
    fputs("</g>\n", run->f);
    svg_figure_close(run->f, note);
}

static void imbalance(const html_run *run, const json_t *imb)
{
    size_t n = json_array_size(imb), shown = n > 20 ? 20 : n, i;
    double top = 0, w = SVG_W - 330;
    char id[64], tip[512], a[48], b[48], c[48], label[48];
    for (i = 0; i < shown; i++)
        top = fmax(top, jnum(json_array_get(imb, i), "max"));
    svg_figure_open(run->f, fig_id(run, "profile-imbalance", id, sizeof id),
                    "The metric across profiles: min, mean and max per procedure", SVG_W, (int)(22 * shown + 40));
    svg_axis(run->f, 0, 240, 22 * (double)shown + 8, w, 0, top > 0 ? top : 1, "");
    for (i = 0; i < shown; i++) {
        const json_t *row = json_array_get(imb, i);
        double y = 4 + 22 * (double)i, lo = jnum(row, "min"), mean = jnum(row, "mean"), hi = jnum(row, "max");
        double k = top > 0 ? w / top : 0;
        snprintf(label, sizeof label, "%.32s", jstr(row, "procedure"));
        svg_text(run->f, 234, y + 13, "end", label);
        fmt_si(a, sizeof a, lo, "");
        fmt_si(b, sizeof b, mean, "");
        fmt_si(c, sizeof c, hi, "");
        snprintf(tip, sizeof tip, "%s: min %s, mean %s, max %s over %.0f profiles", jstr(row, "procedure"), a, b, c,
                 jnum(row, "profiles"));
        svg_box(run->f, 240 + k * lo, y + 3, fmax(k * (hi - lo), 1), 12, svg_colour(0), tip);
        svg_box(run->f, 240 + k * mean - 1, y, 2, 18, "#222", NULL);
    }
    svg_figure_close(run->f, "Bars span min to max across profiles; the dark tick is the mean.");
}

int html_profile_figures(const html_run *run)
{
    const json_t *td = json_object_get(run->root, "top_down"), *imb = json_object_get(run->root, "imbalance");
    char col[160];
    int n = 0;
    snprintf(col, sizeof col, "%s (I)", jstr(json_object_get(run->root, "database"), "metric"));
    if (json_is_array(td))
        icicle(run, td, col), n++;
    if (json_is_array(imb))
        imbalance(run, imb), n++;
    return n;
}
