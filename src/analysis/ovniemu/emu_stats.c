/* emu_stats.c — time per state: for every thread and CPU row and every
 * channel written, how long each value lasted (the histograms users make
 * in Paraver from ovniemu's traces), from the same channel changes the
 * Paraver writer receives.  Value 0 (no state) is not counted, nor are
 * channels whose values have no labels (ids, counters).  Memory is bounded
 * by rows x types x values: a row's channel with more than MAX_VALUES
 * distinct values is left out. */
#include <stdlib.h>
#include <string.h>

#include "analysis/ovniemu/emu.h"

#define MAX_VALUES 256

/* A row's channel: its current value since when, and how many values. */
typedef struct track_state {
    uint64_t key; /* view, row, type; 0: free slot */
    int64_t value, since;
    uint32_t n_values;
    int overflow;
} track_state;

typedef struct time_acc {
    uint64_t key; /* as track_state's; 0: free */
    int64_t value;
    int64_t ns;
} time_acc;

typedef struct state_times {
    track_state *tracks;
    size_t n_tracks, cap_tracks;
    time_acc *acc;
    size_t n_acc, cap_acc;
    int failed;
} state_times;

static uint64_t mix(uint64_t h)
{
    h = (h ^ h >> 30) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ h >> 27) * 0x94D049BB133111EBull;
    return h ^ h >> 31;
}

static uint64_t key_of(int view, uint32_t row, int32_t type)
{
    return (uint64_t)(view + 1) << 62 | (uint64_t)row << 31 | (uint32_t)type;
}

/* Open addressing with doubling; grow() rehashes through find(). */
static track_state *find_track(state_times *st, uint64_t key)
{
    if ((st->n_tracks + 1) * 2 > st->cap_tracks) {
        size_t cap = st->cap_tracks ? st->cap_tracks * 2 : 256;
        track_state *old = st->tracks, *n = calloc(cap, sizeof *n);
        if (!n)
            return NULL;
        size_t old_cap = st->cap_tracks;
        st->tracks = n;
        st->cap_tracks = cap;
        st->n_tracks = 0;
        for (size_t i = 0; i < old_cap; i++) {
            if (!old[i].key)
                continue;
            *find_track(st, old[i].key) = old[i];
            st->n_tracks++;
        }
        free(old);
    }
    size_t i = mix(key) & (st->cap_tracks - 1);
    while (st->tracks[i].key && st->tracks[i].key != key)
        i = (i + 1) & (st->cap_tracks - 1);
    return &st->tracks[i];
}

static time_acc *find_acc(state_times *st, uint64_t key, int64_t value)
{
    if ((st->n_acc + 1) * 2 > st->cap_acc) {
        size_t cap = st->cap_acc ? st->cap_acc * 2 : 256;
        time_acc *old = st->acc, *n = calloc(cap, sizeof *n);
        if (!n)
            return NULL;
        size_t old_cap = st->cap_acc;
        st->acc = n;
        st->cap_acc = cap;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].key)
                *find_acc(st, old[i].key, old[i].value) = old[i];
        free(old);
    }
    size_t i = mix(key ^ mix((uint64_t)value)) & (st->cap_acc - 1);
    while (st->acc[i].key && (st->acc[i].key != key || st->acc[i].value != value))
        i = (i + 1) & (st->cap_acc - 1);
    return &st->acc[i];
}

/* Adds the time the track held its value until t. */
static void close_interval(state_times *st, track_state *tr, int64_t t)
{
    if (tr->value == 0 || tr->overflow || t <= tr->since)
        return;
    time_acc *a = find_acc(st, tr->key, tr->value);
    if (!a) {
        st->failed = 1;
        return;
    }
    if (!a->key) {
        if (tr->n_values == MAX_VALUES) {
            tr->overflow = 1;
            return;
        }
        tr->n_values++;
        st->n_acc++;
        *a = (time_acc){tr->key, tr->value, 0};
    }
    a->ns += t - tr->since;
}

static void on_change(void *ctx, int64_t time, int view, uint32_t row, int32_t type, int64_t value)
{
    state_times *st = ctx;
    uint64_t key = key_of(view, row, type);
    track_state *tr = find_track(st, key);
    if (!tr) {
        st->failed = 1;
        return;
    }
    if (!tr->key) {
        *tr = (track_state){key, 0, time, 0, 0};
        st->n_tracks++;
    }
    close_interval(st, tr, time);
    tr->value = value;
    tr->since = time;
}

static int by_key_value(const void *a, const void *b)
{
    const time_acc *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->value < y->value ? -1 : x->value > y->value;
}

/* The Paraver type of id `type` in the view, when it labels its values. */
static const emu_pcf_type *labelled_type(const emu_pcf *pcf, int32_t type)
{
    for (size_t i = 0; i < pcf->n_types; i++)
        if (pcf->types[i].id == type)
            return pcf->types[i].n_values ? &pcf->types[i] : NULL;
    return NULL;
}

static const char *label_of(const emu_pcf_type *t, int64_t value)
{
    for (size_t k = 0; k < t->n_values; k++)
        if (t->values[k].value == value)
            return t->values[k].label;
    return NULL;
}

static const char *row_name(const emu *e, int view, uint32_t row)
{
    if (view == EMU_VIEW_CPU)
        return row < e->sys.n_cpus ? e->sys.cpus[row].name : "?";
    return row < e->sys.n_threads ? e->ds->locs[e->sys.threads[row].loc].path : "?";
}

/* One report row per (row, channel, value), in that order. */
static void report_rows(const emu *e, state_times *st, int64_t end, pw_rnode *rows)
{
    size_t n = 0;
    for (size_t i = 0; i < st->cap_acc; i++) {
        if (!st->acc[i].key)
            continue;
        track_state *tr = find_track(st, st->acc[i].key);
        if (tr && !tr->overflow)
            st->acc[n++] = st->acc[i];
    }
    qsort(st->acc, n, sizeof *st->acc, by_key_value);
    for (size_t i = 0; i < n; i++) {
        const time_acc *a = &st->acc[i];
        int view = (int)(a->key >> 62) - 1;
        uint32_t row = (uint32_t)(a->key >> 31 & 0x7FFFFFFF);
        int32_t type = (int32_t)(uint32_t)(a->key & 0x7FFFFFFF);
        const emu_pcf_type *t = labelled_type(&e->pcf[view], type);
        if (!t)
            continue;
        const char *label = label_of(t, a->value);
        pw_rnode *r = pw_rnode_object(rows, NULL);
        pw_rnode_str(r, "view", view == EMU_VIEW_CPU ? "cpu" : "thread");
        pw_rnode_str(r, "row", row_name(e, view, row));
        pw_rnode_int(r, "type", type);
        pw_rnode_str(r, "channel", t->label);
        pw_rnode_int(r, "value", a->value);
        if (label)
            pw_rnode_str(r, "label", label);
        else
            pw_rnode_null(r, "label");
        pw_rnode_int(r, "time_ns", a->ns);
        pw_rnode_num(r, "share", end > 0 ? (double)a->ns / (double)end : 0.0);
    }
}

pw_status pw_emu_stats(pw_dataset *ds, pw_report *r, pw_error *err)
{
    state_times st;
    memset(&st, 0, sizeof st);
    emu e;
    int64_t end = 0;
    pw_status s = emu_start(&e, ds, on_change, &st, err);
    if (s == PW_OK)
        s = emu_play(&e, err);
    if (s == PW_OK) {
        end = e.last_time;
        for (size_t i = 0; i < st.cap_tracks; i++)
            if (st.tracks[i].key)
                close_interval(&st, &st.tracks[i], end);
        if (st.failed)
            s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    } else if (s == PW_E_DATA) {
        pw_ds_diag_error(ds, PW_SEV_WARNING, "ovniemu.cannot-emulate", err);
        s = PW_OK;
    }
    if (s == PW_OK) {
        pw_rnode *rows = pw_report_stream(r, "states");
        if (rows)
            report_rows(&e, &st, end, rows);
    }
    emu_free(&e);
    free(st.tracks);
    free(st.acc);
    return s;
}
