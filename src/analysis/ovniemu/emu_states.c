/* emu_states.c — the emulator described as states (views/states.h):
 * view 0 holds the threads and view 1 the CPUs, by their Paraver rows;
 * channels are the event types the models declared in each view's .pcf,
 * with its value labels.  The emulator's emit callback is the consumer's
 * change function itself: a change costs what it cost before. */
#include "analysis/ovniemu/emu_states.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ovniemu/emu.h"
#include "views/state_window.h"

/* nOS-V's hardware counters are types 200 to 299 (emu_nosv_hwc.h). */
#define HWC_FIRST 200
#define HWC_LAST 299

/* The writers ask for a value's label at every slice they draw, and the
 * .pcf keeps labels in declaration order (a walk over the types, then
 * over their values: tens of compares).  Answers are kept here: a
 * channel id's type index by id, and the last answer per (view, id,
 * value) in a direct-mapped cache.  Labels are only appended, never
 * moved or taken back (emu_pcf.c), so a label found stays at its index,
 * and "no label" holds while the type's count of labels is unchanged. */
enum { DIRECT_TYPES = 512, LABEL_BITS = 12 };

typedef struct label_answer {
    int64_t value;
    int32_t id;
    int16_t view;
    uint16_t index_plus_1; /* the label's index + 1; 0: none among the first n_values */
    size_t n_values;
} label_answer;

typedef struct label_cache {
    int16_t type_of[EMU_VIEWS][DIRECT_TYPES]; /* a type's index + 1 by id; 0: unknown */
    size_t n_types[EMU_VIEWS];                /* the types indexed so far */
    label_answer answers[1 << LABEL_BITS];
} label_cache;

typedef struct emu_states {
    pw_states st; /* first: pw_states * and emu_states * are one pointer */
    emu e;
    pw_state_view views[EMU_VIEWS];
    pw_state_row *rows[EMU_VIEWS];
    char *names;  /* the rows' strings that are not locations' paths */
    label_cache *labels; /* NULL (memory ran out): the .pcf is walked */
    pw_state_window window; /* the report window the changes are clipped to */
    int windowed;
} emu_states;

static const emu *emu_of(const pw_states *st) { return &((const emu_states *)st)->e; }

static size_t n_channels(const pw_states *st, int view) { return emu_of(st)->pcf[view].n_types; }

static pw_state_channel channel_at(const pw_states *st, int view, size_t i)
{
    const emu_pcf_type *t = &emu_of(st)->pcf[view].types[i];
    unsigned flags = t->id >= HWC_FIRST && t->id <= HWC_LAST ? PW_STATE_COUNTER : 0;
    return (pw_state_channel){t->id, t->label, flags, t->n_values};
}

static const char *label_at(const pw_states *st, int view, size_t i, size_t k, int64_t *value)
{
    const emu_label *l = &emu_of(st)->pcf[view].types[i].values[k];
    *value = l->value;
    return l->label;
}

static const char *channel_name(const pw_states *st, int view, int32_t id)
{
    const emu_pcf_type *t = emu_pcf_find(&emu_of(st)->pcf[view], id);
    return t ? t->label : NULL;
}

/* The type of channel `id`, by the direct table (indexed again when
 * types were added since). */
static const emu_pcf_type *type_of(label_cache *c, const emu_pcf *pcf, int view, int32_t id)
{
    if (id < 0 || id >= DIRECT_TYPES)
        return emu_pcf_find(pcf, id);
    for (size_t i = c->n_types[view]; i < pcf->n_types && i < INT16_MAX; i++) {
        int32_t t = pcf->types[i].id;
        if (t >= 0 && t < DIRECT_TYPES && !c->type_of[view][t])
            c->type_of[view][t] = (int16_t)(i + 1);
    }
    c->n_types[view] = pcf->n_types;
    int16_t i = c->type_of[view][id];
    return i ? &pcf->types[i - 1] : NULL;
}

static const char *value_label(const pw_states *st, int view, int32_t id, int64_t value)
{
    const emu_pcf *pcf = &emu_of(st)->pcf[view];
    label_cache *c = ((const emu_states *)st)->labels;
    if (!c)
        return emu_pcf_label(emu_pcf_find(pcf, id), value);
    const emu_pcf_type *t = type_of(c, pcf, view, id);
    if (!t || !t->n_values) /* ids, counters: many values, no label */
        return NULL;
    label_answer *a = &c->answers[pw_state_slot(view, (uint32_t)id, (uint64_t)value, LABEL_BITS)];
    int same = a->value == value && a->id == id && a->view == view;
    if (same && a->index_plus_1)
        return t->values[a->index_plus_1 - 1].label;
    size_t from = same ? a->n_values : 0; /* the labels added since the answer */
    *a = (label_answer){value, id, (int16_t)view, 0, t->n_values};
    for (size_t k = from; k < t->n_values; k++)
        if (t->values[k].value == value) {
            if (k < UINT16_MAX)
                a->index_plus_1 = (uint16_t)(k + 1);
            else
                a->n_values = 0; /* not kept: searched again next time */
            return t->values[k].label;
        }
    return NULL;
}

/* Room for the strings of every row: "TH <appid>.<tid>" and the CPUs'
 * "<node>/cpu.<phyid>". */
static size_t names_size(const emu *e)
{
    size_t n = (size_t)e->sys.n_threads * 48;
    for (uint32_t i = 0; i < e->sys.n_cpus; i++)
        n += strlen(e->ds->locs[e->sys.cpus[i].loom->loc].path) + 24;
    return n;
}

/* The threads by location, the CPUs by name, as ovniemu's .row lists them. */
static int name_rows(emu_states *es)
{
    const emu *e = &es->e;
    es->rows[EMU_VIEW_THREAD] = calloc(e->sys.n_threads + 1, sizeof(pw_state_row));
    es->rows[EMU_VIEW_CPU] = calloc(e->sys.n_cpus + 1, sizeof(pw_state_row));
    size_t room = names_size(e) + 1;
    char *p = es->names = malloc(room);
    if (!es->rows[0] || !es->rows[1] || !p)
        return -1;
    for (uint32_t i = 0; i < e->sys.n_threads; i++) {
        const emu_thread *th = &e->sys.threads[i];
        const char *loc = e->ds->locs[th->loc].path;
        int n = snprintf(p, room, "TH %lld.%lld", (long long)th->proc->appid, (long long)th->tid);
        es->rows[EMU_VIEW_THREAD][i] = (pw_state_row){loc, p, loc};
        p += n + 1;
        room -= (size_t)n + 1;
    }
    for (uint32_t i = 0; i < e->sys.n_cpus; i++) {
        const emu_cpu *c = &e->sys.cpus[i];
        const char *node = e->ds->locs[c->loom->loc].path;
        int n = c->is_virtual ? snprintf(p, room, "%s/vcpu", node)
                              : snprintf(p, room, "%s/cpu.%d", node, (int)c->phyid);
        es->rows[EMU_VIEW_CPU][i] = (pw_state_row){c->name, c->name, p};
        p += n + 1;
        room -= (size_t)n + 1;
    }
    es->views[EMU_VIEW_THREAD] = (pw_state_view){"thread", e->sys.n_threads, es->rows[0], 0};
    es->views[EMU_VIEW_CPU] = (pw_state_view){"cpu", e->sys.n_cpus, es->rows[1], EMU_PRV_CPU_NRUN};
    return 0;
}

static int offers(const pw_dataset *ds) { return pw_dataset_prop_get(ds, "emulation") != NULL; }

static pw_status start(pw_dataset *ds, pw_state_change_fn change, void *ctx, pw_states **st,
                       pw_error *err)
{
    emu_states *es = calloc(1, sizeof *es);
    *st = (pw_states *)es;
    if (!es)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    es->st = (pw_states){ds, "ovni emulation", EMU_VIEWS, es->views, n_channels, channel_at, label_at,
                         channel_name, value_label, 0, 0, 0};
    es->labels = calloc(1, sizeof *es->labels); /* optional: value_label walks the .pcf without */
    es->windowed = change && pw_state_window_init(&es->window, ds, change, ctx);
    if (es->windowed) {
        change = pw_state_window_change;
        ctx = &es->window;
    }
    pw_status s = emu_start(&es->e, ds, change, ctx, err);
    es->e.window = es->windowed ? &es->window : NULL;
    if (s == PW_OK && name_rows(es) != 0)
        s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    return s;
}

static pw_status play(pw_states *st, pw_error *err)
{
    emu_states *es = (emu_states *)st;
    pw_status s = emu_play(&es->e, err);
    st->end = es->e.last_time;
    if (es->windowed && (st->end = pw_state_window_finish(&es->window, st->end, es->e.cut)) < 0 &&
        s == PW_OK)
        s = pw_fail(err, PW_E_NOMEM, st->ds->path, PW_NO_OFFSET, "out of memory");
    if (es->windowed)
        st->start = es->window.start < st->end ? es->window.start : st->end;
    st->events = es->e.events;
    return s;
}

static void release(pw_states *st)
{
    emu_states *es = (emu_states *)st;
    if (!es)
        return;
    emu_free(&es->e);
    if (es->windowed)
        pw_state_window_free(&es->window);
    free(es->rows[0]);
    free(es->rows[1]);
    free(es->names);
    free(es->labels);
    free(es);
}

const pw_states_source emu_states_source = {offers, start, play, release};
