/* state_times.c — time per state, summed from the spans of the changes.
 * Value 0 (no state) and values without a label (ids, counters) are not
 * counted, but for a view's busy channel (state_busy.h), so memory is
 * bounded by rows x labelled values. */
#include "views/state_times.h"
#include "views/state_busy.h"
#include "views/state_totals.h"

#include <stdlib.h>

#include "views/state_spans.h"
#include "core/compiler.h"
#include "core/grow.h"

/* The time of one labelled value of a row's channel. */
typedef struct value_time {
    int64_t value;
    uint64_t ns;
} value_time;

/* A row channel's labelled values (few: a channel's states), found from
 * the span's track by a short walk, without hashing. */
typedef struct track_times {
    value_time *v;
    uint32_t n, cap;
    uint32_t last; /* the value counted last: a channel mostly goes back to it */
} track_times;

typedef struct state_times {
    const pw_states *st;
    pw_state_spans *spans;
    track_times *tracks;  /* by the span track's user field - 1 */
    size_t n, cap;
    size_t n_values;
    int failed;
} state_times;

/* The times of the span's track, made on its first span. */
static track_times *times_of(state_times *st, pw_state_track *tr)
{
    if (tr->user)
        return &st->tracks[tr->user - 1];
    if (!pw_grow((void **)&st->tracks, st->n, &st->cap, sizeof *st->tracks))
        return NULL;
    st->tracks[st->n] = (track_times){NULL, 0, 0, 0};
    tr->user = (uint32_t)++st->n;
    return &st->tracks[st->n - 1];
}

static value_time *value_of(track_times *tt, int64_t value)
{
    if (tt->last < tt->n && tt->v[tt->last].value == value)
        return &tt->v[tt->last];
    for (uint32_t i = 0; i < tt->n; i++)
        if (tt->v[i].value == value) {
            tt->last = i;
            return &tt->v[i];
        }
    return NULL;
}

static value_time *add_value(state_times *st, track_times *tt, int64_t value)
{
    if (tt->n == tt->cap) {
        uint32_t cap = tt->cap ? tt->cap * 2 : 4;
        value_time *v = realloc(tt->v, cap * sizeof *v);
        if (!v)
            return NULL;
        tt->v = v;
        tt->cap = cap;
    }
    st->n_values++;
    tt->v[tt->n] = (value_time){value, 0};
    return &tt->v[tt->n++];
}

/* A value not counted yet: counted from now on when it has a label or
 * is of the view's busy channel (for the busy time of its row).  Not
 * inlined, so that the common path saves no registers. */
static PW_NOINLINE void count_new_value(state_times *st, track_times *tt, int view,
                                                      int32_t type, int64_t value, uint64_t ns)
{
    if (!st->st->value_label(st->st, view, type, value) && !pw_state_busy_channel(st->st, view, type))
        return;
    value_time *a = add_value(st, tt, value);
    if (!a) {
        st->failed = 1;
        return;
    }
    a->ns += ns;
}

/* A span of a nonzero value on track tr. */
static inline void count_span(state_times *st, pw_state_track *tr, int view, int32_t type, int64_t value,
                              uint64_t ns)
{
    track_times *tt = times_of(st, tr);
    if (!tt) {
        st->failed = 1;
        return;
    }
    /* A value already counted had a label (labels are never taken back):
     * only a new one looks its label up. */
    value_time *a = value_of(tt, value);
    if (a)
        a->ns += ns;
    else
        count_new_value(st, tt, view, type, value, ns);
}

/* The spans the states end with (pw_state_spans_close). */
static void on_span(void *ctx, int view, uint32_t row, int32_t type, int64_t value, int64_t t0,
                    int64_t t1, int first)
{
    (void)row;
    state_times *st = ctx;
    if (!first && value)
        count_span(st, pw_state_spans_current(st->spans), view, type, value, (uint64_t)t1 - (uint64_t)t0);
}

/* A change ends its track's span, counted here without a callback (this
 * is every change of the emulation: the span callback's arguments cost
 * more than the counting). */
static void on_change(void *ctx, int64_t time, int view, uint32_t row, int32_t type, int64_t value)
{
    state_times *st = ctx;
    int64_t held, since;
    pw_state_track *tr = pw_state_spans_move(st->spans, time, view, row, type, value, &held, &since);
    if (tr && held && time > since)
        count_span(st, tr, view, type, held, (uint64_t)time - (uint64_t)since);
}

/* Every change also goes to the watcher (ds->run->states_watch). */
typedef struct watched_times {
    state_times *times;
    const pw_states_watch *watch;
} watched_times;

static void on_change_watched(void *ctx, int64_t time, int view, uint32_t row, int32_t type, int64_t value)
{
    watched_times *w = ctx;
    on_change(w->times, time, view, row, type, value);
    w->watch->change(w->watch->ctx, time, view, row, type, value);
}

/* A report row's data: the track's key, the value, its time. */
typedef struct time_acc {
    uint64_t key;
    int64_t value;
    uint64_t ns;
} time_acc;

static int by_key_value(const void *a, const void *b)
{
    const time_acc *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->value < y->value ? -1 : x->value > y->value;
}

static const char *row_name(const pw_states *st, int view, uint32_t row)
{
    const pw_state_view *v = &st->views[view];
    return row < v->n_rows ? v->rows[row].title : "?";
}

/* One report row per (row, channel, labelled value), in that order; each
 * also counted into totals, and a busy channel's values into busy. */
static int report_rows(const state_times *times, pw_rnode *rows, pw_state_totals *totals, pw_state_busy *busy)
{
    const pw_states *st = times->st;
    const pw_state_spans *spans = times->spans;
    time_acc *acc = malloc((times->n_values + 1) * sizeof *acc);
    if (!acc)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < spans->n; i++) {
        const pw_state_track *tr = &spans->index->tracks[i];
        const track_times *tt = tr->user ? &times->tracks[tr->user - 1] : NULL;
        for (uint32_t k = 0; tt && k < tt->n; k++)
            acc[n++] = (time_acc){tr->key, tt->v[k].value, tt->v[k].ns};
    }
    if (n > 1)
        qsort(acc, n, sizeof *acc, by_key_value);
    for (size_t i = 0; i < n; i++) {
        const time_acc *a = &acc[i];
        int view = pw_state_key_view(a->key);
        int32_t type = pw_state_key_channel(a->key);
        if (pw_state_busy_channel(st, view, type))
            pw_state_busy_add(busy, view, pw_state_key_row(a->key), a->ns);
        if (!st->value_label(st, view, type, a->value))
            continue;
        pw_rnode *r = pw_rnode_object(rows, NULL);
        pw_rnode_str(r, PW_STATES_COLUMN(VIEW), st->views[view].name);
        pw_rnode_str(r, PW_STATES_COLUMN(ROW), row_name(st, view, pw_state_key_row(a->key)));
        pw_rnode_int(r, PW_STATES_COLUMN(TYPE), type);
        pw_rnode_str(r, PW_STATES_COLUMN(CHANNEL), st->channel_name(st, view, type));
        pw_rnode_int(r, PW_STATES_COLUMN(VALUE), a->value);
        pw_rnode_str(r, PW_STATES_COLUMN(LABEL), st->value_label(st, view, type, a->value));
        pw_rnode_num(r, PW_STATES_COLUMN(TIME_S), (double)a->ns / 1e9);
        pw_state_totals_add(totals, st->views[view].name, type, st->channel_name(st, view, type), a->value,
                            st->value_label(st, view, type, a->value), a->ns);
        int64_t span = st->end - st->start; /* the window's, when clipped to one */
        pw_rnode_num(r, PW_STATES_COLUMN(SHARE_PCT), span > 0 ? 100.0 * (double)a->ns / (double)span : 0.0);
    }
    free(acc);
    return 0;
}

const pw_table_decl pw_state_times_table = {
    "states", "time per state", "how long each row (thread, CPU) held each value of each channel", "view, row, channel, value",
    {[PW_STATES_VIEW] = {"view", "", 1}, [PW_STATES_ROW] = {"row", "", 1}, [PW_STATES_TYPE] = {"type", "", 1},
     [PW_STATES_CHANNEL] = {"channel", "", 0}, [PW_STATES_VALUE] = {"value", "", 1},
     [PW_STATES_LABEL] = {"label", "", 0}, [PW_STATES_TIME_S] = {"time_s", "s", 0},
     [PW_STATES_SHARE_PCT] = {"share_pct", "%", 0}}};

pw_status pw_state_times_report(pw_dataset *ds, const pw_states_source *src, pw_report *r,
                                pw_error *err)
{
    pw_states *st = NULL;
    pw_state_spans spans = {NULL, 0, 0, on_span, NULL, 0};
    state_times times = {NULL, &spans, NULL, 0, 0, 0, 0};
    spans.ctx = &times;
    /* The hot path stays one call a change when nothing watches. */
    watched_times watched = {&times, ds->run->states_watch};
    pw_status s = watched.watch ? src->start(ds, on_change_watched, &watched, &st, err)
                                : src->start(ds, on_change, &times, &st, err);
    times.st = st;
    if (s == PW_OK && watched.watch)
        watched.watch->begin(watched.watch->ctx, st);
    if (s == PW_OK)
        s = src->play(st, err);
    if (s == PW_OK && watched.watch)
        watched.watch->end(watched.watch->ctx, st);
    if (s == PW_OK) {
        pw_state_spans_close(&spans, st->end);
        if (spans.failed || times.failed)
            s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    if (s == PW_OK || s == PW_E_DATA) {
        pw_rnode *rows = pw_report_stream(r, pw_state_times_table.name);
        pw_state_totals totals = {0};
        pw_state_busy busy;
        pw_state_busy_init(&busy, st);
        if (rows && (report_rows(&times, rows, &totals, &busy) != 0 ||
                     !pw_state_totals_report(&totals, pw_report_root(r)) ||
                     !pw_state_busy_report(&busy, st->end - st->start, pw_report_root(r))))
            s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
        free(totals.v);
        pw_state_busy_free(&busy);
    }
    src->release(st);
    pw_state_spans_free(&spans);
    for (size_t i = 0; i < times.n; i++)
        free(times.tracks[i].v);
    free(times.tracks);
    return s;
}
