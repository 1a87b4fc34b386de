/* emu_stats.c — time per state: for every thread and CPU row, how long
 * each labelled value of each channel lasted (the histograms users make in
 * Paraver from ovniemu's traces), summed from the spans of the channel
 * changes.  Value 0 (no state) and values without a label (ids, counters)
 * are not counted, so memory is bounded by rows x labelled values. */
#include <stdlib.h>
#include <string.h>

#include "analysis/ovniemu/emu.h"
#include "analysis/ovniemu/emu_spans.h"

/* The time of one labelled value of a row's channel. */
typedef struct value_time {
    int64_t value;
    uint64_t ns;
} value_time;

/* A row channel's labelled values (few: a channel's states), found by a
 * short walk from the span's track without hashing. */
typedef struct track_times {
    long pcf_type;  /* index into the view's types; -1: none, -2: not looked up */
    value_time *v;
    uint32_t n, cap;
} track_times;

typedef struct state_times {
    const emu *e;
    const emu_spans *spans;
    track_times *tracks;  /* by the span track's user field - 1 */
    size_t n, cap;
    size_t n_values;
    int failed;
} state_times;

/* The times of the span's track, made on its first span. */
static track_times *times_of(state_times *st, emu_span_track *tr)
{
    if (tr->user)
        return &st->tracks[tr->user - 1];
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 256;
        track_times *t = realloc(st->tracks, cap * sizeof *t);
        if (!t)
            return NULL;
        st->tracks = t;
        st->cap = cap;
    }
    st->tracks[st->n] = (track_times){-2, NULL, 0, 0};
    tr->user = (uint32_t)++st->n;
    return &st->tracks[st->n - 1];
}

/* Whether `value` has a label in the track's type (labels may come later,
 * task types as they are declared, so a value not counted yet is looked
 * up at each of its spans). */
static int labelled(const state_times *st, track_times *tt, int view, int32_t type, int64_t value)
{
    const emu_pcf *pcf = &st->e->pcf[view];
    if (tt->pcf_type == -2) {
        const emu_pcf_type *t = emu_pcf_find(pcf, type);
        tt->pcf_type = t ? (long)(t - pcf->types) : -1;
    }
    return tt->pcf_type >= 0 && emu_pcf_label(&pcf->types[tt->pcf_type], value);
}

static value_time *value_of(track_times *tt, int64_t value)
{
    for (uint32_t i = 0; i < tt->n; i++)
        if (tt->v[i].value == value)
            return &tt->v[i];
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

static void on_span(void *ctx, int view, uint32_t row, int32_t type, int64_t value, int64_t t0,
                    int64_t t1, int first)
{
    (void)row;
    state_times *st = ctx;
    if (first || !value)
        return;
    track_times *tt = times_of(st, st->spans->index->current);
    if (!tt) {
        st->failed = 1;
        return;
    }
    /* A value already counted had a label (labels are never taken back):
     * only a new one looks its label up. */
    value_time *a = value_of(tt, value);
    if (!a) {
        if (!labelled(st, tt, view, type, value))
            return;
        if (!(a = add_value(st, tt, value))) {
            st->failed = 1;
            return;
        }
    }
    a->ns += (uint64_t)t1 - (uint64_t)t0;
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

static const char *row_name(const emu *e, int view, uint32_t row)
{
    if (view == EMU_VIEW_CPU)
        return row < e->sys.n_cpus ? e->sys.cpus[row].name : "?";
    return row < e->sys.n_threads ? e->ds->locs[e->sys.threads[row].loc].path : "?";
}

/* One report row per (row, channel, value), in that order. */
static int report_rows(const state_times *st, const emu_spans *spans, int64_t end, pw_rnode *rows)
{
    time_acc *acc = malloc((st->n_values + 1) * sizeof *acc);
    if (!acc)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < spans->n; i++) {
        const emu_span_track *tr = &spans->index->tracks[i];
        const track_times *tt = tr->user ? &st->tracks[tr->user - 1] : NULL;
        for (uint32_t k = 0; tt && k < tt->n; k++)
            acc[n++] = (time_acc){tr->key, tt->v[k].value, tt->v[k].ns};
    }
    if (n > 1)
        qsort(acc, n, sizeof *acc, by_key_value);
    for (size_t i = 0; i < n; i++) {
        const time_acc *a = &acc[i];
        int view = emu_span_view(a->key);
        int32_t type = emu_span_type(a->key);
        const emu_pcf_type *t = emu_pcf_find(&st->e->pcf[view], type);
        pw_rnode *r = pw_rnode_object(rows, NULL);
        pw_rnode_str(r, "view", view == EMU_VIEW_CPU ? "cpu" : "thread");
        pw_rnode_str(r, "row", row_name(st->e, view, emu_span_row(a->key)));
        pw_rnode_int(r, "type", type);
        pw_rnode_str(r, "channel", t->label);
        pw_rnode_int(r, "value", a->value);
        pw_rnode_str(r, "label", emu_pcf_label(t, a->value));
        pw_rnode_uint(r, "time_ns", a->ns);
        pw_rnode_num(r, "share", end > 0 ? (double)a->ns / (double)end : 0.0);
    }
    free(acc);
    return 0;
}

static void state_times_free(state_times *st)
{
    for (size_t i = 0; i < st->n; i++)
        free(st->tracks[i].v);
    free(st->tracks);
}

pw_status pw_emu_stats(pw_dataset *ds, pw_report *r, pw_error *err)
{
    emu e;
    emu_spans spans = {NULL, 0, 0, on_span, NULL, 0};
    state_times st = {&e, &spans, NULL, 0, 0, 0, 0};
    spans.ctx = &st;
    int emulated = 0;
    pw_status s = emu_start(&e, ds, emu_spans_change, &spans, err);
    if (s == PW_OK)
        s = emu_play(&e, err);
    if (s == PW_OK) {
        emu_spans_close(&spans, e.last_time);
        emulated = 1;
        if (spans.failed || st.failed)
            s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    } else if (s == PW_E_DATA) {
        pw_ds_diag_error(ds, PW_SEV_WARNING, "ovniemu.cannot-emulate", err);
        s = PW_OK;
    }
    if (s == PW_OK) {
        pw_rnode *rows = pw_report_stream(r, "states");
        if (rows && emulated && report_rows(&st, &spans, e.last_time, rows) != 0)
            s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    emu_free(&e);
    emu_spans_free(&spans);
    state_times_free(&st);
    return s;
}
