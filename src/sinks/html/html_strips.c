/* html_strips.c — thread-states and cpu-states: a strip per row (thread,
 * CPU) coloured by the state of its view's main channel over the run,
 * from the states the dataset's analyses derive (views/states.h),
 * replayed once and reduced on the fly to one colour per pixel column:
 * the state held longest within it.  Beyond MAX_ROWS rows, rows are
 * merged into groups whose column shows the colour most rows hold.  Each
 * colour is one <path> of horizontal strokes, so a strip costs a few
 * bytes per change of colour, never per change of state. */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "model/dataset.h"
#include "sinks/html/html_figures.h"
#include "sinks/html/html_svg.h"
#include "views/states.h"

#define COLS 800         /* pixel columns of a strip (at most 2,000) */
#define MAX_ROWS 300     /* strips drawn; rows beyond are grouped */
#define SLOTS 4          /* states weighed within one column */
#define OTHER (HTML_STATE_COLOURS + 1)
#define X0 150.0

/* One row's column being filled, and the colours of the finished ones. */
typedef struct strip_row {
    int64_t since;     /* when the held colour began */
    uint32_t col;      /* the column being filled */
    uint8_t held;      /* colour held since `since`: 0 none, 1.. labels, OTHER */
    uint8_t slot_colour[SLOTS];
    int64_t slot_time[SLOTS];
    uint8_t *out;      /* COLS colours */
} strip_row;

typedef struct strip_view {
    int64_t channel;   /* the main channel's id, -1: not drawn */
    const char *labels[HTML_STATE_COLOURS];
    size_t n_labels;
    uint32_t n_rows;
    strip_row *rows;
    int64_t cache_value[256];
    uint8_t cache_colour[256], cache_set[256];
} strip_view;

typedef struct strips {
    pw_states *st;
    int64_t span;
    strip_view views[2];
    int nomem;
} strips;

static uint32_t column_of(const strips *s, int64_t t)
{
    int64_t c = s->span > 0 ? (int64_t)((double)t * COLS / (double)s->span) : 0;
    return c < 0 ? 0 : c >= COLS ? COLS - 1 : (uint32_t)c;
}

static int64_t column_start(const strips *s, uint32_t c)
{
    return (int64_t)((double)c * (double)s->span / COLS);
}

/* Weighs `dt` of colour c in the row's current column. */
static void weigh(strip_row *r, uint8_t c, int64_t dt)
{
    size_t i, least = 0;
    for (i = 0; i < SLOTS; i++) {
        if (r->slot_time[i] && r->slot_colour[i] == c) {
            r->slot_time[i] += dt;
            return;
        }
        if (r->slot_time[i] < r->slot_time[least])
            least = i;
    }
    if (!r->slot_time[least] || r->slot_time[least] < dt) {
        r->slot_colour[least] = c;
        r->slot_time[least] = dt;
    }
}

/* The current column gets its heaviest colour; the slots empty. */
static void finish_column(strip_row *r)
{
    size_t best = 0;
    for (size_t i = 1; i < SLOTS; i++)
        if (r->slot_time[i] > r->slot_time[best])
            best = i;
    r->out[r->col] = r->slot_time[best] ? r->slot_colour[best] : 0;
    memset(r->slot_time, 0, sizeof r->slot_time);
}

/* The row held r->held from r->since to t. */
static void hold_until(const strips *s, strip_row *r, int64_t t)
{
    uint32_t c = column_of(s, t);
    if (t <= r->since)
        return;
    while (r->col < c) {
        int64_t end = column_start(s, r->col + 1);
        weigh(r, r->held, end - r->since);
        finish_column(r);
        r->since = end;
        r->col++;
        if (r->col < c) { /* whole columns in one colour */
            memset(r->out + r->col, r->held, c - r->col);
            r->col = c;
            r->since = column_start(s, c);
        }
    }
    weigh(r, r->held, t - r->since);
    r->since = t;
}

static uint8_t colour_of(strips *s, strip_view *v, int view, int64_t value)
{
    uint32_t slot = pw_state_slot(view, 0, (uint64_t)value, 8);
    if (value == 0)
        return 0;
    if (v->cache_set[slot] && v->cache_value[slot] == value)
        return v->cache_colour[slot];
    const char *label = s->st->value_label(s->st, view, (int32_t)v->channel, value);
    uint8_t c = OTHER;
    for (size_t i = 0; label && i < v->n_labels; i++)
        if (!strcmp(label, v->labels[i]))
            c = (uint8_t)(i + 1);
    v->cache_set[slot] = 1;
    v->cache_value[slot] = value;
    v->cache_colour[slot] = c;
    return c;
}

static void on_change(void *ctx, int64_t time, int view, uint32_t row, int32_t channel, int64_t value)
{
    strips *s = ctx;
    if (view < 0 || view > 1)
        return;
    strip_view *v = &s->views[view];
    if (channel != v->channel || row >= v->n_rows || !v->rows)
        return;
    strip_row *r = &v->rows[row];
    hold_until(s, r, time);
    r->held = colour_of(s, v, view, value);
}

/* Rows and their columns, once the producer has described the views. */
static int prepare(strips *s)
{
    for (int v = 0; v < 2 && v < s->st->n_views; v++) {
        strip_view *sv = &s->views[v];
        if (sv->channel < 0)
            continue;
        sv->n_rows = s->st->views[v].n_rows;
        sv->rows = calloc(sv->n_rows ? sv->n_rows : 1, sizeof *sv->rows);
        if (!sv->rows)
            return -1;
        for (uint32_t r = 0; r < sv->n_rows; r++)
            if (!(sv->rows[r].out = calloc(COLS, 1)))
                return -1;
    }
    return 0;
}

/* The colour most rows of [first, last) hold in column c. */
static uint8_t group_colour(const strip_view *v, uint32_t first, uint32_t last, uint32_t c)
{
    unsigned counts[OTHER + 1] = {0};
    uint8_t best = 0;
    for (uint32_t r = first; r < last; r++)
        counts[v->rows[r].out[c]]++;
    for (uint8_t k = 1; k <= OTHER; k++)
        if (counts[k] > counts[best])
            best = k;
    return best;
}

static const char *short_name(const char *s)
{
    const char *slash = strrchr(s, '/');
    return slash ? slash + 1 : s;
}

static void draw_view(const html_run *run, const strips *s, int view, const char *id, const char *caption)
{
    const strip_view *v = &s->views[view];
    uint32_t lines = v->n_rows > MAX_ROWS ? MAX_ROWS : v->n_rows;
    double rh = lines <= 30 ? 14 : lines <= 100 ? 5 : 2, y0 = 8, w = SVG_W - X0 - 40;
    uint8_t *grid = malloc((size_t)lines * COLS + 1);
    char fid[64], a[48];
    if (!grid || !lines) {
        free(grid);
        return;
    }
    for (uint32_t g = 0; g < lines; g++) {
        uint32_t first = (uint32_t)((uint64_t)g * v->n_rows / lines), last = (uint32_t)((uint64_t)(g + 1) * v->n_rows / lines);
        for (uint32_t c = 0; c < COLS; c++)
            grid[(size_t)g * COLS + c] = last - first == 1 ? v->rows[first].out[c] : group_colour(v, first, last, c);
    }
    double h = y0 + rh * lines + 40;
    svg_figure_open(run->f, fig_id(run, id, fid, sizeof fid), caption, SVG_W, (int)(h + 18 * (1 + v->n_labels / 6)));
    svg_box(run->f, X0, y0, w, rh * lines, "#fafafa", NULL);
    for (uint8_t k = 1; k <= OTHER; k++) { /* one path per colour */
        int any = 0;
        for (uint32_t g = 0; g < lines; g++)
            for (uint32_t c = 0; c < COLS;) {
                uint32_t e = c;
                while (e < COLS && grid[(size_t)g * COLS + e] == k)
                    e++;
                if (e > c) {
                    if (!any++)
                        fprintf(run->f, "<path stroke=\"%s\" stroke-width=\"%.0f\" d=\"",
                                k == OTHER ? SVG_GREY : svg_colour(k - 1u), rh > 3 ? rh - 1 : rh);
                    fprintf(run->f, "M%.1f %.1fh%.1f", X0 + w * c / COLS, y0 + rh * (g + 0.5), w * (e - c) / COLS);
                    c = e;
                } else
                    c++;
            }
        if (any) {
            fputs("\"><title>", run->f);
            html_escaped(run->f, k == OTHER ? "other" : v->labels[k - 1]);
            fputs("</title></path>\n", run->f);
        }
    }
    for (uint32_t g = 0; g < lines && rh >= 10; g++)
        svg_text(run->f, X0 - 6, y0 + rh * g + 11, "end",
                 short_name(s->st->views[view].rows[(uint64_t)g * v->n_rows / lines].title));
    svg_axis(run->f, 0, X0, y0 + rh * lines, w, 0, (double)s->span / 1e9, "s");
    const char *names[OTHER], *colours[OTHER];
    for (size_t i = 0; i < v->n_labels; i++) {
        names[i] = v->labels[i];
        colours[i] = svg_colour(i);
    }
    names[v->n_labels] = "other";
    colours[v->n_labels] = SVG_GREY;
    svg_legend(run->f, X0, y0 + rh * lines + 40, w, names, colours, v->n_labels + 1);
    char note[200];
    fmt_si(a, sizeof a, (double)s->span / COLS / 1e9, "s");
    snprintf(note, sizeof note, "%u %ss%s; a column is %s, coloured by the state held longest in it.", v->n_rows,
             s->st->views[view].name, v->n_rows > lines ? ", merged into 300 strips (the colour most hold)" : "", a);
    svg_figure_close(run->f, note);
    free(grid);
}

static void free_strips(strips *s)
{
    for (int v = 0; v < 2; v++) {
        for (uint32_t r = 0; s->views[v].rows && r < s->views[v].n_rows; r++)
            free(s->views[v].rows[r].out);
        free(s->views[v].rows);
    }
}

pw_status html_state_strips(const html_run *run, pw_error *err)
{
    const json_t *states = json_object_get(run->root, "states");
    const pw_states_source *src = run->ds ? pw_states_source_for(run->ds) : NULL;
    strips s = {.span = (int64_t)jnum(run->root, "span_ns")};
    static const char *const views[] = {"thread", "cpu"};
    if (!src || !json_is_array(states) || s.span <= 0)
        return PW_OK;
    for (int v = 0; v < 2; v++) {
        s.views[v].channel = html_main_channel(states, views[v]);
        s.views[v].n_labels = html_state_labels(states, views[v], s.views[v].channel, s.views[v].labels, HTML_STATE_COLOURS);
    }
    /* The replay finds again what the stats pass found: its findings are
     * taken back, so that each is reported once. */
    pw_dataset *ds = run->ds;
    pthread_mutex_lock(&ds->diag_lock);
    size_t n_diags = ds->n_diags;
    uint64_t dropped = ds->diags_dropped;
    int worst = ds->worst;
    pthread_mutex_unlock(&ds->diag_lock);
    pw_status st = src->start(run->ds, on_change, &s, &s.st, err);
    if (st == PW_OK && prepare(&s) != 0)
        st = pw_fail(err, PW_E_NOMEM, pw_dataset_path(run->ds), PW_NO_OFFSET, "out of memory for the state strips");
    if (st == PW_OK)
        st = src->play(s.st, err);
    if (st == PW_OK) {
        for (int v = 0; v < 2; v++)
            for (uint32_t r = 0; s.views[v].rows && r < s.views[v].n_rows; r++) {
                hold_until(&s, &s.views[v].rows[r], s.span);
                finish_column(&s.views[v].rows[r]);
            }
        if (s.views[0].channel >= 0)
            draw_view(run, &s, 0, "thread-states", "Thread states over time");
        if (s.views[1].channel >= 0 && s.st->n_views > 1)
            draw_view(run, &s, 1, "cpu-states", "CPU states over time");
    }
    if (s.st)
        src->release(s.st);
    pw_ds_diag_take_back(ds, n_diags, dropped, worst);
    free_strips(&s);
    return st;
}
