/* report_text.c — reports for people: "key: value" lines, and aligned
 * tables for arrays of objects, section by section.  Numbers of a column
 * share one fixed precision (no exponents), units move from the names'
 * suffixes ("time_s") into the headers ("time (s)"), long tables show
 * their top rows and count the rest, empty tables are left out. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sinks/report/report_render.h"
#include "report_table.h"

/* How a column's reals are written: decimals enough for six significant
 * digits of its largest value and two of its smallest non-zero one. */
typedef struct number_style {
    double max_abs, min_abs; /* over the column's non-zero reals */
    int decimals;
} number_style;

static void style_add(number_style *ns, const json_t *v)
{
    if (!json_is_real(v) || json_real_value(v) == 0 || !isfinite(json_real_value(v)))
        return;
    double a = fabs(json_real_value(v));
    if (ns->max_abs == 0 || a > ns->max_abs)
        ns->max_abs = a;
    if (ns->min_abs == 0 || a < ns->min_abs)
        ns->min_abs = a;
}

static void style_finish(number_style *ns)
{
    int whole = ns->max_abs > 0 ? (int)floor(log10(ns->max_abs)) + 1 : 1;
    int d = 6 - whole, small = ns->min_abs > 0 ? 1 - (int)floor(log10(ns->min_abs)) : 0;
    if (small > d)
        d = small;
    ns->decimals = d < 0 ? 0 : d > 9 ? 9 : d;
}

/* Text shows a trace's clock readings ("first_clock") as nanoseconds from
 * its start, the root's "first_clock", which stays as it is; JSON and CSV
 * keep them absolute. */
static int clock_origin(const pw_report *rep, const char *key, int is_origin, json_int_t *origin)
{
    size_t l = strlen(key);
    json_t *o = json_object_get(rep->root, "first_clock");
    if (is_origin || l <= 6 || strcmp(key + l - 6, "_clock") || !json_is_integer(o))
        return 0;
    *origin = json_integer_value(o);
    return 1;
}

static const char *cell_text(json_t *v, const number_style *ns, char *buf, size_t n)
{
    if (json_is_real(v) && isfinite(json_real_value(v))) {
        /* an exact zero reads at a glance as 0, not 0.00000 */
        snprintf(buf, n, "%.*f", json_real_value(v) == 0 ? 0 : ns->decimals, json_real_value(v));
        return buf;
    }
    return report_scalar_text(v, buf, n, 0);
}

/* A name whose last part ends in a unit ("mean_us", "energy_j.gpu") as a
 * header with the unit in parentheses ("mean (us)", "energy.gpu (J)"). */
static void header_text(const char *name, char *out, size_t n)
{
    static const struct { const char *suffix, *unit; } units[] = {
        {"_per_s", "/s"}, {"_s", "s"},   {"_ms", "ms"},   {"_us", "us"},   {"_ns", "ns"}, {"_pct", "%"},
        {"_j", "J"},   {"_w", "W"},     {"_js", "J s"}, {"_js2", "J s2"}, {"_mhz", "MHz"},
        {"_ps", "ps"}};
    snprintf(out, n, "%s", name);
    const char *dot = strchr(name, '.');
    size_t first = dot ? (size_t)(dot - name) : strlen(name);
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        size_t l = strlen(units[i].suffix);
        if (first > l && !strncmp(name + first - l, units[i].suffix, l)) {
            snprintf(out, n, "%.*s%s (%s)", (int)(first - l), name, name + first, units[i].unit);
            return;
        }
    }
}

/* A cell or scalar as shown: relative to the trace start when it is a
 * clock reading (see clock_origin). */
static const char *shown_text(const pw_report *rep, const char *key, int is_origin, json_t *v,
                              const number_style *ns, char *buf, size_t n)
{
    json_int_t origin;
    if (json_is_integer(v) && clock_origin(rep, key, is_origin, &origin)) {
        snprintf(buf, n, "%" JSON_INTEGER_FORMAT, json_integer_value(v) - origin);
        return buf;
    }
    return cell_text(v, ns, buf, n);
}

/* The header of `key`: its unit, or "ns from start" for a clock reading. */
static void shown_header(const pw_report *rep, const char *key, int is_origin, char *out, size_t n)
{
    json_int_t origin;
    if (clock_origin(rep, key, is_origin, &origin))
        snprintf(out, n, "%.*s (ns from start)", (int)(strlen(key) - 6), key);
    else
        header_text(key, out, n);
}

/* Each column as wide as its header and its widest shown cell. */
static void column_layout(const pw_report *rep, json_t *arr, const report_table *t, size_t shown,
                          size_t *w, number_style *ns)
{
    char buf[96];
    for (size_t c = 0; c < t->n; c++) {
        shown_header(rep, t->columns[c], 0, buf, sizeof buf);
        w[c] = strlen(buf);
    }
    report_rows it;
    report_rows_start(&it, rep, arr);
    json_t *row;
    for (size_t r = 0; r < shown && (row = report_rows_next(&it)); r++)
        for (size_t c = 0; c < t->n; c++)
            style_add(&ns[c], report_table_cell(row, t->columns[c]));
    report_rows_end(&it);
    for (size_t c = 0; c < t->n; c++)
        style_finish(&ns[c]);
    report_rows_start(&it, rep, arr);
    for (size_t r = 0; r < shown && (row = report_rows_next(&it)); r++)
        for (size_t c = 0; c < t->n; c++) {
            size_t l = strlen(shown_text(rep, t->columns[c], 0, report_table_cell(row, t->columns[c]), &ns[c],
                                         buf, sizeof buf));
            if (l > w[c])
                w[c] = l;
        }
    report_rows_end(&it);
}

/* The leading columns whose lines fit the width (at least one). */
static size_t columns_that_fit(const pw_report *rep, const report_table *t, const size_t *w)
{
    size_t used = 0, c = 0;
    for (; c < t->n; c++) {
        used += 2 + w[c];
        if (rep->width && c > 0 && used > rep->width)
            break;
    }
    return c;
}

static void text_table(const pw_report *rep, FILE *out, json_t *arr)
{
    report_table t;
    if (!report_table_columns(rep, arr, &t)) {
        report_table_free(&t);
        return;
    }
    size_t rows = report_rows_count(rep, arr);
    size_t shown = rep->top_rows && rep->top_rows < rows ? rep->top_rows : rows;
    size_t *w = calloc(t.n ? t.n : 1, sizeof *w);
    number_style *ns = calloc(t.n ? t.n : 1, sizeof *ns);
    if (w && ns) {
        char buf[96];
        column_layout(rep, arr, &t, shown, w, ns);
        size_t cols = columns_that_fit(rep, &t, w);
        for (size_t c = 0; c < cols; c++) {
            shown_header(rep, t.columns[c], 0, buf, sizeof buf);
            fprintf(out, "  %-*s", (int)w[c], buf);
        }
        fputc('\n', out);
        report_rows it;
        report_rows_start(&it, rep, arr);
        json_t *row;
        for (size_t r = 0; r < shown && (row = report_rows_next(&it)); r++) {
            for (size_t c = 0; c < cols; c++) {
                json_t *v = report_table_cell(row, t.columns[c]);
                const char *s = shown_text(rep, t.columns[c], 0, v, &ns[c], buf, sizeof buf);
                fprintf(out, "  %*s", json_is_number(v) ? (int)w[c] : -(int)w[c], s);
            }
            fputc('\n', out);
        }
        report_rows_end(&it);
        if (shown < rows)
            fprintf(out, "  \xe2\x80\xa6 %zu more (--top 0 shows all)\n", rows - shown);
        if (cols < t.n)
            fprintf(out, "  (%zu more columns past the terminal's width: -o FILE, --json or --csv show them)\n",
                    t.n - cols);
    }
    free(w);
    free(ns);
    report_table_free(&t);
}

static void text_section(const pw_report *rep, FILE *out, json_t *obj, const char *title, int depth);

/* An empty array or object says nothing: it is left out. */
static int is_empty(const pw_report *rep, json_t *v)
{
    return (json_is_array(v) && report_rows_count(rep, v) == 0) || (json_is_object(v) && json_object_size(v) == 0);
}

static void scalar_line(const pw_report *rep, FILE *out, const char *k, json_t *v, size_t kw, int depth)
{
    char buf[96], head[96];
    int is_origin = depth == 0 && !strcmp(k, "first_clock");
    shown_header(rep, k, is_origin, head, sizeof head);
    fprintf(out, "%*s%-*s  ", depth * 2, "", (int)kw + 1, head);
    if (json_is_array(v)) {
        report_rows it;
        report_rows_start(&it, rep, v);
        json_t *item;
        for (size_t i = 0; (item = report_rows_next(&it)); i++)
            fprintf(out, "%s%s", i ? ", " : "", report_scalar_text(item, buf, sizeof buf, 0));
        report_rows_end(&it);
        fputc('\n', out);
    } else {
        number_style ns = {0};
        style_add(&ns, v);
        style_finish(&ns);
        fprintf(out, "%s\n", shown_text(rep, k, is_origin, v, &ns, buf, sizeof buf));
    }
}

/* Is the table at `path` (or named `key`) the one asked for?  With one
 * asked, sections are searched for it without their titles and scalars. */
static int wanted(const pw_report *rep, const char *key, const char *path)
{
    return !rep->only_table || !strcmp(rep->only_table, key) || !strcmp(rep->only_table, path);
}

/* Scalars first (aligned "key: value"), then sub-sections and tables. */
static void text_object(const pw_report *rep, FILE *out, json_t *obj, const char *path, int depth)
{
    const char *k;
    json_t *v;
    size_t kw = 0;
    char head[96];
    json_object_foreach(obj, k, v) if (!json_is_object(v) && !report_is_table(rep, v) && !is_empty(rep, v))
    {
        shown_header(rep, k, depth == 0 && !strcmp(k, "first_clock"), head, sizeof head);
        if (strlen(head) > kw)
            kw = strlen(head);
    }
    json_object_foreach(obj, k, v) {
        if (!rep->only_table && !json_is_object(v) && !report_is_table(rep, v) && !is_empty(rep, v))
            scalar_line(rep, out, k, v, kw, depth);
    }
    json_object_foreach(obj, k, v) {
        char sub[512];
        snprintf(sub, sizeof sub, "%s%s%s", path, *path ? " / " : "", k);
        if (json_is_object(v) && !is_empty(rep, v)) {
            text_section(rep, out, v, sub, depth);
        } else if (report_is_table(rep, v) && wanted(rep, k, sub)) {
            fprintf(out, "\n%s (%zu)\n", sub, report_rows_count(rep, v));
            text_table(rep, out, v);
        }
    }
}

static void text_section(const pw_report *rep, FILE *out, json_t *obj, const char *title, int depth)
{
    if (!rep->only_table)
        fprintf(out, "\n%s\n", title);
    text_object(rep, out, obj, title, depth + 1);
}

pw_status pw_report_write_text(const pw_report *rep, FILE *out)
{
    text_object(rep, out, rep->root, "", 0);
    return ferror(out) ? PW_E_IO : PW_OK;
}
