/* emu_mark.c — user marks (ovni src/emu/ovni/mark.c): each thread's
 * metadata declares mark types ("mark.<type>.title", ".chan_type",
 * ".label.<value>" properties of its location); every type becomes a
 * channel, single or stack, written as type 100 + <type>, shown in the
 * thread's view while it is active and in the CPU's view while it runs. */
#include "analysis/ovniemu/emu_mark.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ovniemu/emu_tracks.h"

#define SLOT_MARK 1
#define PRV_OVNI_MARK 100

typedef struct mark_set {
    emu_chan_spec *spec;  /* one per type, in order of discovery */
    long *type;           /* the user's type number of each */
    emu_label **labels;
    size_t *n_labels;
    int n, cap;
} mark_set;

static int find_type(const mark_set *ms, long type)
{
    for (int i = 0; i < ms->n; i++)
        if (ms->type[i] == type)
            return i;
    return -1;
}

static int grow(mark_set *ms)
{
    int cap = ms->cap ? ms->cap * 2 : 8;
    emu_chan_spec *s = realloc(ms->spec, (size_t)cap * sizeof *s);
    if (s)
        ms->spec = s;
    long *t = realloc(ms->type, (size_t)cap * sizeof *t);
    if (t)
        ms->type = t;
    emu_label **l = realloc(ms->labels, (size_t)cap * sizeof *l);
    if (l)
        ms->labels = l;
    size_t *nl = realloc(ms->n_labels, (size_t)cap * sizeof *nl);
    if (nl)
        ms->n_labels = nl;
    if (!s || !t || !l || !nl)
        return -1;
    ms->cap = cap;
    return 0;
}

/* A property "<thread>:mark.<type>.<rest>" of thread path p: the type and
 * the rest, or 0. */
static int mark_key(const char *key, const char *p, size_t np, long *type, const char **rest)
{
    if (strncmp(key, p, np) || strncmp(key + np, ":mark.", 6))
        return 0;
    char *end;
    *type = strtol(key + np + 6, &end, 10);
    if (end == key + np + 6 || *end != '.')
        return 0;
    *rest = end + 1;
    return 1;
}

static int add_label(mark_set *ms, int i, int64_t value, const char *label)
{
    for (size_t k = 0; k < ms->n_labels[i]; k++)
        if (ms->labels[i][k].value == value)
            return 0;
    emu_label *l = realloc(ms->labels[i], (ms->n_labels[i] + 2) * sizeof *l);
    if (!l)
        return -1;
    ms->labels[i] = l;
    l[ms->n_labels[i]++] = (emu_label){value, label};
    l[ms->n_labels[i]] = (emu_label){0, NULL};
    ms->spec[i].labels = l;
    return 0;
}

/* The types and labels one thread declares. */
static int scan_thread(mark_set *ms, const pw_dataset *ds, const char *path)
{
    size_t np = strlen(path);
    for (size_t k = 0; k < pw_dataset_prop_count(ds); k++) {
        const char *key, *value, *rest;
        long type;
        pw_dataset_prop(ds, k, &key, &value);
        if (!mark_key(key, path, np, &type, &rest))
            continue;
        int i = find_type(ms, type);
        if (i < 0 && !strcmp(rest, "title")) {
            if (ms->n == ms->cap && grow(ms) != 0)
                return -1;
            i = ms->n++;
            ms->type[i] = type;
            ms->labels[i] = NULL;
            ms->n_labels[i] = 0;
            ms->spec[i] = (emu_chan_spec){"mark", 0, 1, (int32_t)(PRV_OVNI_MARK + type), value, NULL,
                                          EMU_PRV_SKIPDUPNULL, EMU_TRACK_ACT, EMU_TRACK_RUN, 1};
        } else if (i >= 0 && !strcmp(rest, "chan_type")) {
            ms->spec[i].is_stack = !strcmp(value, "stack");
        } else if (i >= 0 && !strncmp(rest, "label.", 6)) {
            if (add_label(ms, i, strtoll(rest + 6, NULL, 10), value) != 0)
                return -1;
        }
    }
    return 0;
}

int emu_mark_create(emu *e)
{
    mark_set *ms = calloc(1, sizeof *ms);
    if (!ms)
        return -1;
    e->model_state[SLOT_MARK] = ms;
    for (uint32_t i = 0; i < e->sys.n_threads; i++)
        if (scan_thread(ms, e->ds, e->ds->locs[e->sys.threads[i].loc].path) != 0)
            return -1;
    return ms->n ? emu_tracks_create(e, SLOT_MARK, ms->spec, ms->n) : 0;
}

int emu_mark_event(emu *e, emu_ev *ev)
{
    const mark_set *ms = e->model_state[SLOT_MARK];
    int ok = 1;
    int64_t value = emu_ev_int(ev, 0, &ok);
    long type = (long)emu_ev_int(ev, 1, &ok);
    if (!ok) {
        e->fault = "unexpected payload size of a mark event";
        return -1;
    }
    int i = ms ? find_type(ms, type) : -1;
    if (i < 0) {
        e->fault = "mark type not declared in any thread's metadata";
        return -1;
    }
    if (value == 0) {
        e->fault = "mark value 0 is reserved";
        return -1;
    }
    emu_chan *ch = emu_tracks_chan(e->th, SLOT_MARK, i);
    switch (ev->v) {
    case '[':
        return emu_chan_push(&e->bay, ch, emu_int(value));
    case ']':
        return emu_chan_pop(&e->bay, ch, emu_int(value));
    case '=':
        return emu_chan_set(&e->bay, ch, emu_int(value));
    }
    e->fault = "unknown mark event";
    return -1;
}

void emu_mark_destroy(emu *e)
{
    mark_set *ms = e->model_state[SLOT_MARK];
    if (!ms)
        return;
    emu_tracks_destroy(e, SLOT_MARK);
    for (int i = 0; i < ms->n; i++)
        free(ms->labels[i]);
    free(ms->labels);
    free(ms->n_labels);
    free(ms->type);
    free(ms->spec);
    free(ms);
    e->model_state[SLOT_MARK] = NULL;
}
