/* state_times.c — time per state, summed from the spans of the changes.
 * Value 0 (no state) and values without a label (ids, counters) are not
 * counted, so memory is bounded by rows x labelled values. */
#include "analysis/state_times.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/state_spans.h"

typedef struct time_acc {
    uint64_t key; /* a span key; 0: a free slot */
    int64_t value;
    uint64_t ns;
} time_acc;

typedef struct state_times {
    const pw_states *st;
    time_acc *acc;
    size_t n, cap;
    int failed;
} state_times;

static time_acc *slot_of(time_acc *t, size_t cap, uint64_t key, int64_t value)
{
    size_t i = pw_state_mix64(key ^ pw_state_mix64((uint64_t)value)) & (cap - 1);
    while (t[i].key && (t[i].key != key || t[i].value != value))
        i = (i + 1) & (cap - 1);
    return &t[i];
}

static int grow(state_times *st)
{
    size_t cap = st->cap ? st->cap * 2 : 256;
    time_acc *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < st->cap; i++)
        if (st->acc[i].key)
            *slot_of(t, cap, st->acc[i].key, st->acc[i].value) = st->acc[i];
    free(st->acc);
    st->acc = t;
    st->cap = cap;
    return 0;
}

static void on_span(void *ctx, int view, uint32_t row, int32_t type, int64_t value, int64_t t0,
                    int64_t t1, int first)
{
    state_times *st = ctx;
    if (first || !value)
        return;
    /* A value already counted had a label (labels are never taken back):
     * only a new one looks its label up. */
    uint64_t key = pw_state_key(view, row, type);
    time_acc *a = st->cap ? slot_of(st->acc, st->cap, key, value) : NULL;
    if (!a || !a->key) {
        if (!st->st->value_label(st->st, view, type, value))
            return;
        if ((st->n + 1) * 2 > st->cap && grow(st) != 0) {
            st->failed = 1;
            return;
        }
        a = slot_of(st->acc, st->cap, key, value);
        *a = (time_acc){key, value, 0};
        st->n++;
    }
    a->ns += (uint64_t)t1 - (uint64_t)t0;
}

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

/* One report row per (row, channel, value), in that order. */
static void report_rows(state_times *times, pw_rnode *rows)
{
    const pw_states *st = times->st;
    size_t n = 0;
    for (size_t i = 0; i < times->cap; i++)
        if (times->acc[i].key)
            times->acc[n++] = times->acc[i];
    if (n > 1)
        qsort(times->acc, n, sizeof *times->acc, by_key_value);
    for (size_t i = 0; i < n; i++) {
        const time_acc *a = &times->acc[i];
        int view = pw_state_key_view(a->key);
        int32_t type = pw_state_key_channel(a->key);
        pw_rnode *r = pw_rnode_object(rows, NULL);
        pw_rnode_str(r, "view", st->views[view].name);
        pw_rnode_str(r, "row", row_name(st, view, pw_state_key_row(a->key)));
        pw_rnode_int(r, "type", type);
        pw_rnode_str(r, "channel", st->channel_name(st, view, type));
        pw_rnode_int(r, "value", a->value);
        pw_rnode_str(r, "label", st->value_label(st, view, type, a->value));
        pw_rnode_uint(r, "time_ns", a->ns);
        pw_rnode_num(r, "share", st->end > 0 ? (double)a->ns / (double)st->end : 0.0);
    }
}

pw_status pw_state_times_report(pw_dataset *ds, const pw_states_source *src, pw_report *r,
                                pw_error *err)
{
    pw_states *st = NULL;
    state_times times = {NULL, NULL, 0, 0, 0};
    pw_state_spans spans = {NULL, 0, 0, on_span, &times, 0};
    pw_status s = src->start(ds, pw_state_spans_change, &spans, &st, err);
    times.st = st;
    if (s == PW_OK)
        s = src->play(st, err);
    if (s == PW_OK) {
        pw_state_spans_close(&spans, st->end);
        if (spans.failed || times.failed)
            s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    if (s == PW_OK || s == PW_E_DATA) {
        pw_rnode *rows = pw_report_stream(r, "states");
        if (rows)
            report_rows(&times, rows);
    }
    src->release(st);
    pw_state_spans_free(&spans);
    free(times.acc);
    return s;
}
