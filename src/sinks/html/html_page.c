/* html_page.c — pw_html_report and pw_html_compare: one self-contained
 * HTML page of a run's stats (or of a comparison of two runs): the
 * verdict first, then the figures its data allows, the tables, and the
 * very JSON that `stats --json` (`diff --json`) prints, embedded for
 * whoever wants the numbers behind a chart.  Nothing on the page names a
 * URL: it opens offline, and its bytes depend only on the data. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "model/report.h"
#include "sinks/html/html_assets.h"
#include "sinks/html/html_figures.h"
#include "sinks/html/html_svg.h"

/* Rows of a data table shown on the page (all are in the JSON). */
#define TABLE_ROWS 50

double jnum(const json_t *o, const char *key)
{
    const json_t *v = o ? json_object_get(o, key) : NULL;
    return json_is_number(v) ? json_number_value(v) : 0;
}

const char *jstr(const json_t *o, const char *key)
{
    const json_t *v = o ? json_object_get(o, key) : NULL;
    return json_is_string(v) ? json_string_value(v) : "";
}

const char *fig_id(const html_run *run, const char *id, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s", run->prefix, id);
    return buf;
}

static void page_open(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n<title>",
          f);
    html_escaped(f, title);
    fprintf(f, "</title>\n<style>\n%s</style></head><body>\n<div id=\"tip\"></div>\n", html_style);
}

/* The JSON as the CLI prints it, inside a script element: every '<' is
 * written \u003c (the same string to a JSON parser), so that no "</script"
 * or "<!--" in a name can end or bend the element. */
static pw_status embed_json(FILE *f, const pw_report *r, pw_error *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return pw_fail_errno(err, "<report>", "cannot hold the JSON of the report");
    pw_status s = pw_report_write(r, mem, PW_REPORT_JSON, err);
    if (fclose(mem) != 0 && s == PW_OK)
        s = pw_fail_errno(err, "<report>", "cannot hold the JSON of the report");
    if (s == PW_OK) {
        fputs("<script type=\"application/json\" id=\"perfweave-stats\">", f);
        for (size_t i = 0; i < len; i++)
            if (text[i] == '<')
                fputs("\\u003c", f);
            else
                fputc(text[i], f);
        fputs("</script>\n", f);
    }
    free(text);
    return s;
}

static void cell(FILE *f, const json_t *v)
{
    char buf[64];
    if (json_is_integer(v))
        fprintf(f, "<td>%lld</td>", (long long)json_integer_value(v));
    else if (json_is_real(v)) {
        snprintf(buf, sizeof buf, "%.6g", json_real_value(v));
        fprintf(f, "<td>%s</td>", buf);
    } else if (json_is_string(v)) {
        fputs("<td>", f);
        html_escaped(f, json_string_value(v));
        fputs("</td>", f);
    } else if (json_is_boolean(v))
        fprintf(f, "<td>%s</td>", json_is_true(v) ? "true" : "false");
    else
        fputs("<td></td>", f);
}

/* One array of objects as a sortable table of its first rows: the
 * columns are the scalar members of the first row. */
static void data_table(FILE *f, const char *name, const json_t *arr)
{
    const json_t *first = json_array_get(arr, 0);
    const char *key;
    const json_t *v;
    size_t n = json_array_size(arr), shown = n < TABLE_ROWS ? n : TABLE_ROWS;
    fputs("<details class=\"table\"><summary>", f);
    html_escaped(f, name);
    fprintf(f, " (%zu rows%s)</summary><table class=\"data\"><thead><tr>", n,
            shown < n ? ", the first 50 shown" : "");
    json_object_foreach((json_t *)first, key, v) if (!json_is_object(v) && !json_is_array(v))
    {
        fputs("<th>", f);
        html_escaped(f, key);
        fputs("</th>", f);
    }
    fputs("</tr></thead><tbody>\n", f);
    for (size_t i = 0; i < shown; i++) {
        const json_t *row = json_array_get(arr, i);
        fputs("<tr>", f);
        json_object_foreach((json_t *)first, key, v) if (!json_is_object(v) && !json_is_array(v))
            cell(f, json_object_get(row, key));
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table></details>\n", f);
}

/* Every array of objects in the tree (at its root or one object deep). */
static void data_tables(FILE *f, const json_t *root, const char *prefix)
{
    const char *key, *k2;
    const json_t *v, *v2;
    char name[256];
    json_object_foreach((json_t *)root, key, v)
    {
        if (json_is_array(v) && json_is_object(json_array_get(v, 0)))
            data_table(f, key, v);
        else if (json_is_object(v))
            json_object_foreach((json_t *)v, k2, v2) if (json_is_array(v2) && json_is_object(json_array_get(v2, 0)))
            {
                snprintf(name, sizeof name, "%s%s.%s", prefix, key, k2);
                data_table(f, name, v2);
            }
    }
}

/* What the run is: the scalar members of the table that opens the report
 * when it has one row (an object: DUMPI's and ovni's trace, HPCToolkit's
 * database, GPU power's tree), else of the root itself. */
static void run_facts(FILE *f, const json_t *root)
{
    const char *key;
    const json_t *v, *first = json_object_iter_value(json_object_iter((json_t *)root));
    const json_t *facts = json_is_object(first) ? first : root;
    int n = 0;
    fputs("<p class=\"meta\">", f);
    json_object_foreach((json_t *)facts, key, v) if (json_is_string(v) || json_is_number(v))
    {
        if (n++ >= 12)
            break;
        fputs(n > 1 ? " · " : "", f);
        html_escaped(f, key);
        fputs(" ", f);
        if (json_is_string(v))
            html_escaped(f, json_string_value(v));
        else if (json_is_integer(v))
            fprintf(f, "%lld", (long long)json_integer_value(v));
        else
            fprintf(f, "%.6g", json_real_value(v));
    }
    fputs("</p>\n", f);
}

/* Every figure the run's data allows, in one column. */
static void run_figures(const html_run *run)
{
    int n = html_mpi_figures(run);
    html_state_strips(run, html_watch_strips(run->watch));
    n += html_state_figures(run);
    n += html_profile_figures(run);
    n += html_pdes_figures(run);
    n += html_energy_figures(run);
    if (!n)
        fputs("<p class=\"note\">The report of this dataset has no figure; its tables follow.</p>\n", run->f);
}

static void page_close(FILE *f)
{
    fprintf(f, "<script>\n%s</script>\n</body></html>\n", html_script);
}

static pw_status check_written(FILE *f, pw_status s, pw_error *err)
{
    if (s == PW_OK && (ferror(f) || fflush(f) != 0))
        return pw_fail_errno(err, "<output>", "cannot write the report page");
    return s;
}

pw_status pw_html_report(pw_dataset *ds, const pw_report *r, const pw_html_watch *w, FILE *out, pw_error *err)
{
    const json_t *root = pw_report_json(r);
    const char *path = ds ? pw_dataset_path(ds) : "";
    int findings = 0;
    html_run run = {out, root, ds, "", path, &findings, w};
    page_open(out, path);
    fputs("<h1>perfweave report</h1>\n<p class=\"meta\">", out);
    html_escaped(out, path);
    if (ds) {
        fputs(" — ", out);
        html_escaped(out, pw_dataset_format(ds));
        fputs(" ", out);
        html_escaped(out, pw_dataset_version(ds));
    }
    fputs("</p>\n", out);
    run_facts(out, root);
    fputs("<section id=\"summary\"><h2>Verdict</h2><ul>\n", out);
    html_findings(&run);
    fputs("</ul></section>\n<h2>Figures</h2>\n", out);
    run_figures(&run);
    fputs("<h2>Tables</h2>\n<button id=\"toggle-tables\" type=\"button\">open or close every table</button>\n",
          out);
    data_tables(out, root, "");
    pw_status s = embed_json(out, r, err);
    page_close(out);
    return check_written(out, s, err);
}

/* One run's column of a comparison. */
static void side(FILE *f, pw_dataset *ds, const pw_report *r, const pw_html_watch *w, const char *prefix,
                 const char *label)
{
    const char *path = pw_dataset_path(ds);
    int findings = 0;
    html_run run = {f, pw_report_json(r), ds, prefix, path, &findings, w};
    fprintf(f, "<div><h2>%s: ", label);
    html_escaped(f, path);
    fputs("</h2>\n<ul class=\"note\">", f);
    html_findings(&run);
    fputs("</ul>\n", f);
    run_figures(&run);
    fputs("</div>\n", f);
}

pw_status pw_html_compare(pw_dataset *da, const pw_report *ra, const pw_html_watch *wa, pw_dataset *db,
                          const pw_report *rb, const pw_html_watch *wb, const pw_report *diff, FILE *out,
                          pw_error *err)
{
    const json_t *d = pw_report_json(diff);
    page_open(out, "perfweave comparison");
    fputs("<h1>perfweave comparison</h1>\n<p class=\"meta\">A ", out);
    html_escaped(out, pw_dataset_path(da));
    fputs(" · B ", out);
    html_escaped(out, pw_dataset_path(db));
    fputs(" — ", out);
    html_escaped(out, pw_dataset_format(da));
    fputs("</p>\n<section id=\"summary\"><h2>Verdict</h2><ul>\n", out);
    html_diff_findings(out, d);
    fputs("</ul></section>\n<h2>Largest changes</h2>\n", out);
    html_diff_figures(out, d);
    fputs("<div class=\"runs\">\n", out);
    side(out, da, ra, wa, "a-", "A");
    side(out, db, rb, wb, "b-", "B");
    fputs("</div>\n<h2>Tables</h2>\n<button id=\"toggle-tables\" type=\"button\">open or close every table</button>\n",
          out);
    data_tables(out, d, "");
    pw_status s = embed_json(out, diff, err);
    page_close(out);
    return check_written(out, s, err);
}
