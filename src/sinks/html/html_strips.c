/* html_strips.c — thread-states and cpu-states: a strip per row (thread,
 * CPU) coloured by the state of its view's main channel over the run.
 * The states come from the replay `stats` already makes for its time per
 * state (a watcher, ds->run->states_watch: views/state_times.c), or, when that
 * replay did not run here, from the one the report's driver makes for the
 * page (src/drivers/report_page.c).  They are
 * reduced as they stream, for every labelled channel, to one value per
 * pixel column: the value held longest within it.  The run's length is
 * known only at its end, so a column starts narrow and doubles its width
 * whenever the run outgrows the strip, a row catching up when it is next
 * touched: the strip keeps between half and all of its COLS columns.
 * Beyond MAX_ROWS rows, rows are merged into groups whose column shows the
 * state most rows hold.  Each colour is one <path> of horizontal strokes,
 * so a strip costs a few bytes per change of colour, never per change of
 * state. */
#include <stdlib.h>
#include <string.h>

#include "model/dataset.h"
#include "sinks/html/html_figures.h"
#include "sinks/html/html_svg.h"
#include "views/state_times.h"
#include "views/states.h"

#define COLS 800        /* pixel columns of a strip at most (under 2,000) */
#define MAX_ROWS 300    /* strips drawn; rows beyond are grouped */
#define SLOTS 4         /* values weighed within one column */
#define MAX_VALUES 254  /* values told apart per channel; the rest "other" */
#define OTHER 255
#define FIRST_LEVEL 10  /* a column starts 2^10 ns wide */
#define X0 150.0

/* One row of one channel: the column being filled and the finished ones. */
typedef struct strip_row {
    int64_t since;     /* when the held value began */
    uint32_t col;      /* the column being filled */
    uint8_t level;     /* its columns are 2^level ns wide */
    uint8_t held;      /* value index held since `since`: 0 none, OTHER */
    uint8_t slot_value[SLOTS];
    int64_t slot_time[SLOTS];
    uint8_t out[COLS];
} strip_row;

/* A channel of a view: its rows, and the values it told apart. */
typedef struct strip_channel {
    int32_t id;
    int unlabelled;   /* its first value had no label (an id, a count): not drawn */
    int64_t cache_value[64]; /* the index of recent values, direct-mapped */
    uint8_t cache_index[64];
    uint32_t n_rows;
    strip_row *rows;
    int64_t values[MAX_VALUES + 1]; /* by index - 1 */
    size_t n_values;
    char *labels[MAX_VALUES + 1];   /* copied at the end of the replay */
} strip_channel;

struct html_strips {
    pw_dataset *ds;
    const pw_states *st; /* during a replay: for the values' labels */
    int16_t by_id[2][256];   /* channel index + 1 of small ids (most) */
    pw_states_watch watch;
    strip_channel *channels[2]; /* per view */
    size_t n_channels[2];
    const char *view_names[2];
    char **row_titles[2];
    uint32_t n_rows[2];
    uint8_t level;    /* the columns' width now: 2^level ns */
    int64_t end;      /* the run's end (ns), once over */
    int begun;        /* a replay described its rows */
    int complete;     /* the replay ran to its end */
    int nomem;
};

static int64_t width_at(uint8_t level)
{
    return (int64_t)1 << level;
}

/* The row's columns made as wide as the strip's now: pairs merge (the
 * first value of a pair that holds one). */
static void catch_up(strip_row *r, uint8_t level)
{
    for (; r->level < level; r->level++) {
        for (uint32_t i = 0; i < COLS / 2; i++)
            r->out[i] = r->out[2 * i] ? r->out[2 * i] : r->out[2 * i + 1];
        memset(r->out + COLS / 2, 0, COLS / 2);
        r->col /= 2;
    }
}

static void weigh(strip_row *r, uint8_t v, int64_t dt)
{
    size_t i, least = 0;
    for (i = 0; i < SLOTS; i++) {
        if (r->slot_time[i] && r->slot_value[i] == v) {
            r->slot_time[i] += dt;
            return;
        }
        if (r->slot_time[i] < r->slot_time[least])
            least = i;
    }
    if (!r->slot_time[least] || r->slot_time[least] < dt) {
        r->slot_value[least] = v;
        r->slot_time[least] = dt;
    }
}

static void finish_column(strip_row *r)
{
    size_t best = 0;
    for (size_t i = 1; i < SLOTS; i++)
        if (r->slot_time[i] > r->slot_time[best])
            best = i;
    if (r->col < COLS)
        r->out[r->col] = r->slot_time[best] ? r->slot_value[best] : 0;
    memset(r->slot_time, 0, sizeof r->slot_time);
}

/* The row held r->held from r->since to t (t within the strip). */
static void hold_until(strip_row *r, int64_t t)
{
    int64_t w = width_at(r->level);
    uint32_t c = (uint32_t)(t / w);
    c = c < COLS ? c : COLS - 1;
    if (t <= r->since)
        return;
    while (r->col < c) {
        int64_t end = (int64_t)(r->col + 1) * w;
        weigh(r, r->held, end - r->since);
        finish_column(r);
        r->since = end;
        r->col++;
        if (r->col < c) { /* whole columns of one value */
            memset(r->out + r->col, r->held, c - r->col);
            r->col = c;
            r->since = (int64_t)c * w;
        }
    }
    weigh(r, r->held, t - r->since);
    r->since = t;
}

static uint8_t value_index(strip_channel *ch, int64_t value)
{
    uint32_t slot = pw_state_slot(0, 0, (uint64_t)value, 6);
    if (!value)
        return 0;
    if (ch->cache_index[slot] && ch->cache_value[slot] == value)
        return ch->cache_index[slot];
    size_t i = ch->n_values;
    while (i-- > 0 && ch->values[i] != value)
        ;
    if (i == (size_t)-1 && ch->n_values == MAX_VALUES)
        return OTHER;
    if (i == (size_t)-1)
        ch->values[i = ch->n_values++] = value;
    ch->cache_value[slot] = value;
    ch->cache_index[slot] = (uint8_t)(i + 1);
    return (uint8_t)(i + 1);
}

static strip_channel *channel_of(const html_strips *s, int view, int32_t id)
{
    if (view < 0 || view > 1)
        return NULL;
    if (id >= 0 && id < 256)
        return s->by_id[view][id] ? &s->channels[view][s->by_id[view][id] - 1] : NULL;
    for (size_t i = 0; i < s->n_channels[view]; i++)
        if (s->channels[view][i].id == id)
            return &s->channels[view][i];
    return NULL;
}

static void on_change(void *ctx, int64_t time, int view, uint32_t row, int32_t channel, int64_t value)
{
    html_strips *s = ctx;
    strip_channel *ch = channel_of(s, view, channel);
    if (!ch || ch->unlabelled || row >= ch->n_rows)
        return;
    if (!ch->n_values && value && !s->st->value_label(s->st, view, channel, value)) {
        ch->unlabelled = 1;
        return;
    }
    while (time >= (int64_t)COLS * width_at(s->level) && s->level < 52)
        s->level++;
    strip_row *r = &ch->rows[row];
    catch_up(r, s->level);
    hold_until(r, time);
    r->held = value_index(ch, value);
}

/* Rows and channels once the producer has described them: every channel
 * that is not a counter may be the one drawn. */
static void on_begin(void *ctx, const pw_states *st)
{
    html_strips *s = ctx;
    s->begun = 1;
    s->st = st;
    for (int v = 0; v < 2 && v < st->n_views && !s->nomem; v++) {
        size_t n = st->n_channels(st, v), k = 0;
        s->view_names[v] = st->views[v].name;
        s->n_rows[v] = st->views[v].n_rows;
        s->channels[v] = calloc(n ? n : 1, sizeof *s->channels[v]);
        s->row_titles[v] = calloc(s->n_rows[v] + 1, sizeof *s->row_titles[v]);
        s->nomem |= !s->channels[v] || !s->row_titles[v];
        for (uint32_t r = 0; !s->nomem && r < s->n_rows[v]; r++)
            s->nomem |= !(s->row_titles[v][r] = strdup(st->views[v].rows[r].title));
        for (size_t i = 0; !s->nomem && i < n; i++) {
            pw_state_channel c = st->channel_at(st, v, i);
            if (c.flags & PW_STATE_COUNTER)
                continue;
            strip_channel *ch = &s->channels[v][k++];
            ch->id = c.id;
            if (c.id >= 0 && c.id < 256)
                s->by_id[v][c.id] = (int16_t)k;
            ch->n_rows = s->n_rows[v];
            ch->rows = calloc(ch->n_rows ? ch->n_rows : 1, sizeof *ch->rows);
            s->nomem |= !ch->rows;
            for (uint32_t r = 0; ch->rows && r < ch->n_rows; r++)
                ch->rows[r].level = FIRST_LEVEL;
        }
        s->n_channels[v] = k;
    }
    s->level = FIRST_LEVEL;
}

/* The run is over: every row held its value to the end; the labels of
 * the values are kept, the producer's go with it. */
static void on_end(void *ctx, const pw_states *st)
{
    html_strips *s = ctx;
    s->end = st->end;
    while (s->end >= (int64_t)COLS * width_at(s->level) && s->level < 52)
        s->level++;
    for (int v = 0; v < 2; v++)
        for (size_t i = 0; i < s->n_channels[v]; i++) {
            strip_channel *ch = &s->channels[v][i];
            for (uint32_t r = 0; r < ch->n_rows; r++) {
                catch_up(&ch->rows[r], s->level);
                hold_until(&ch->rows[r], s->end);
                finish_column(&ch->rows[r]);
            }
            for (size_t k = 0; k < ch->n_values && !s->nomem; k++) {
                const char *label = st->value_label(st, v, ch->id, ch->values[k]);
                s->nomem |= label && !(ch->labels[k] = strdup(label));
            }
        }
    s->complete = !s->nomem;
    s->st = NULL;
}

html_strips *html_strips_new(pw_dataset *ds)
{
    html_strips *s = calloc(1, sizeof *s);
    if (s) {
        s->ds = ds;
        s->watch = (pw_states_watch){on_begin, on_change, on_end, s};
    }
    return s;
}

void html_strips_watch(html_strips *s)
{
    if (s && !s->ds->run->states_watch)
        s->ds->run->states_watch = &s->watch;
}

void html_strips_free(html_strips *s)
{
    if (!s)
        return;
    if (s->ds->run->states_watch == &s->watch)
        s->ds->run->states_watch = NULL;
    for (int v = 0; v < 2; v++) {
        for (size_t i = 0; i < s->n_channels[v]; i++) {
            for (size_t k = 0; k < s->channels[v][i].n_values; k++)
                free(s->channels[v][i].labels[k]);
            free(s->channels[v][i].rows);
        }
        free(s->channels[v]);
        for (uint32_t r = 0; s->row_titles[v] && r < s->n_rows[v]; r++)
            free(s->row_titles[v][r]);
        free(s->row_titles[v]);
    }
    free(s);
}

/* The value most rows of [first, last) hold in column c. */
static uint8_t group_value(const strip_channel *ch, uint32_t first, uint32_t last, uint32_t c, unsigned *counts)
{
    uint8_t best = 0;
    memset(counts, 0, 256 * sizeof *counts);
    for (uint32_t r = first; r < last; r++)
        counts[ch->rows[r].out[c]]++;
    for (unsigned k = 1; k < 256; k++)
        if (counts[k] > counts[best])
            best = (uint8_t)k;
    return best;
}

static const char *short_name(const char *s)
{
    const char *slash = strrchr(s, '/');
    return slash ? slash + 1 : s;
}

/* Colour of a value index: its label's rank in the page's label list. */
static uint8_t colour_of(const strip_channel *ch, uint8_t v, const char *const *labels, size_t n_labels)
{
    if (!v)
        return 0;
    const char *label = v != OTHER ? ch->labels[v - 1] : NULL;
    for (size_t i = 0; label && i < n_labels; i++)
        if (!strcmp(label, labels[i]))
            return (uint8_t)(i + 1);
    return (uint8_t)(HTML_STATE_COLOURS + 1);
}

/* One colour's path over the grid of `lines` strips of `used` columns. */
static void colour_path(FILE *f, const uint8_t *grid, uint32_t lines, uint32_t used, uint8_t k, double rh, double y0,
                        double w, const char *label)
{
    int any = 0;
    for (uint32_t g = 0; g < lines; g++)
        for (uint32_t c = 0; c < used;) {
            uint32_t e = c;
            while (e < used && grid[(size_t)g * COLS + e] == k)
                e++;
            if (e == c) {
                c++;
                continue;
            }
            if (!any++)
                fprintf(f, "<path stroke=\"%s\" stroke-width=\"%.0f\" d=\"",
                        k > HTML_STATE_COLOURS ? SVG_GREY : svg_colour(k - 1u), rh > 3 ? rh - 1 : rh);
            fprintf(f, "M%.1f %.1fh%.1f", X0 + w * c / used, y0 + rh * (g + 0.5), w * (e - c) / used);
            c = e;
        }
    if (any) {
        fputs("\"><title>", f);
        html_escaped(f, label);
        fputs("</title></path>\n", f);
    }
}

static void draw_view(const html_run *run, const html_strips *s, int view, const strip_channel *ch,
                      const char *const *labels, size_t n_labels, const char *id, const char *caption)
{
    uint32_t n = ch->n_rows, lines = n > MAX_ROWS ? MAX_ROWS : n;
    int64_t width = width_at(s->level);
    uint32_t used = (uint32_t)((s->end + width - 1) / width);
    double rh = lines <= 30 ? 14 : lines <= 100 ? 5 : 2, y0 = 8, w = SVG_W - X0 - 40;
    uint8_t *grid = malloc((size_t)lines * COLS + 1);
    unsigned *counts = malloc(256 * sizeof *counts);
    char fid[64], a[48], note[240];
    used = used < 1 ? 1 : used > COLS ? COLS : used;
    if (!grid || !counts || !lines)
        goto out;
    for (uint32_t g = 0; g < lines; g++) {
        uint32_t first = (uint32_t)((uint64_t)g * n / lines), last = (uint32_t)((uint64_t)(g + 1) * n / lines);
        for (uint32_t c = 0; c < used; c++) {
            uint8_t v = last - first == 1 ? ch->rows[first].out[c] : group_value(ch, first, last, c, counts);
            grid[(size_t)g * COLS + c] = colour_of(ch, v, labels, n_labels);
        }
    }
    double h = y0 + rh * lines + 40;
    svg_figure_open(run->f, fig_id(run, id, fid, sizeof fid), caption, SVG_W, (int)(h + 18 * (1 + n_labels / 6)));
    svg_box(run->f, X0, y0, w, rh * lines, "#fafafa", NULL);
    for (uint8_t k = 1; k <= HTML_STATE_COLOURS + 1; k++)
        colour_path(run->f, grid, lines, used, k, rh, y0, w, k <= n_labels ? labels[k - 1] : "other");
    for (uint32_t g = 0; g < lines && rh >= 10; g++)
        svg_text(run->f, X0 - 6, y0 + rh * g + 11, "end", short_name(s->row_titles[view][(uint64_t)g * n / lines]));
    svg_axis(run->f, 0, X0, y0 + rh * lines, w, 0, (double)used * (double)width / 1e9, "s");
    const char *names[HTML_STATE_COLOURS + 1], *colours[HTML_STATE_COLOURS + 1];
    for (size_t i = 0; i < n_labels; i++) {
        names[i] = labels[i];
        colours[i] = svg_colour(i);
    }
    names[n_labels] = "other";
    colours[n_labels] = SVG_GREY;
    svg_legend(run->f, X0, y0 + rh * lines + 40, w, names, colours, n_labels + 1);
    fmt_si(a, sizeof a, (double)width / 1e9, "s");
    snprintf(note, sizeof note, "%u %ss%s; a column is %s, coloured by the state held longest in it.", n,
             s->view_names[view], n > lines ? ", merged into 300 strips (the state most hold)" : "", a);
    svg_figure_close(run->f, note);
out:
    free(grid);
    free(counts);
}

void html_state_strips(const html_run *run, const html_strips *strips)
{
    const json_t *states = json_object_get(run->root, pw_state_times_table.name);
    static const char *const views[] = {"thread", "cpu"};
    static const char *const ids[] = {"thread-states", "cpu-states"};
    static const char *const captions[] = {"Thread states over time", "CPU states over time"};
    if (!run->ds || !json_is_array(states) || !strips)
        return;
    for (int v = 0; strips->complete && v < 2; v++) {
        int64_t type = html_main_channel(states, views[v]);
        const strip_channel *ch = type >= 0 ? channel_of(strips, v, (int32_t)type) : NULL;
        const char *labels[HTML_STATE_COLOURS];
        size_t n_labels = html_state_labels(states, views[v], type, labels, HTML_STATE_COLOURS);
        if (ch && strips->view_names[v] && !strcmp(strips->view_names[v], views[v]))
            draw_view(run, strips, v, ch, labels, n_labels, ids[v], captions[v]);
    }
}

const pw_states_watch *html_strips_unfed(html_strips *s)
{
    return s && !s->begun ? &s->watch : NULL;
}
