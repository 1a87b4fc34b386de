/* ovniemu_part.c — the emulator's time per state split over the shares of
 * the locations (analysis.h: part/join).  ovniemu emulates each loom on its
 * own: its CPUs run only its processes' threads, and no model's state
 * crosses looms.  The format's shares never cut a loom (share_by_node), so
 * each process emulates the looms of its share alone (the other threads
 * left out of its system, as a location filter leaves them out) and its
 * part holds, per (row, channel, value) its threads and CPUs held, the
 * time summed and the texts the report prints.  The join puts the rows in
 * the serial order (the whole system's rows), and gives every span still
 * open at a part's end the time up to the trace's end, which only the join
 * knows: times are integer nanoseconds, so the sums are the serial ones.
 *
 * The split is exact when every loom requires every model some thread
 * requires (a model is then enabled in each share as ovniemu enables it
 * from all threads),
 * the streams are in time order (a clock going back is emulated at the
 * previous event's time, which depends on the other looms' events) and
 * every loom's streams are consecutive.  Otherwise, decided alike by every
 * process from what opening found, the part is declined and the joining
 * process emulates the whole trace.
 *
 * Words: refused (the emulation stopped on damage), has_first, the
 * absolute clock of the share's first event, the share's end (ns after
 * it), the number of entries, then per entry its view, channel, value,
 * time, open (the span was open at the share's end), and the row's
 * location and title, the channel's name and the value's label as
 * strings (length with the NUL, then the bytes padded to words). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ovniemu/emu_states.h"
#include "views/state_busy.h"
#include "views/state_totals.h"
#include "analysis/ovniemu/ovniemu_part.h"
#include "views/state_spans.h"
#include "views/state_times.h"
#include "views/state_window.h"
#include "core/grow.h"
#include "core/window.h"
#include "model/filter.h"
#include "model/part.h"

/* ---- deciding ----------------------------------------------------------- */

static int32_t node_of(const pw_dataset *ds, int32_t i)
{
    while (i >= 0 && ds->locs[i].kind != PW_LOC_NODE)
        i = ds->locs[i].parent;
    return i;
}

static const char *require_of(const pw_dataset *ds, const pw_location *l)
{
    char key[1024];
    snprintf(key, sizeof key, "%s:require", l->path);
    return pw_dataset_prop_get(ds, key);
}

/* Does the thread's "require" list name `model` (a word of it)? */
static int requires(const char *req, const char *model, size_t n)
{
    for (const char *p = req; p && (p = strstr(p, model)); p += n)
        if ((p == req || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
            return 1;
    return 0;
}

#define MAX_MODELS 32

/* The distinct words of every thread's "require" list (at most
 * MAX_MODELS, else 0), and whether any thread has one. */
static size_t required_models(pw_dataset *ds, char models[MAX_MODELS][32], int *any)
{
    size_t n = 0;
    *any = 0;
    for (size_t i = 0; i < ds->n_locs; i++) {
        const char *req = ds->locs[i].has_records ? require_of(ds, &ds->locs[i]) : NULL;
        *any |= req != NULL;
        for (const char *p = req; p && *p;) {
            size_t len = strcspn(p, " ");
            int known = len == 0 || len >= 32;
            for (size_t k = 0; k < n && !known; k++)
                known = strlen(models[k]) == len && !strncmp(models[k], p, len);
            if (!known && n == MAX_MODELS)
                return SIZE_MAX;
            if (!known) {
                memcpy(models[n], p, len);
                models[n++][len] = '\0';
            }
            p += len + (p[len] == ' ');
        }
    }
    return n;
}

/* Every loom (through one of its threads) requires every model some thread
 * requires, as ovniemu enables them from all threads: then each share's
 * looms enable the models the whole trace enables.  mark: per location. */
static int same_models_per_loom(pw_dataset *ds, uint8_t *mark)
{
    char models[MAX_MODELS][32];
    int any;
    size_t n = required_models(ds, models, &any);
    if (n == SIZE_MAX)
        return 0;
    for (size_t k = 0; k <= n; k++) { /* k == n: has a "require" list at all */
        memset(mark, 0, ds->n_locs);
        for (size_t i = 0; i < ds->n_locs; i++) {
            const char *req = ds->locs[i].has_records ? require_of(ds, &ds->locs[i]) : NULL;
            int32_t node = node_of(ds, (int32_t)i);
            if (node >= 0 && req && (k == n || requires(req, models[k], strlen(models[k]))))
                mark[node] = 1;
        }
        for (size_t i = 0; i < ds->n_locs; i++) {
            int32_t node = ds->locs[i].has_records ? node_of(ds, (int32_t)i) : -1;
            if (node >= 0 && !mark[node] && (k < n || any))
                return 0;
        }
    }
    return 1;
}

/* Each loom's record locations are consecutive (so shares keep them
 * together) and its threads require what every other loom's do. */
static int looms_apart(pw_dataset *ds)
{
    uint8_t *seen = calloc(ds->n_locs ? ds->n_locs : 1, 1);
    int ok = seen != NULL;
    int32_t node = -1;
    for (size_t i = 0; ok && i < ds->n_locs; i++) {
        if (!ds->locs[i].has_records)
            continue;
        int32_t n = node_of(ds, (int32_t)i);
        ok = n >= 0 && (n == node || !seen[n]);
        if (ok && n != node)
            seen[n] = 1;
        node = n;
    }
    ok = ok && same_models_per_loom(ds, seen);
    free(seen);
    return ok;
}

/* The whole system starts: what emulating every loom would refuse (a thread
 * that did not finish) is the serial report's to say. */
static int whole_starts(pw_dataset *ds)
{
    pw_states *st = NULL;
    pw_error e;
    pw_status s = emu_states_source.start(ds, NULL, NULL, &st, &e);
    emu_states_source.release(st);
    return s == PW_OK;
}

int ovniemu_in_shares(pw_dataset *ds)
{
    return emu_states_source.offers(ds) && ds->share_by_node && looms_apart(ds) &&
           whole_starts(ds);
}

/* ---- the share's looms alone ---------------------------------------------- */

/* Leaves the share's record locations only (saved: those taken away);
 * 0 when memory runs out. */
static uint8_t *keep_share(pw_dataset *ds)
{
    int whole;
    uint8_t *owned = pw_ds_share_owned(ds, &whole);
    uint8_t *saved = calloc(ds->n_locs ? ds->n_locs : 1, 1);
    if (!saved || (!owned && !whole)) {
        free(owned);
        free(saved);
        return NULL;
    }
    for (size_t i = 0; owned && i < ds->n_locs; i++)
        if (ds->locs[i].has_records && !owned[i]) {
            saved[i] = 1;
            ds->locs[i].has_records = 0;
        }
    free(owned);
    return saved;
}

static void restore(pw_dataset *ds, uint8_t *saved)
{
    for (size_t i = 0; saved && i < ds->n_locs; i++)
        ds->locs[i].has_records |= saved[i];
    free(saved);
}

/* The clock of the first event the emulation meets (the earliest first
 * record of the locations left); 0 when there is none.  A location whose
 * records all lie past the report window counts as beginning at the
 * window's end: its share's states (none) end there, and the trace goes
 * on at least so far. */
static int first_clock(pw_dataset *ds, int64_t *t, pw_error *err)
{
    int any = 0;
    for (size_t i = 0; i < ds->n_locs; i++) {
        pw_cursor *c;
        const pw_record *rec;
        /* the emulation's first event: of the history (model/filter.h) */
        if (!ds->locs[i].has_records ||
            pw_cursor_open_history(ds, (uint32_t)i, PW_WINDOW_DEFAULT_CAP, &c, err) != PW_OK)
            continue;
        int64_t at, start;
        int met = pw_cursor_next(c, &rec, err) == PW_OK;
        if (met)
            at = rec->t;
        else
            met = c->past_end && pw_selection_window_ns(ds, &start, &at);
        if (met && (!any || at < *t)) {
            *t = at;
            any = 1;
        }
        pw_cursor_close(c);
    }
    return any;
}

/* ---- time per (track, value), with the span open at the end --------------- */

typedef struct value_ns {
    int64_t value;
    uint64_t ns;
    int open;
} value_ns;

typedef struct track_values {
    value_ns *v;
    size_t n, cap;
    uint64_t key;
} track_values;

typedef struct share_times {
    const pw_states *st;
    const pw_state_spans *spans;
    track_values *tracks; /* by the track's user field - 1 */
    size_t n, cap;
    int closing, failed;
} share_times;

static track_values *track_of(share_times *t, pw_state_track *tr)
{
    if (tr->user)
        return &t->tracks[tr->user - 1];
    if (!pw_grow((void **)&t->tracks, t->n, &t->cap, sizeof *t->tracks))
        return NULL;
    t->tracks[t->n] = (track_values){NULL, 0, 0, tr->key};
    tr->user = (uint32_t)++t->n;
    return &t->tracks[t->n - 1];
}

/* As state_times.c counts: value 0, unlabelled values and each track's
 * first span are left out. */
static void on_span(void *ctx, int view, uint32_t row, int32_t type, int64_t value, int64_t t0, int64_t t1,
                    int first)
{
    (void)row;
    share_times *t = ctx;
    if (first || !value)
        return;
    track_values *tv = track_of(t, pw_state_spans_current(t->spans));
    value_ns *a = NULL;
    for (size_t i = 0; tv && i < tv->n && !a; i++)
        a = tv->v[i].value == value ? &tv->v[i] : NULL;
    if (tv && !a) {
        if (!t->st->value_label(t->st, view, type, value) && !pw_state_busy_channel(t->st, view, type))
            return;
        if (!pw_grow((void **)&tv->v, tv->n, &tv->cap, sizeof *tv->v)) {
            t->failed = 1;
            return;
        }
        a = &tv->v[tv->n++];
        *a = (value_ns){value, 0, 0};
    }
    if (!a) {
        t->failed = 1;
        return;
    }
    a->ns += (uint64_t)t1 - (uint64_t)t0;
    a->open |= t->closing;
}

/* The spans that begin at the share's very end, which closing leaves out
 * (they last no time yet): noted open, for the join to hold them on to
 * the trace's end. */
static void note_open_at_end(pw_state_spans *spans, share_times *t, int64_t end)
{
    pw_state_index *x = spans->index;
    for (size_t i = 0; x && i < spans->n; i++) {
        pw_state_track *tr = &x->tracks[i];
        if (tr->since < end)
            continue;
        x->current = tr;
        on_span(t, pw_state_key_view(tr->key), pw_state_key_row(tr->key), pw_state_key_channel(tr->key), tr->value,
                end, end, 0);
    }
}

static void free_times(share_times *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->tracks[i].v);
    free(t->tracks);
}

/* ---- the part ------------------------------------------------------------ */

/* A string or NULL, as part.h encodes it. */
static void put_str(pw_part_writer *w, const char *s) { pw_part_put_str(w, s, s ? strlen(s) : 0); }

static void put_entries(pw_part_writer *w, const share_times *t)
{
    const pw_states *st = t->st;
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++)
        n += t->tracks[i].n;
    pw_part_put_word(w, n);
    for (size_t i = 0; i < t->n; i++) {
        const track_values *tv = &t->tracks[i];
        int view = pw_state_key_view(tv->key);
        uint32_t row = pw_state_key_row(tv->key);
        int32_t type = pw_state_key_channel(tv->key);
        const pw_state_row *r = row < st->views[view].n_rows ? &st->views[view].rows[row] : NULL;
        for (size_t k = 0; k < tv->n; k++) {
            uint64_t head[] = {(uint64_t)view, (uint64_t)(int64_t)type, (uint64_t)tv->v[k].value, tv->v[k].ns,
                               (uint64_t)tv->v[k].open};
            pw_part_put(w, head, sizeof head);
            put_str(w, r ? r->loc : "?");
            put_str(w, r ? r->title : "?");
            put_str(w, st->channel_name(st, view, type));
            put_str(w, st->value_label(st, view, type, tv->v[k].value));
        }
    }
}

/* The share's looms emulated into w. */
static pw_status emulate_share(pw_dataset *ds, pw_part_writer *w, pw_error *err)
{
    int64_t first = 0;
    int has_first = first_clock(ds, &first, err);
    pw_states *st = NULL;
    pw_state_spans spans = {NULL, 0, 0, on_span, NULL, 0};
    share_times times = {NULL, &spans, NULL, 0, 0, 0, 0};
    spans.ctx = &times;
    pw_status s = emu_states_source.start(ds, pw_state_spans_change, &spans, &st, err);
    times.st = st;
    if (s == PW_OK)
        s = emu_states_source.play(st, err);
    if (s == PW_OK || s == PW_E_DATA) {
        times.closing = 1;
        note_open_at_end(&spans, &times, st->end);
        pw_state_spans_close(&spans, st->end);
        if (spans.failed || times.failed)
            s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    if (s == PW_OK || s == PW_E_DATA) {
        uint64_t head[] = {s == PW_E_DATA, (uint64_t)has_first, (uint64_t)first, (uint64_t)st->end};
        pw_part_put(w, head, sizeof head);
        put_entries(w, &times);
    }
    emu_states_source.release(st);
    pw_state_spans_free(&spans);
    free_times(&times);
    return s;
}

/* The findings the share's emulation made (after the first n), taken
 * out of ds into w: the join orders them among the other shares' and
 * keeps the once-per-trace ones once. */
static void move_findings(pw_dataset *ds, pw_part_writer *w, size_t n, uint64_t dropped, int worst)
{
    pw_part_put_word(w, ds->diags_dropped - dropped);
    pw_part_put_word(w, ds->n_diags - n);
    for (size_t i = n; i < ds->n_diags; i++) {
        const pw_diag *d = &ds->diags[i];
        uint64_t head[] = {(uint64_t)d->severity, (uint64_t)d->has_offset, d->offset};
        pw_part_put(w, head, sizeof head);
        put_str(w, d->code);
        put_str(w, d->file);
        put_str(w, d->message);
    }
    pw_ds_diag_take_back(ds, n, dropped, worst);
}

pw_status ovniemu_part(pw_dataset *ds, void **part, size_t *size, pw_error *err)
{
    *part = NULL;
    *size = 0;
    if (!ovniemu_in_shares(ds))
        return PW_OK; /* declined: the join emulates every loom */
    uint8_t *saved = keep_share(ds);
    if (!saved)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    pw_part_writer w = {0};
    size_t n_diags = ds->n_diags;
    uint64_t dropped = ds->diags_dropped;
    int worst = ds->worst;
    pw_status s = PW_OK;
    if (pw_ds_count_record_locations(ds))
        s = emulate_share(ds, &w, err);
    else /* no loom here: nothing emulated, nothing held */
        pw_part_put(&w, (uint64_t[5]){0, 0, 0, 0, 0}, 5 * sizeof(uint64_t));
    restore(ds, saved);
    if (s == PW_OK || s == PW_E_DATA)
        move_findings(ds, &w, n_diags, dropped, worst);
    if (s == PW_E_DATA) /* what emulating stopped on, as the serial report says it */
        s = ovniemu_cannot_emulate(ds, err);
    return pw_part_finish(&w, s, ds->path, part, size, err);
}

/* ---- the join -------------------------------------------------------------- */

/* A report row: its place in the serial order and what it prints. */
typedef struct state_entry {
    uint64_t key; /* view, row, channel */
    int64_t value;
    uint64_t ns;
    const char *title, *channel, *label;
} state_entry;

static int by_key_value(const void *a, const void *b)
{
    const state_entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->value < y->value ? -1 : x->value > y->value;
}

/* A row of the whole system by its location name. */
typedef struct row_name {
    const char *loc;
    uint32_t row;
} row_name;

static int by_loc(const void *a, const void *b)
{
    return strcmp(((const row_name *)a)->loc, ((const row_name *)b)->loc);
}

/* The whole system's rows of each view, sorted by location name. */
typedef struct row_maps {
    row_name *rows[2];
    uint32_t n[2];
} row_maps;

static int maps_of(const pw_states *st, row_maps *m)
{
    for (int v = 0; v < 2; v++) {
        uint32_t n = v < st->n_views ? st->views[v].n_rows : 0;
        m->rows[v] = malloc((n ? n : 1) * sizeof *m->rows[v]);
        m->n[v] = n;
        if (!m->rows[v])
            return 0;
        for (uint32_t i = 0; i < n; i++)
            m->rows[v][i] = (row_name){st->views[v].rows[i].loc, i};
        qsort(m->rows[v], n, sizeof *m->rows[v], by_loc);
    }
    return 1;
}

/* The part's header: its first clock and end (absolute) when it met an
 * event; 0 when the part does not fit. */
typedef struct part_head {
    int refused, has_first;
    int64_t first, end_abs;
    uint64_t n_entries;
} part_head;

static int take_head(pw_part_reader *rd, part_head *h)
{
    h->refused = (int)pw_part_next(rd);
    h->has_first = (int)pw_part_next(rd);
    h->first = (int64_t)pw_part_next(rd);
    h->end_abs = h->first + (int64_t)pw_part_next(rd);
    h->n_entries = pw_part_next(rd);
    return !rd->bad && h->n_entries <= (rd->n - rd->pos) / 9;
}

/* The part's entries after its header into e (the open ones extended to
 * the trace's end); the number taken, or -1 when the part does not fit. */
static long take_entries(pw_part_reader *rd, const part_head *h, int64_t end_abs, const row_maps *m,
                         state_entry *e)
{
    int ok = 1;
    for (uint64_t k = 0; k < h->n_entries && ok; k++) {
        int view = (int)pw_part_next(rd);
        int32_t type = (int32_t)(int64_t)pw_part_next(rd);
        e[k].value = (int64_t)pw_part_next(rd);
        e[k].ns = pw_part_next(rd);
        if (pw_part_next(rd)) /* open at the share's end: held until the trace's */
            e[k].ns += (uint64_t)end_abs - (uint64_t)h->end_abs;
        row_name want = {pw_part_take_str(rd, NULL), 0};
        e[k].title = pw_part_take_str(rd, NULL);
        e[k].channel = pw_part_take_str(rd, NULL);
        e[k].label = pw_part_take_str(rd, NULL);
        const row_name *found = !rd->bad && want.loc && view >= 0 && view < 2
                                    ? bsearch(&want, m->rows[view], m->n[view], sizeof want, by_loc)
                                    : NULL;
        ok = found != NULL;
        e[k].key = found ? pw_state_key(view, found->row, type) : 0;
    }
    return ok && !rd->bad ? (long)h->n_entries : -1;
}

/* The entries in order; one that lasted no time (a span that began at
 * the trace's end) is none, as closing the spans leaves it out.  A busy
 * channel's values go to busy, and only labelled values are rows. */
static void report_entries(const pw_states *st, const state_entry *e, size_t n, int64_t end, pw_rnode *rows,
                           pw_state_totals *totals, pw_state_busy *busy)
{
    for (size_t i = 0; i < n; i++) {
        if (!e[i].ns)
            continue;
        int view = pw_state_key_view(e[i].key);
        if (pw_state_busy_channel(st, view, pw_state_key_channel(e[i].key)))
            pw_state_busy_add(busy, view, pw_state_key_row(e[i].key), e[i].ns);
        if (!e[i].label)
            continue;
        pw_rnode *o = pw_rnode_object(rows, NULL);
        pw_rnode_str(o, PW_STATES_COLUMN(VIEW), st->views[view].name);
        pw_rnode_str(o, PW_STATES_COLUMN(ROW), e[i].title);
        pw_rnode_int(o, PW_STATES_COLUMN(TYPE), pw_state_key_channel(e[i].key));
        pw_rnode_str(o, PW_STATES_COLUMN(CHANNEL), e[i].channel);
        pw_rnode_int(o, PW_STATES_COLUMN(VALUE), e[i].value);
        pw_rnode_str(o, PW_STATES_COLUMN(LABEL), e[i].label);
        pw_rnode_num(o, PW_STATES_COLUMN(TIME_S), (double)e[i].ns / 1e9);
        pw_state_totals_add(totals, st->views[view].name, pw_state_key_channel(e[i].key), e[i].channel, e[i].value,
                            e[i].label, e[i].ns);
        pw_rnode_num(o, PW_STATES_COLUMN(SHARE_PCT), end > 0 ? 100.0 * (double)e[i].ns / (double)end : 0.0);
    }
}

/* The shares' findings: each with the clock of its event (from its
 * message, "clock N: event MCV", as the emulator words it; none: after
 * every timed one) and its share, to be put in the serial order. */
typedef struct finding {
    pw_diag d;
    int64_t clock;
    char letter; /* the model of a once-per-trace finding, else 0 */
    size_t share, seq;
} finding;

typedef struct findings {
    finding *v;
    size_t n, cap;
    uint64_t dropped;
    int failed;
} findings;

/* What the emulator says once per model letter in the whole trace. */
static int once_per_trace(const char *code)
{
    return !strcmp(code, "ovniemu.unknown-model") || !strcmp(code, "ovniemu.model-not-enabled");
}

static void read_clock(finding *x)
{
    const char *c = strstr(x->d.message, ": clock ");
    const char *ev = c ? strstr(c, ": event ") : NULL;
    x->clock = c ? strtoll(c + 8, NULL, 10) : INT64_MAX;
    x->letter = ev && once_per_trace(x->d.code) ? ev[8] : 0;
}

static int take_findings(pw_part_reader *rd, size_t share, findings *f)
{
    f->dropped += pw_part_next(rd);
    uint64_t n = pw_part_next(rd);
    int ok = !rd->bad;
    for (uint64_t i = 0; ok && i < n; i++) {
        if (!pw_grow((void **)&f->v, f->n, &f->cap, sizeof *f->v)) {
            f->failed = 1;
            return 1;
        }
        finding *x = &f->v[f->n];
        x->d.severity = (pw_severity)pw_part_next(rd);
        x->d.has_offset = (int)pw_part_next(rd);
        x->d.offset = pw_part_next(rd);
        x->d.code = pw_part_take_str(rd, NULL);
        x->d.file = pw_part_take_str(rd, NULL);
        x->d.message = pw_part_take_str(rd, NULL);
        ok = ok && x->d.code && x->d.message && !rd->bad;
        if (ok)
            read_clock(x);
        x->share = share;
        x->seq = f->n++;
    }
    return ok;
}

static int by_clock(const void *a, const void *b)
{
    const finding *x = a, *y = b;
    if (x->clock != y->clock)
        return x->clock < y->clock ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq; /* share order, then its own */
}

/* The findings in the order of their events, a once-per-trace one kept at
 * its first event only, added to ds. */
static void add_findings(pw_dataset *ds, findings *f)
{
    if (f->n > 1)
        qsort(f->v, f->n, sizeof *f->v, by_clock);
    for (size_t i = 0; i < f->n; i++) {
        int seen = 0;
        for (size_t k = 0; f->v[i].letter && k < i && !seen; k++)
            seen = f->v[k].letter == f->v[i].letter && !strcmp(f->v[k].d.code, f->v[i].d.code);
        if (!seen)
            pw_ds_diag_copy(ds, &f->v[i].d);
    }
    ds->diags_dropped += f->dropped;
}

/* Every part's entries, in the serial order, into the report. */
static pw_status join_entries(pw_dataset *ds, const pw_states *st, const void *const *parts, const size_t *sizes,
                              size_t n, pw_report *r, pw_error *err)
{
    row_maps m = {{NULL, NULL}, {0, 0}};
    int ok = maps_of(st, &m), any = 0;
    int64_t first = 0, end_abs = 0;
    uint64_t total = 0;
    for (size_t k = 0; ok && k < n; k++) {
        pw_part_reader rd = pw_part_reader_of(parts[k], sizes[k]);
        part_head h;
        ok = take_head(&rd, &h);
        if (ok && h.has_first) {
            first = !any || h.first < first ? h.first : first;
            end_abs = !any || h.end_abs > end_abs ? h.end_abs : end_abs;
            any = 1;
        }
        total += ok ? h.n_entries : 0;
    }
    state_entry *e = ok ? malloc((total ? total : 1) * sizeof *e) : NULL;
    size_t got = 0;
    findings f = {0};
    for (size_t k = 0; e && ok && k < n; k++) {
        pw_part_reader rd = pw_part_reader_of(parts[k], sizes[k]);
        part_head h;
        take_head(&rd, &h);
        long taken = take_entries(&rd, &h, end_abs, &m, e + got);
        ok = taken >= 0 && take_findings(&rd, k, &f) && rd.pos == rd.n;
        got += ok ? (size_t)taken : 0;
    }
    if (ok && !f.failed)
        add_findings(ds, &f);
    ok = ok && !f.failed;
    free(f.v);
    pw_status s = PW_OK;
    if (!ok)
        s = pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET, "the emulator's parts do not fit this dataset");
    else if (!e)
        s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    if (s == PW_OK) {
        qsort(e, got, sizeof *e, by_key_value);
        pw_rnode *rows = pw_report_stream(r, pw_state_times_table.name);
        pw_state_totals totals = {0};
        pw_state_busy busy;
        pw_state_busy_init(&busy, st);
        int64_t span = any ? end_abs - first - pw_state_window_start(ds, first) : 0;
        if (rows)
            report_entries(st, e, got, span, rows, &totals, &busy);
        if (rows && (!pw_state_totals_report(&totals, pw_report_root(r)) ||
                     !pw_state_busy_report(&busy, span, pw_report_root(r))))
            s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
        free(totals.v);
        pw_state_busy_free(&busy);
    }
    free(e);
    free(m.rows[0]);
    free(m.rows[1]);
    return s;
}

pw_status ovniemu_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n, pw_report *r,
                       pw_error *err)
{
    pw_states *st = NULL; /* the whole system: its rows give the serial order */
    pw_status s = emu_states_source.start(ds, NULL, NULL, &st, err);
    if (s == PW_OK)
        s = join_entries(ds, st, parts, sizes, n, r, err);
    emu_states_source.release(st);
    return s;
}
