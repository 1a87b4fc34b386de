/* html_diff.c — the comparison's verdict and its diff-functions figure,
 * from the tree `diff --json` prints: {"a", "b", "tables": {NAME: [{key,
 * a, b, delta}]}}.  Which table speaks for the comparison is chosen by
 * its rows, not by the format: the first of a few well-known names that
 * exists, else the largest table keyed by a name. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sinks/html/html_charts.h"
#include "sinks/html/html_figures.h"
#include "sinks/html/html_svg.h"

#define TOP_CHANGES 15

/* Tables whose rows are what a user calls "functions", best first. */
static const char *const preferred[] = {"functions", "flat", "states", "pes", "settings_energy", "runs", NULL};

/* A readable name of a row's key: its string members joined. */
static void key_name(const json_t *key, char *buf, size_t cap)
{
    const char *k;
    const json_t *v;
    size_t o = 0;
    buf[0] = 0;
    json_object_foreach((json_t *)key, k, v)
    {
        if (o + 2 >= cap)
            break;
        if (json_is_string(v))
            o += (size_t)snprintf(buf + o, cap - o, "%s%s", o ? " " : "", json_string_value(v));
        else if (json_is_number(v))
            o += (size_t)snprintf(buf + o, cap - o, "%s%s %.0f", o ? " " : "", k, json_number_value(v));
        o = o < cap ? o : cap - 1;
    }
}

static const json_t *chosen_table(const json_t *tables, const char **name)
{
    const char *key;
    const json_t *t, *best = NULL;
    for (size_t i = 0; preferred[i]; i++)
        if (json_array_size(t = json_object_get(tables, preferred[i]))) {
            *name = preferred[i];
            return t;
        }
    json_object_foreach((json_t *)tables, key, t) if (json_array_size(t) > json_array_size(best))
    {
        best = t;
        *name = key;
    }
    return best;
}

/* The column a table's change is measured in: the first that reads as a
 * time, an energy or an inclusive cost, else the first number. */
static const char *measure(const json_t *table)
{
    const json_t *delta = json_object_get(json_array_get(table, 0), "delta"), *v; /* in every row */
    const char *key, *first = NULL;
    json_object_foreach((json_t *)delta, key, v) if (json_is_number(v))
    {
        size_t n = strlen(key);
        if ((n > 2 && !strcmp(key + n - 2, "_s")) || strstr(key, "time") || strstr(key, "(I)") ||
            strstr(key, "energy"))
            return key;
        if (!first)
            first = key;
    }
    return first;
}

/* The unit a column's name gives ("time_s": s), for fmt_si. */
static const char *unit_of(const char *col)
{
    size_t n = col ? strlen(col) : 0;
    if (n > 2 && (!strcmp(col + n - 2, "_s") || (n > 3 && !strcmp(col + n - 3, "_ns"))))
        return "s";
    if (n > 2 && !strcmp(col + n - 2, "_j"))
        return "J";
    return "";
}

/* A column's value in the unit of unit_of (ns are written as seconds). */
static double in_unit(const char *col, double v)
{
    size_t n = col ? strlen(col) : 0;
    return n > 3 && !strcmp(col + n - 3, "_ns") ? v * 1e-9 : v;
}

/* A value with its unit: "288 µs"; signed: "+288 µs", "-3.83 ms". */
static void fmt_value(char *buf, size_t cap, double v, const char *col)
{
    fmt_si(buf, cap, in_unit(col, v), unit_of(col));
}

static void fmt_delta(char *buf, size_t cap, double v, const char *col)
{
    char body[40];
    fmt_value(body, sizeof body, v, col);
    snprintf(buf, cap, "%s%s", v > 0 ? "+" : "", body);
}

typedef struct change {
    const json_t *row;
    double delta;
} change;

static int by_size_desc(const void *a, const void *b)
{
    const change *x = a, *y = b;
    double dx = fabs(x->delta), dy = fabs(y->delta);
    return dx < dy ? 1 : dx > dy ? -1 : 0;
}

/* The largest changes of the table in the measure, largest first. */
static size_t largest_changes(const json_t *table, const char *col, change *out, size_t max)
{
    size_t n = json_array_size(table), i, k = 0;
    change *all = calloc(n + 1, sizeof *all);
    if (!all)
        return 0;
    for (i = 0; i < n; i++) {
        all[i].row = json_array_get(table, i);
        all[i].delta = jnum(json_object_get(all[i].row, "delta"), col);
    }
    qsort(all, n, sizeof *all, by_size_desc);
    for (k = 0; k < n && k < max && all[k].delta != 0; k++)
        out[k] = all[k];
    free(all);
    return k;
}

void html_diff_findings(FILE *f, const json_t *diff)
{
    const char *name = NULL;
    const json_t *t = chosen_table(json_object_get(diff, "tables"), &name);
    const char *col = t ? measure(t) : NULL;
    int n = 0;
    html_run run = {f, diff, NULL, "", "", &n, NULL};
    if (col) {
        double a = 0, b = 0;
        char sa[48], sb[48];
        size_t i;
        const json_t *row;
        json_array_foreach(t, i, row)
        {
            a += jnum(json_object_get(row, "a"), col);
            b += jnum(json_object_get(row, "b"), col);
        }
        fmt_value(sa, sizeof sa, a, col);
        fmt_value(sb, sizeof sb, b, col);
        html_finding(&run, "Over the %zu changed rows of %s, %s goes from %s in A to %s in B (%+.1f %%).",
                     json_array_size(t), name, col, sa, sb, a != 0 ? 100 * (b - a) / fabs(a) : 0);
        change top[3];
        size_t k = largest_changes(t, col, top, 3);
        for (i = 0; i < k; i++) {
            char key[256];
            key_name(json_object_get(top[i].row, "key"), key, sizeof key);
            double va = jnum(json_object_get(top[i].row, "a"), col);
            char d[64];
            fmt_delta(d, sizeof d, top[i].delta, col);
            fmt_value(sa, sizeof sa, va, col);
            fmt_value(sb, sizeof sb, jnum(json_object_get(top[i].row, "b"), col), col);
            html_finding(&run, "%s: %s %s (%s → %s%s).", key, col, d, sa, sb, va != 0 ? "" : ", new in B");
        }
    }
    if (!n)
        html_finding(&run, "No table of the two runs differs.");
}

int html_diff_figures(FILE *f, const json_t *diff)
{
    const char *name = NULL;
    const json_t *t = chosen_table(json_object_get(diff, "tables"), &name);
    const char *col = t ? measure(t) : NULL;
    change top[TOP_CHANGES];
    size_t k = col ? largest_changes(t, col, top, TOP_CHANGES) : 0, i;
    char key[96], caption[256], tip[300], val[64];
    double big = 0, x0 = 300, mid = x0 + (SVG_W - x0 - 40) / 2, half = (SVG_W - x0 - 40) / 2 - 80;
    for (i = 0; i < k; i++)
        big = fmax(big, fabs(top[i].delta));
    snprintf(caption, sizeof caption, "Largest changes from A to B: %s of %s", col ? col : "-", name ? name : "-");
    svg_figure_open(f, "diff-functions", caption, SVG_W, (int)(22 * k + 30));
    svg_line(f, mid, 4, mid, 22 * (double)k + 8, "#666", 0);
    for (i = 0; i < k; i++) {
        double y = 6 + 22 * (double)i, w = big > 0 ? half * fabs(top[i].delta) / big : 0;
        key_name(json_object_get(top[i].row, "key"), key, sizeof key);
        const char *shown = key + (strlen(key) > 40 ? strlen(key) - 40 : 0); /* a long key keeps its end */
        while ((*shown & 0xC0) == 0x80) /* not within a UTF-8 character */
            shown++;
        svg_text(f, x0 - 6, y + 13, "end", shown);
        fmt_delta(val, sizeof val, top[i].delta, col);
        snprintf(tip, sizeof tip, "%s: A %.4g, B %.4g, B − A %s", key, jnum(json_object_get(top[i].row, "a"), col),
                 jnum(json_object_get(top[i].row, "b"), col), val);
        svg_box(f, top[i].delta < 0 ? mid - w : mid, y + 2, w, 14, top[i].delta < 0 ? svg_colour(2) : svg_colour(3), tip);
        svg_text(f, top[i].delta < 0 ? mid - w - 4 : mid + w + 4, y + 13, top[i].delta < 0 ? "end" : "start", val);
    }
    svg_figure_close(f, k ? "Green: less in B; red: more in B." : "No row changed.");
    return 1;
}
