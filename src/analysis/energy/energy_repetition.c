/* energy_repetition.c — the energy figures of one repetition: its window
 * and phases from the marks first (they give the edges), then one
 * streaming pass over each power stream, all through cursors.  Damage is
 * reported as findings and costs only what it touches: a bad record (the
 * cursor skips or reports it), a stream, or (without a window) the
 * repetition.  The cursors read the whole files whatever the filter; the
 * repetition is cut to the report's selection (energy_selection.c) before
 * its streams are integrated. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/energy/energy.h"
#include "analysis/energy/energy_integral.h"
#include "core/grow.h"
#include "core/input.h"
#include "core/path_name.h"
#include "core/window.h"

/* A phase being built from the marks: unindexed kinds keep the first begin
 * and the last end (a restarted run keeps its whole span), indexed ones
 * the last of each. */
typedef struct phase_slot {
    size_t kind;
    int64_t index, begin, end;
    int has_begin, has_end;
} phase_slot;

typedef struct phase_list {
    phase_slot window;
    phase_slot *slots;
    size_t n, cap;
} phase_list;

/* The slot of this kind and index, added on first sight. */
static phase_slot *slot_of(phase_list *pl, size_t kind, int64_t index)
{
    for (size_t i = pl->n; i-- > 0;)
        if (pl->slots[i].kind == kind && pl->slots[i].index == index)
            return &pl->slots[i];
    if (!pw_grow((void **)&pl->slots, pl->n, &pl->cap, sizeof *pl->slots))
        return NULL;
    phase_slot *p = &pl->slots[pl->n++];
    *p = (phase_slot){.kind = kind, .index = index, .begin = -1, .end = -1};
    return p;
}

static void mark(phase_slot *p, pw_record_kind k, int64_t t, int keep_first_begin)
{
    if (k == PW_REC_BEGIN && !(keep_first_begin && p->has_begin)) {
        p->begin = t;
        p->has_begin = 1;
    } else if (k == PW_REC_END) {
        p->end = t;
        p->has_end = 1;
    }
}

/* Records one mark of the window or of a phase kind. */
static void take_mark(const pw_energy_layout *lay, phase_list *pl, const pw_record *rec)
{
    if (rec->kind != PW_REC_BEGIN && rec->kind != PW_REC_END)
        return;
    if (!strcmp(rec->type, lay->window)) {
        mark(&pl->window, rec->kind, rec->t, 1);
        return;
    }
    for (size_t k = 0; k < lay->n_phase_kinds; k++) {
        const pw_energy_phase_kind *pk = &lay->phase_kinds[k];
        if (strcmp(rec->type, pk->name))
            continue;
        int64_t index = 0;
        if (pk->indexed) {
            const pw_schema *sc = rec->cursor->ds->schemas[rec->schema];
            int f = pw_field_index(sc, lay->index_field);
            const pw_value *v = f >= 0 ? &pw_record_fields(rec)[f] : NULL;
            if (!v || !v->present)
                return;
            index = (int64_t)pw_value_number(v);
        }
        phase_slot *p = slot_of(pl, k, index);
        if (p)
            mark(p, rec->kind, rec->t, !pk->indexed);
        return;
    }
}

/* A cursor that would not open: its file's header is damaged, or the file
 * cannot be read. */
static void note_open_failure(const energy_run *run, const pw_error *e)
{
    pw_ds_diag_error(run->ds, PW_SEV_ERROR, run->codes[e->status == PW_E_DATA ? CODE_BAD_HEADER : CODE_UNREADABLE],
                     e);
}

/* The size of a file, where a finding about its end points. */
static int64_t end_of(const char *file)
{
    struct stat st;
    return pw_input_stat(file, &st) == 0 ? (int64_t)st.st_size : PW_NO_OFFSET;
}

/* Reads the marks into the window and phases; 0 when the window is known. */
static int read_marks(const energy_run *run, const pw_energy_unit *u, phase_list *pl)
{
    pw_dataset *ds = run->ds;
    if (u->phases_loc < 0) {
        pw_ds_diag(ds, PW_SEV_ERROR, run->codes[CODE_NO_WINDOW_FILE], u->phases_file, PW_NO_OFFSET,
                   "missing: without %s_begin/%s_end the repetition has no "
                   "window and is left out of stats", run->lay->window, run->lay->window);
        return -1;
    }
    pw_cursor *c;
    pw_error e;
    if (pw_cursor_open_whole_run(ds, (uint32_t)u->phases_loc, PW_WINDOW_DEFAULT_CAP, &c, &e) != PW_OK) {
        note_open_failure(run, &e);
        return -1;
    }
    while (pw_cursor_step(c, &e) == PW_OK)
        take_mark(run->lay, pl, &c->rec);
    pw_cursor_close(c);
    const phase_slot *w = &pl->window;
    int ok = w->has_begin && w->has_end && w->end >= w->begin;
    if (!ok) /* the offset of the end: the mark was expected before it */
        pw_ds_diag(ds, PW_SEV_ERROR, run->codes[CODE_NO_WINDOW], u->phases_file, end_of(u->phases_file),
                   "no %s_begin/%s_end pair in order before the end of the "
                   "file: the repetition is left out of stats", run->lay->window, run->lay->window);
    return ok ? 0 : -1;
}

/* The phases the report lists: each kind in layout order, unindexed ones
 * when complete, indexed ones in order of first sight (an incomplete one
 * is a warning). */
static void build_phases(const energy_run *run, const pw_energy_unit *u, const phase_list *pl,
                         energy_result *res)
{
    size_t n = 0;
    res->phases = calloc(pl->n + 1, sizeof *res->phases);
    if (!res->phases)
        return;
    const char *file = pw_base_name(u->phases_file);
    for (size_t k = 0; k < run->lay->n_phase_kinds; k++) {
        const pw_energy_phase_kind *pk = &run->lay->phase_kinds[k];
        for (size_t i = 0; i < pl->n; i++) {
            const phase_slot *p = &pl->slots[i];
            if (p->kind != k)
                continue;
            int complete = pk->indexed ? p->begin >= 0 && p->end >= p->begin
                                       : p->has_begin && p->has_end && p->end >= p->begin;
            if (complete)
                res->phases[n++] = (energy_phase){.name = pk->name, .index = p->index, .begin = p->begin,
                                                  .end = p->end};
            else if (pk->indexed)
                pw_ds_diag(run->ds, PW_SEV_WARNING, run->codes[CODE_OPEN_PHASE], u->dir, PW_NO_OFFSET,
                           "%s: %s %lld has no matching begin/end pair; left out", file, pk->name,
                           (long long)p->index);
        }
    }
    res->n_phases = n;
}

/* Every window edge of the repetition, sorted. */
static int64_t *window_edges(const energy_result *res, size_t *n)
{
    int64_t *edges = malloc((2 + 2 * res->n_phases) * sizeof *edges);
    if (!edges)
        return NULL;
    size_t k = 0;
    edges[k++] = res->begin;
    edges[k++] = res->end;
    for (size_t i = 0; i < res->n_phases; i++) {
        edges[k++] = res->phases[i].begin;
        edges[k++] = res->phases[i].end;
    }
    *n = energy_edges_sort(edges, k);
    return edges;
}

/* One source's integral, the memory it records into, and the field it
 * reads. */
typedef struct source_pass {
    energy_integral g;
    double *buf;
    int field;    /* in the stream's schema; -1 until the first record */
    pw_type type; /* its type */
    double scale; /* the field's unit in W or J */
    int present;  /* some record carried it */
} source_pass;

/* A unit as W or J: the factor of its SI unit, or 0 when unknown. */
static double si_factor(const char *unit)
{
    static const struct {
        const char *unit;
        double factor;
    } units[] = {{"W", 1.0}, {"J", 1.0}, {"mW", 0.001}, {"mJ", 0.001}, {"cW", 0.01}, {"kW", 1000.0},
                 {"kJ", 1000.0}};
    for (size_t i = 0; unit && i < sizeof units / sizeof *units; i++)
        if (!strcmp(unit, units[i].unit))
            return units[i].factor;
    return 0;
}

/* Finds the source's field in the schema of the stream's records, and its
 * unit (the layout's when the schema names none). */
static void resolve_field(source_pass *sp, const pw_schema *sc, const pw_energy_source *src)
{
    int f = pw_field_index(sc, src->field);
    sp->field = f >= 0 ? f : -2; /* resolved: the schema lacks it */
    if (f >= 0)
        sp->type = sc->fields[f].type;
    if (f >= 0)
        sp->scale = si_factor(src->unit ? src->unit : sc->fields[sp->field].unit);
}

static int pass_init(source_pass *sp, const int64_t *edges, size_t n, int level, const energy_result *res)
{
    sp->buf = malloc(2 * n * sizeof *sp->buf);
    if (!sp->buf)
        return -1;
    energy_integral_init(&sp->g, edges, n, sp->buf, sp->buf + n, level, res->begin, res->end);
    sp->field = -1;
    return 0;
}

/* Stores a finished source's energies (J) for the window and phases. */
static void pass_store(const energy_run *run, const char *path, source_pass *sp, energy_result *res,
                       uint32_t src)
{
    energy_integral *g = &sp->g;
    double scale = sp->scale;
    energy_integral_finish(g);
    if (!g->s.samples)
        return;
    const int64_t *ed = g->edges;
    size_t n = g->n_edges, a = energy_edge_index(ed, n, res->begin), b = energy_edge_index(ed, n, res->end);
    if (!energy_integral_covers(g, a, b))
        pw_ds_diag(run->ds, PW_SEV_WARNING, run->codes[CODE_PARTIAL], path, PW_NO_OFFSET,
                   "the samples cover only part of the %s window: %s energy is "
                   "integrated over the overlap",
                   run->lay->window, run->lay->sources[src].name);
    res->has[src] = 1;
    res->energy[src] = (g->value[b] - g->value[a]) * scale;
    if ((int)src == run->primary)
        res->peak_w = energy_integral_peak(g, a, b) * scale;
    for (size_t i = 0; i < res->n_phases; i++) {
        energy_phase *p = &res->phases[i];
        p->energy[src] = (g->value[energy_edge_index(ed, n, p->end)] - g->value[energy_edge_index(ed, n, p->begin)]) * scale;
    }
}

/* The cursors of a stream: one per location, or one whose siblings share
 * its rows (pw_cursor_ops.field_as: a meter's channels read in one pass). */
typedef struct stream_rows {
    pw_cursor **cs;
    uint32_t n_cursors, n_locs;
    int32_t first_loc;
    /* The cursors' field_as (kept here, not looked up for every value),
     * or NULL: whole records are decoded. */
    void (*field_as)(pw_cursor *c, uint32_t loc, size_t f, pw_value *v);
} stream_rows;

/* The row's value of one source, summed over the stream's locations in
 * order; 0 when a location's record does not carry it (or it is no
 * number). */
static int row_value(stream_rows *rows, source_pass *sp, const pw_energy_source *src, double *out)
{
    const pw_record *rec = &rows->cs[0]->rec;
    if (sp->field == -1)
        resolve_field(sp, rows->cs[0]->ds->schemas[rec->schema], src);
    if (sp->field < 0)
        return 0;
    double sum = 0;
    for (uint32_t i = 0; i < rows->n_locs; i++) {
        pw_cursor *c = rows->cs[i < rows->n_cursors ? i : 0];
        pw_value one = {.type = sp->type};
        const pw_value *v = &one;
        if (rows->field_as)
            rows->field_as(c, (uint32_t)rows->first_loc + i, (size_t)sp->field, &one);
        else
            v = &pw_record_fields(&c->rec)[sp->field];
        if (!v->present)
            return 0;
        sum += v->type == PW_T_F64 ? v->v.f : pw_value_number(v);
    }
    *out = sum;
    return !isnan(sum);
}

/* Opens the stream's cursors; 0, or -1 (the first failure noted). */
static int open_stream(const energy_run *run, const pw_energy_stream *st, stream_rows *rows)
{
    *rows = (stream_rows){.n_locs = st->n_locs, .first_loc = st->first_loc};
    rows->cs = calloc(st->n_locs ? st->n_locs : 1, sizeof *rows->cs);
    if (!rows->cs || !st->n_locs)
        return -1;
    for (uint32_t i = 0; i < st->n_locs; i++) {
        pw_error e;
        if (pw_cursor_open_whole_run(run->ds, (uint32_t)st->first_loc + i, PW_WINDOW_DEFAULT_CAP, &rows->cs[i], &e) !=
            PW_OK) {
            note_open_failure(run, &e);
            return -1;
        }
        rows->n_cursors++;
        if (i == 0 && (rows->field_as = rows->cs[0]->ops->field_as))
            break; /* the siblings come from the first cursor's rows */
    }
    return 0;
}

static void close_stream(stream_rows *rows)
{
    for (uint32_t i = 0; i < rows->n_cursors; i++)
        pw_cursor_close(rows->cs[i]);
    free(rows->cs);
}

/* The next row of every cursor of the stream, in step. */
static int next_row(const stream_rows *rows)
{
    for (uint32_t i = 0; i < rows->n_cursors; i++) {
        pw_error e;
        if (pw_cursor_step(rows->cs[i], &e) != PW_OK)
            return 0;
    }
    return 1;
}

/* One stream: every source it carries integrated over the window edges. */
static void read_stream(const energy_run *run, const pw_energy_stream *st, const int64_t *edges,
                        size_t n_edges, energy_result *res)
{
    const pw_energy_watch *w = res->watched ? run->ds->run->energy_watch : NULL;
    const pw_energy_source *srcs = &run->lay->sources[st->first_source];
    if (st->first_loc < 0) {
        if (st->required)
            pw_ds_diag(run->ds, PW_SEV_ERROR, run->codes[CODE_NO_FILE], st->file, PW_NO_OFFSET,
                       "missing: the data model says it is always present; no %s energy", srcs[0].name);
        return;
    }
    stream_rows rows;
    source_pass *sp = calloc(st->n_sources ? st->n_sources : 1, sizeof *sp);
    int ok = open_stream(run, st, &rows) == 0 && sp;
    for (uint32_t k = 0; ok && k < st->n_sources; k++)
        ok = pass_init(&sp[k], edges, n_edges, srcs[k].counter, res) == 0;
    uint64_t n_rows = 0;
    while (ok && next_row(&rows)) {
        n_rows++;
        for (uint32_t k = 0; k < st->n_sources; k++) {
            double v;
            if (row_value(&rows, &sp[k], &srcs[k], &v)) {
                sp[k].present = 1;
                energy_integral_add(&sp[k].g, rows.cs[0]->rec.t, v);
                if (w && srcs[k].primary)
                    w->sample(res->watched, rows.cs[0]->rec.t, v * sp[k].scale);
            }
        }
    }
    for (uint32_t k = 0; ok && k < st->n_sources; k++) {
        if (srcs[k].required && n_rows && !sp[k].present)
            pw_ds_diag(run->ds, PW_SEV_ERROR, run->codes[CODE_NO_FIELD], st->file, 0,
                       "line 1: no '%s' column: the repetition has no %s energy", srcs[k].field, srcs[k].name);
        pass_store(run, st->file, &sp[k], res, st->first_source + k);
    }
    for (uint32_t k = 0; sp && k < st->n_sources; k++)
        free(sp[k].buf);
    free(sp);
    close_stream(&rows);
}

void energy_repetition_read(const energy_run *run, size_t i, energy_result *res)
{
    const pw_energy_unit *u = &run->lay->units[i];
    const pw_energy_watch *w = run->ds->run->energy_watch;
    phase_list pl = {0};
    memset(res, 0, sizeof *res);
    if (read_marks(run, u, &pl) == 0) {
        res->ok = 1;
        res->begin = pl.window.begin;
        res->end = pl.window.end;
        res->duration_s = (double)(res->end - res->begin) * 1e-9;
        build_phases(run, u, &pl, res);
    }
    free(pl.slots);
    if (!energy_select_repetition(run, u, res))
        return; /* not reported: its streams are not read */
    size_t n_edges = 0;
    int64_t *edges = res->ok ? window_edges(res, &n_edges) : NULL;
    if (!edges) {
        res->ok = 0;
        return;
    }
    if (w && !u->baseline)
        res->watched = w->unit_begin(w->ctx, i, res->begin, res->end);
    for (size_t k = 0; k < u->n_streams; k++)
        read_stream(run, &u->streams[k], edges, n_edges, res);
    free(edges);
}

void energy_result_free(energy_result *res)
{
    free(res->phases);
    res->phases = NULL;
    res->n_phases = 0;
}
