/* report_text.c — reports for people: "key: value" lines, and aligned
 * tables for arrays of objects, section by section.  Numbers of a column
 * share one fixed precision (no exponents), units move from the names'
 * suffixes ("time_s") into the headers ("time (s)"), long tables show
 * their top rows and count the rest, empty tables are left out. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sinks/report/report_render.h"
#include "report_table.h"
#include "report_tree_top.h"

/* How a column's reals are written: decimals enough for six significant
 * digits of its largest value and two of its smallest non-zero one. */
typedef struct number_style {
    double max_abs, min_abs; /* over the column's non-zero reals */
    int decimals;
    int count; /* a count: no decimals whatever its values */
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
    ns->decimals = d < 0 || ns->count ? 0 : d > 9 ? 9 : d;
}

/* A clock reading: a column declared in unit "ns" (named *_ns).  JSON and
 * CSV keep what the clock read; text shows seconds from the dataset's
 * first record, the "first_ns" of the first table of the root with one. */
static int clock_origin(const pw_report *rep, const pw_table_decl *d, const char *key, json_int_t *origin)
{
    if (strcmp(pw_table_column_unit(d, key), "ns"))
        return 0;
    const char *k;
    json_t *v;
    json_object_foreach(rep->root, k, v)
    {
        if (json_is_integer(json_object_get(v, "first_ns"))) { /* a one-row table */
            *origin = json_integer_value(json_object_get(v, "first_ns"));
            return 1;
        }
        size_t i, found = 0;
        json_t *row;
        json_array_foreach(v, i, row) /* a table held whole: its earliest */
        {
            json_t *t = json_object_get(row, "first_ns");
            if (json_is_integer(t) && (!found++ || json_integer_value(t) < *origin))
                *origin = json_integer_value(t);
        }
        if (found)
            return 1;
    }
    return 0;
}

/* v as text shows it (a new reference): clock readings in seconds from
 * the origin, anything else as it is. */
static json_t *shown_value(const pw_report *rep, const pw_table_decl *d, const char *key, json_t *v)
{
    json_int_t origin;
    if (json_is_integer(v) && clock_origin(rep, d, key, &origin))
        return json_real((double)(json_integer_value(v) - origin) / 1e9);
    return json_incref(v);
}

static const char *cell_text(json_t *v, const number_style *ns, char *buf, size_t n)
{
    if (json_is_real(v) && isfinite(json_real_value(v))) {
        /* an exact zero reads at a glance as 0, not 0.00000 */
        snprintf(buf, n, "%.*f", json_real_value(v) == 0 ? 0 : ns->decimals, json_real_value(v));
        if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
            snprintf(buf, n, "%s", strchr(buf + 1, '.') ? "0" : buf + 1); /* no -0 */
        return buf;
    }
    return report_scalar_text(v, buf, n, 0);
}

/* A column's header: its name without the unit suffix of its first part
 * ("mean_s", "energy_j.gpu") and with the unit (declared, else read from
 * that suffix) in parentheses ("mean (s)", "energy.gpu (J)"); labels and
 * counts show no unit. */
static void header_text(const pw_table_decl *d, const char *name, char *out, size_t n)
{
    static const struct { const char *suffix, *unit; } units[] = {
        {"_per_s", "1/s"}, {"_s", "s"},   {"_ms", "ms"},   {"_us", "us"},   {"_ns", "ns"}, {"_pct", "%"},
        {"_j", "J"},   {"_w", "W"},     {"_js", "J\xc2\xb7" "s"}, {"_js2", "J\xc2\xb7" "s\xc2\xb2"}, {"_mhz", "MHz"},
        {"_ps", "ps"}};
    const char *declared = pw_table_column_unit(d, name);
    const char *dot = strchr(name, '.');
    size_t first = dot ? (size_t)(dot - name) : strlen(name), base = first;
    const char *unit = *declared && strcmp(declared, "count") ? declared : NULL;
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        size_t l = strlen(units[i].suffix);
        if (first > l && !strncasecmp(name + first - l, units[i].suffix, l)) { /* "energy_J" too */
            base = first - l;
            unit = unit ? unit : units[i].unit;
            break;
        }
    }
    size_t len = strlen(name);
    for (size_t i = 0; dot && base == first && i < sizeof units / sizeof *units; i++) {
        size_t l = strlen(units[i].suffix); /* else the last part's ("settings.sm_clock_mhz") */
        if (len - first > l + 1 && !strcasecmp(name + len - l, units[i].suffix)) {
            snprintf(out, n, "%.*s (%s)", (int)(len - l), name, unit ? unit : units[i].unit);
            return;
        }
    }
    if (unit)
        snprintf(out, n, "%.*s%s (%s)", (int)base, name, name + first, unit);
    else
        snprintf(out, n, "%s", name);
}

/* A cell or scalar as shown (see shown_value). */
static const char *shown_text(const pw_report *rep, const pw_table_decl *d, const char *key, json_t *v,
                              const number_style *ns, char *buf, size_t n)
{
    json_t *shown = shown_value(rep, d, key, v);
    const char *t = cell_text(shown, ns, buf, n); /* buf, or a string the tree holds */
    json_decref(shown);
    return t;
}

static void style_add_shown(const pw_report *rep, const pw_table_decl *d, const char *key, number_style *ns, json_t *v)
{
    json_t *shown = shown_value(rep, d, key, v);
    style_add(ns, shown);
    json_decref(shown);
}

/* The header of `key`, with its unit: a clock reading text shows in
 * seconds from the origin is headed in seconds ("first (s)"). */
static void shown_header(const pw_report *rep, const pw_table_decl *d, const char *key, char *out, size_t n)
{
    json_int_t origin;
    if (clock_origin(rep, d, key, &origin)) {
        size_t l = strlen(key);
        snprintf(out, n, "%.*s (s)", (int)(l > 3 ? l - 3 : l), key);
        return;
    }
    header_text(d, key, out, n);
}

/* The columns s takes on a terminal: its UTF-8 characters, not its bytes
 * ("J\xc2\xb7s", "\xc2\xb0C" and names alike). */
static size_t text_width(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* The printf field width that pads s to `width` columns. */
static int field(const char *s, size_t width) { return (int)(width + strlen(s) - text_width(s)); }

/* Tree tables (rows with a "depth") indent their "name" by it in text;
 * JSON and CSV keep the name plain. */
static int tree_indent(const report_table *t, size_t c, json_t *row)
{
    json_t *d = json_object_get(row, "depth");
    if (strcmp(t->columns[c], "name") || !json_is_integer(d))
        return 0;
    json_int_t v = json_integer_value(d);
    return 2 * (int)(v < 0 ? 0 : v > 30 ? 30 : v);
}

/* Each column as wide as its header and its widest shown cell. */
/* The rows text shows: the first `shown`, or those `keep` flags (a tree
 * trimmed by whole subtrees, report_tree_top). */
typedef struct shown_rows {
    size_t shown, rows;
    const unsigned char *keep;
} shown_rows;

/* The next shown row of it, or NULL; *r counts the rows read. */
static json_t *next_shown(report_rows *it, const shown_rows *sr, size_t *r)
{
    json_t *row;
    size_t end = sr->keep ? sr->rows : sr->shown;
    while (*r < end && (row = report_rows_next(it))) {
        size_t i = (*r)++;
        if (!sr->keep || sr->keep[i])
            return row;
    }
    return NULL;
}

static void column_layout(const pw_report *rep, const pw_table_decl *d, json_t *arr, const report_table *t,
                          const shown_rows *sr, size_t *w, number_style *ns)
{
    char buf[96];
    for (size_t c = 0; c < t->n; c++) {
        shown_header(rep, d, t->columns[c], buf, sizeof buf);
        w[c] = text_width(buf);
        ns[c].count = !strcmp(pw_table_column_unit(d, t->columns[c]), "count");
    }
    report_rows it;
    report_rows_start(&it, rep, arr);
    json_t *row;
    size_t r = 0;
    while ((row = next_shown(&it, sr, &r)))
        for (size_t c = 0; c < t->n; c++)
            style_add_shown(rep, d, t->columns[c], &ns[c], report_table_cell(row, t->columns[c]));
    report_rows_end(&it);
    for (size_t c = 0; c < t->n; c++)
        style_finish(&ns[c]);
    report_rows_start(&it, rep, arr);
    r = 0;
    while ((row = next_shown(&it, sr, &r)))
        for (size_t c = 0; c < t->n; c++) {
            size_t l = (size_t)tree_indent(t, c, row) +
                       text_width(shown_text(rep, d, t->columns[c], report_table_cell(row, t->columns[c]), &ns[c], buf,
                                         sizeof buf));
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

static void text_table(const pw_report *rep, const pw_table_decl *d, FILE *out, json_t *arr)
{
    report_table t;
    if (!report_table_columns(rep, arr, &t)) {
        report_table_free(&t);
        return;
    }
    size_t rows = report_rows_count(rep, arr), kept = 0;
    unsigned char *keep = rep->top_rows < rows ? report_tree_top(rep, d, arr, rows, rep->top_rows, &kept) : NULL;
    shown_rows sr = {rep->top_rows && rep->top_rows < rows ? rep->top_rows : rows, rows, keep};
    size_t shown = keep ? kept : sr.shown;
    size_t *w = calloc(t.n ? t.n : 1, sizeof *w);
    number_style *ns = calloc(t.n ? t.n : 1, sizeof *ns);
    if (w && ns) {
        char buf[96];
        column_layout(rep, d, arr, &t, &sr, w, ns);
        size_t cols = columns_that_fit(rep, &t, w);
        for (size_t c = 0; c < cols; c++) {
            shown_header(rep, d, t.columns[c], buf, sizeof buf);
            fprintf(out, "  %-*s", field(buf, w[c]), buf);
        }
        fputc('\n', out);
        report_rows it;
        report_rows_start(&it, rep, arr);
        json_t *row;
        size_t r = 0;
        while ((row = next_shown(&it, &sr, &r))) {
            for (size_t c = 0; c < cols; c++) {
                json_t *v = report_table_cell(row, t.columns[c]);
                const char *s = shown_text(rep, d, t.columns[c], v, &ns[c], buf, sizeof buf);
                int indent = tree_indent(&t, c, row);
                fprintf(out, "  %*s%*s", indent, "", json_is_number(v) ? field(s, w[c]) - indent : -(field(s, w[c]) - indent), s);
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
    free(keep);
    report_table_free(&t);
}

static void text_section(const pw_report *rep, const pw_table_decl *d, FILE *out, json_t *obj, const char *title,
                         int depth);

/* An empty array or object says nothing: it is left out. */
static int is_empty(const pw_report *rep, json_t *v)
{
    return (json_is_array(v) && report_rows_count(rep, v) == 0) || (json_is_object(v) && json_object_size(v) == 0);
}

static void scalar_line(const pw_report *rep, const pw_table_decl *d, FILE *out, const char *k, json_t *v, size_t kw,
                        int depth)
{
    char buf[96], head[96];
    shown_header(rep, d, k, head, sizeof head);
    fprintf(out, "%*s%-*s  ", depth * 2, "", field(head, kw + 1), head);
    if (json_is_array(v)) {
        report_rows it;
        report_rows_start(&it, rep, v);
        json_t *item;
        for (size_t i = 0; (item = report_rows_next(&it)); i++)
            fprintf(out, "%s%s", i ? ", " : "", report_scalar_text(item, buf, sizeof buf, 0));
        report_rows_end(&it);
        fputc('\n', out);
    } else {
        number_style ns = {.count = !strcmp(pw_table_column_unit(d, k), "count")};
        style_add_shown(rep, d, k, &ns, v);
        style_finish(&ns);
        fprintf(out, "%s\n", shown_text(rep, d, k, v, &ns, buf, sizeof buf));
    }
}

/* Is the table at `path` (or named `key`) the one asked for?  With one
 * asked, sections are searched for it without their titles and scalars. */
static int wanted(const pw_report *rep, const char *key, const char *path)
{
    return !rep->only_table || !strcmp(rep->only_table, key) || !strcmp(rep->only_table, path);
}

static void text_member(const pw_report *rep, const pw_table_decl *d, FILE *out, const char *k, json_t *v,
                        const char *path, int depth);

/* A table's heading: its path and rows, and its declared title. */
static void table_heading(FILE *out, const pw_table_decl *d, const char *path, size_t rows)
{
    if (d)
        fprintf(out, "\n%s (%zu) \xe2\x80\x94 %s\n", path, rows, d->title);
    else
        fprintf(out, "\n%s (%zu)\n", path, rows);
}

/* Scalars first (aligned "key: value"), then sub-sections and tables.
 * d is the declaration of the root's table this object is in. */
static void text_object(const pw_report *rep, const pw_table_decl *d, FILE *out, json_t *obj, const char *path,
                        int depth)
{
    const char *k;
    json_t *v;
    size_t kw = 0;
    char head[96];
    json_object_foreach(obj, k, v) if (!json_is_object(v) && !report_is_table(rep, v) && !is_empty(rep, v))
    {
        shown_header(rep, d, k, head, sizeof head);
        if (text_width(head) > kw)
            kw = text_width(head);
    }
    json_object_foreach(obj, k, v) {
        if (!rep->only_table && !json_is_object(v) && !report_is_table(rep, v) && !is_empty(rep, v))
            scalar_line(rep, d, out, k, v, kw, depth);
    }
    /* The root's "summary", the first screen, comes first. */
    json_t *first = depth == 0 ? json_object_get(obj, "summary") : NULL;
    if (first)
        text_member(rep, d, out, "summary", first, path, depth);
    json_object_foreach(obj, k, v) {
        if (v != first)
            text_member(rep, d, out, k, v, path, depth);
    }
}

/* One member of an object: a section, a table, or an empty table asked for. */
static void text_member(const pw_report *rep, const pw_table_decl *d, FILE *out, const char *k, json_t *v,
                        const char *path, int depth)
{
    char sub[512];
    snprintf(sub, sizeof sub, "%s%s%s", path, *path ? " / " : "", k);
    const pw_table_decl *td = depth == 0 ? pw_report_decl(rep, k) : d;
    if (json_is_object(v) && !is_empty(rep, v)) {
        text_section(rep, td, out, v, sub, depth);
    } else if (report_is_table(rep, v) && wanted(rep, k, sub)) {
        table_heading(out, td, sub, report_rows_count(rep, v));
        text_table(rep, td, out, v);
    } else if (depth == 0 && rep->only_table && is_empty(rep, v) && wanted(rep, k, sub)) {
        table_heading(out, td, sub, 0); /* asked for: said to be empty */
    }
}

static void text_section(const pw_report *rep, const pw_table_decl *d, FILE *out, json_t *obj, const char *title,
                         int depth)
{
    /* A section asked for by name shows whole; others are searched for
     * the table asked for without their titles. */
    pw_report whole = *rep;
    if (depth == 0 && rep->only_table && !strcmp(rep->only_table, title))
        whole.only_table = NULL;
    if (depth == 0 && d && !whole.only_table)
        fprintf(out, "\n%s \xe2\x80\x94 %s\n", title, d->title);
    else if (!whole.only_table)
        fprintf(out, "\n%s\n", title);
    text_object(&whole, d, out, obj, title, depth + 1);
}

pw_status pw_report_write_text(const pw_report *rep, FILE *out)
{
    text_object(rep, NULL, out, rep->root, "", 0);
    return ferror(out) ? PW_E_IO : PW_OK;
}
