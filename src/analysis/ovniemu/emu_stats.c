/* emu_stats.c — time per state: for every thread and CPU row, how long
 * each labelled value of each channel lasted (the histograms users make in
 * Paraver from ovniemu's traces), summed from the spans of the channel
 * changes.  Value 0 (no state) and values without a label (ids, counters)
 * are not counted, so memory is bounded by rows x labelled values. */
#include <stdlib.h>
#include <string.h>

#include "analysis/ovniemu/emu.h"
#include "analysis/ovniemu/emu_spans.h"

typedef struct time_acc {
    uint64_t key; /* a span key; 0: a free slot */
    int64_t value;
    uint64_t ns;
} time_acc;

typedef struct state_times {
    const emu *e;
    time_acc *acc;
    size_t n, cap;
    int failed;
} state_times;

static time_acc *slot_of(time_acc *t, size_t cap, uint64_t key, int64_t value)
{
    size_t i = emu_mix64(key ^ emu_mix64((uint64_t)value)) & (cap - 1);
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
    uint64_t key = (uint64_t)(view + 1) << 62 | (uint64_t)row << 31 | (uint32_t)type;
    time_acc *a = st->cap ? slot_of(st->acc, st->cap, key, value) : NULL;
    if (!a || !a->key) {
        if (!emu_pcf_label(emu_pcf_find(&st->e->pcf[view], type), value))
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

static const char *row_name(const emu *e, int view, uint32_t row)
{
    if (view == EMU_VIEW_CPU)
        return row < e->sys.n_cpus ? e->sys.cpus[row].name : "?";
    return row < e->sys.n_threads ? e->ds->locs[e->sys.threads[row].loc].path : "?";
}

/* One report row per (row, channel, value), in that order. */
static void report_rows(state_times *st, int64_t end, pw_rnode *rows)
{
    size_t n = 0;
    for (size_t i = 0; i < st->cap; i++)
        if (st->acc[i].key)
            st->acc[n++] = st->acc[i];
    if (n > 1)
        qsort(st->acc, n, sizeof *st->acc, by_key_value);
    for (size_t i = 0; i < n; i++) {
        const time_acc *a = &st->acc[i];
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
}

pw_status pw_emu_stats(pw_dataset *ds, pw_report *r, pw_error *err)
{
    emu e;
    state_times st = {&e, NULL, 0, 0, 0};
    emu_spans spans = {NULL, 0, 0, on_span, &st, 0};
    pw_status s = emu_start(&e, ds, emu_spans_change, &spans, err);
    if (s == PW_OK)
        s = emu_play(&e, err);
    if (s == PW_OK) {
        emu_spans_close(&spans, e.last_time);
        if (spans.failed || st.failed)
            s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    } else if (s == PW_E_DATA) {
        pw_ds_diag_error(ds, PW_SEV_WARNING, "ovniemu.cannot-emulate", err);
        s = PW_OK;
        st.n = 0;
    }
    if (s == PW_OK) {
        pw_rnode *rows = pw_report_stream(r, "states");
        if (rows)
            report_rows(&st, e.last_time, rows);
    }
    emu_free(&e);
    emu_spans_free(&spans);
    free(st.acc);
    return s;
}
