/* html_states.c — the figures of states (the "states" table of time per
 * state per row that the emulator's analysis and state_times.c give, read
 * by its declaration's columns, views/state_times.h):
 * state-shares, and the words of the verdict about them.  A view (threads,
 * CPUs) is drawn by its main channel: the one that holds states the
 * longest, such as the thread state. */
#include <stdlib.h>
#include <string.h>

#include "sinks/html/html_charts.h"
#include "sinks/html/html_figures.h"
#include "sinks/html/html_svg.h"
#include "views/state_times.h"

#define MAX_ROWS 300 /* columns of a share chart; rows beyond are merged */

int64_t html_main_channel(const json_t *states, const char *view)
{
    int64_t types[64], best = -1;
    double time[64], top = 0;
    size_t n = 0, i, t;
    const json_t *row;
    json_array_foreach(states, i, row) if (!strcmp(jstr(row, PW_STATES_COLUMN(VIEW)), view))
    {
        int64_t type = (int64_t)jnum(row, PW_STATES_COLUMN(TYPE));
        for (t = 0; t < n && types[t] != type; t++)
            ;
        if (t == n && n == 64)
            continue;
        if (t == n) {
            types[n] = type;
            time[n++] = 0;
        }
        time[t] += jnum(row, PW_STATES_COLUMN(TIME_S));
    }
    for (t = 0; t < n; t++)
        if (time[t] > top) {
            top = time[t];
            best = types[t];
        }
    return best;
}

static int is_of(const json_t *row, const char *view, int64_t type)
{
    return !strcmp(jstr(row, PW_STATES_COLUMN(VIEW)), view) && (int64_t)jnum(row, PW_STATES_COLUMN(TYPE)) == type;
}

typedef struct label_time {
    const char *label;
    double time;
} label_time;

static int by_time_desc(const void *a, const void *b)
{
    const label_time *x = a, *y = b;
    return x->time < y->time ? 1 : x->time > y->time ? -1 : strcmp(x->label, y->label);
}

size_t html_state_labels(const json_t *states, const char *view, int64_t type, const char **labels, size_t max)
{
    label_time lt[256];
    size_t n = 0, i, l;
    const json_t *row;
    json_array_foreach(states, i, row) if (is_of(row, view, type))
    {
        const char *label = jstr(row, PW_STATES_COLUMN(LABEL));
        for (l = 0; l < n && strcmp(lt[l].label, label); l++)
            ;
        if (l == n && n == 256)
            continue;
        if (l == n)
            lt[n++] = (label_time){label, 0};
        lt[l].time += jnum(row, PW_STATES_COLUMN(TIME_S));
    }
    qsort(lt, n, sizeof *lt, by_time_desc);
    for (l = 0; l < n && l < max; l++)
        labels[l] = lt[l].label;
    return l;
}

const char *html_channel_name(const json_t *states, const char *view, int64_t type)
{
    size_t i;
    const json_t *row;
    json_array_foreach(states, i, row) if (is_of(row, view, type)) return jstr(row, PW_STATES_COLUMN(CHANNEL));
    return "";
}

/* The rows of a view in the order the table first names them. */
static size_t view_rows(const json_t *states, const char *view, int64_t type, const char ***rows)
{
    size_t n = 0, cap = 0, i, r;
    const json_t *row;
    *rows = NULL;
    json_array_foreach(states, i, row) if (is_of(row, view, type))
    {
        const char *name = jstr(row, PW_STATES_COLUMN(ROW));
        if (n && !strcmp((*rows)[n - 1], name))
            continue;
        for (r = 0; r < n && strcmp((*rows)[r], name); r++)
            ;
        if (r < n)
            continue;
        if (n == cap) {
            const char **grown = realloc(*rows, (cap = cap ? 2 * cap : 64) * sizeof *grown);
            if (!grown)
                return n;
            *rows = grown;
        }
        (*rows)[n++] = name;
    }
    return n;
}

/* Short row names: the last path component ("thread.6289", "cpu.3"). */
static const char *short_name(const char *s)
{
    const char *slash = strrchr(s, '/');
    return slash ? slash + 1 : s;
}

static void shares_chart(const html_run *run, const json_t *states, const char *view, int64_t type)
{
    const char *labels[HTML_STATE_COLOURS + 1], *colours[HTML_STATE_COLOURS + 1], **rows;
    size_t k = html_state_labels(states, view, type, labels, HTML_STATE_COLOURS), n = view_rows(states, view, type, &rows);
    size_t cols = n > MAX_ROWS ? MAX_ROWS : n, i, l, r = 0;
    double *v = calloc((k + 1) * (cols ? cols : 1), sizeof *v);
    const char **lp = calloc(cols ? cols : 1, sizeof *lp);
    const json_t *row;
    char title[300];
    if (!v || !lp || !rows)
        goto out;
    for (l = 0; l < k; l++)
        colours[l] = svg_colour(l);
    labels[k] = "other";
    colours[k] = SVG_GREY;
    json_array_foreach(states, i, row) if (is_of(row, view, type))
    {
        const char *name = jstr(row, PW_STATES_COLUMN(ROW)), *label = jstr(row, PW_STATES_COLUMN(LABEL));
        if (strcmp(rows[r], name))
            for (r = 0; r < n && strcmp(rows[r], name); r++)
                ;
        for (l = 0; l < k && strcmp(labels[l], label); l++)
            ;
        v[l * cols + r * cols / n] += jnum(row, PW_STATES_COLUMN(SHARE_PCT));
    }
    for (i = 0; i < n; i++) /* a merged column holds the mean of its rows */
        lp[i * cols / n] = lp[i * cols / n] ? lp[i * cols / n] : (const char *)rows[i];
    for (i = 0; i < cols && cols < n; i++)
        for (l = 0; l <= k; l++)
            v[l * cols + i] /= (double)((i + 1) * n / cols - i * n / cols);
    for (i = 0; i < cols; i++)
        lp[i] = short_name(rows[i * n / cols]);
    snprintf(title, sizeof title, "%s", html_channel_name(states, view, type));
    chart_data d = {cols, k + 1, lp, labels, colours, v, NULL, "", PW_COLUMN_UNIT(pw_state_times_table, PW_STATES_SHARE_PCT),
                    view, "share of the run"};
    fprintf(run->f, "<p class=\"note\">%ss: ", view);
    html_escaped(run->f, title);
    fputs("</p>\n", run->f);
    fprintf(run->f, "<svg viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\">\n", SVG_W, CHART_H + 20,
            SVG_W, CHART_H + 20);
    chart_columns(run->f, &d);
    fputs("</svg>\n", run->f);
out:
    free(v);
    free(lp);
    free(rows);
}

int html_state_figures(const html_run *run)
{
    const json_t *states = json_object_get(run->root, pw_state_times_table.name);
    int64_t t = html_main_channel(states, "thread"), c = html_main_channel(states, "cpu");
    char id[64];
    if (!json_is_array(states) || (t < 0 && c < 0))
        return 0;
    fprintf(run->f, "<figure id=\"%s\" class=\"fig\"><figcaption>State shares: time per state, per thread and per CPU"
                    "</figcaption>\n",
            fig_id(run, "state-shares", id, sizeof id));
    if (t >= 0)
        shares_chart(run, states, "thread", t);
    if (c >= 0)
        shares_chart(run, states, "cpu", c);
    fputs("</figure>\n", run->f);
    return 1;
}

void html_state_verdict(const html_run *run, const json_t *states, const char *view, int64_t type)
{
    const char *labels[3], **rows;
    size_t k = html_state_labels(states, view, type, labels, 3), n = view_rows(states, view, type, &rows), i, l;
    double share[3] = {0}, least = 2, sum;
    const char *idle_row = NULL;
    const json_t *row;
    char text[400] = "";
    json_array_foreach(states, i, row) if (is_of(row, view, type)) for (l = 0; l < k; l++) if (!strcmp(labels[l], jstr(row, PW_STATES_COLUMN(LABEL))))
        share[l] += jnum(row, PW_STATES_COLUMN(SHARE_PCT)) / 100;
    for (size_t r = 0; r < n; r++) {
        sum = 0;
        json_array_foreach(states, i, row) if (is_of(row, view, type) && !strcmp(jstr(row, PW_STATES_COLUMN(ROW)), rows[r]))
            sum += jnum(row, PW_STATES_COLUMN(SHARE_PCT)) / 100;
        if (sum < least) {
            least = sum;
            idle_row = rows[r];
        }
    }
    for (l = 0; l < k && n; l++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s %.2g %%", l ? ", " : "", labels[l],
                 100 * share[l] / (double)n);
    if (k)
        html_finding(run, "%zu %ss, %s: %s of their time.", n, view, html_channel_name(states, view, type), text);
    if (idle_row && least < 0.995)
        html_finding(run, "Least busy %s: %s, with no %s %.0f %% of the run.", view, short_name(idle_row),
                     html_channel_name(states, view, type), 100 * (1 - least));
    free(rows);
}
