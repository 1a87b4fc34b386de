/* gpupower_repetition.c — the energy figures of one repetition: its phases
 * from timestamps.csv first (they give the windows), then one streaming
 * pass over each power file.  Damage is reported as diagnostics and costs
 * only what it touches: a bad row, a file, or (without an experiment
 * window) the repetition. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/dirlist.h"
#include "formats/gpupower/gpupower_energy.h"
#include "formats/gpupower/gpupower_result.h"

const char *const gp_source_names[GP_SOURCES] = {"gpu", "nvml_counter", "external", "samples"};

/* The windows being built from timestamps.csv. */
typedef struct phase_list {
    int64_t exp_begin, exp_end, train_begin, train_end;
    int has_exp_begin, has_exp_end, has_train_begin, has_train_end;
    gp_phase *epochs;
    size_t n, cap;
} phase_list;

/* The epoch with this index, added on first sight (begin = end = -1). */
static gp_phase *epoch_slot(phase_list *pl, int64_t index)
{
    for (size_t i = pl->n; i-- > 0;)
        if (pl->epochs[i].index == index)
            return &pl->epochs[i];
    if (!pw_grow((void **)&pl->epochs, pl->n, &pl->cap, sizeof *pl->epochs))
        return NULL;
    gp_phase *p = &pl->epochs[pl->n++];
    *p = (gp_phase){.name = "epoch", .index = index, .begin = -1, .end = -1};
    return p;
}

static int event_is(const gp_table *t, const char *name)
{
    return t->event_len == strlen(name) && !memcmp(t->event, name, t->event_len);
}

/* Records one event; the first experiment/train begin and the last end
 * win (a restarted run keeps its whole span). */
static void take_event(phase_list *pl, const gp_table *t)
{
    if (event_is(t, "experiment_begin") && !pl->has_exp_begin) {
        pl->exp_begin = t->t;
        pl->has_exp_begin = 1;
    } else if (event_is(t, "experiment_end")) {
        pl->exp_end = t->t;
        pl->has_exp_end = 1;
    } else if (event_is(t, "train_begin") && !pl->has_train_begin) {
        pl->train_begin = t->t;
        pl->has_train_begin = 1;
    } else if (event_is(t, "train_end")) {
        pl->train_end = t->t;
        pl->has_train_end = 1;
    } else if ((event_is(t, "epoch_begin") || event_is(t, "epoch_end")) && t->has_data) {
        gp_phase *e = epoch_slot(pl, t->data);
        if (e && event_is(t, "epoch_begin"))
            e->begin = t->t;
        else if (e)
            e->end = t->t;
    }
}

/* Opens one file as a table; a failure is a diagnostic, never fatal. */
static gp_table *open_table(pw_dataset *ds, const gp_dataset *gd, const char *path,
                            gp_file_kind kind)
{
    gp_table *t = malloc(sizeof *t);
    pw_error e;
    if (!t)
        return NULL;
    if (gp_table_open(t, ds, path, kind, &gd->tz, GP_WINDOW_STREAM, &e) == PW_OK)
        return t;
    pw_ds_diag_error(ds, PW_SEV_ERROR, e.status == PW_E_DATA ? "gpupower.bad-header" : "gpupower.unreadable",
                     &e);
    gp_table_close(t);
    free(t);
    return NULL;
}

/* A read error in the middle of a file ends that file. */
static void note_read_error(pw_dataset *ds, pw_status s, const pw_error *e)
{
    if (s != PW_END)
        pw_ds_diag_error(ds, PW_SEV_ERROR, "gpupower.bad-line", e);
}

/* Reads timestamps.csv into the windows; 0 when the experiment window is
 * known. */
static int read_phases(pw_dataset *ds, const gp_dataset *gd, const gp_rep *rep, phase_list *pl)
{
    char *path = gp_rep_file(rep, "timestamps.csv");
    if (!path)
        return -1;
    if (pw_path_is_dir(path) < 0) {
        pw_ds_diag(ds, PW_SEV_ERROR, "gpupower.no-timestamps", path, PW_NO_OFFSET,
                   "missing: without experiment_begin/experiment_end the repetition has no "
                   "window and is left out of stats");
        free(path);
        return -1;
    }
    gp_table *t = open_table(ds, gd, path, GP_FILE_TIMESTAMPS);
    pw_error e;
    pw_status s = PW_END;
    while (t && (s = gp_table_next(t, &e)) == PW_OK)
        take_event(pl, t);
    if (t)
        note_read_error(ds, s, &e);
    int ok = pl->has_exp_begin && pl->has_exp_end && pl->exp_end >= pl->exp_begin;
    if (t && !ok) /* the offset of the end: the event was expected before it */
        pw_ds_diag(ds, PW_SEV_ERROR, "gpupower.no-window", path, (int64_t)t->csv.w.file_size,
                   "no experiment_begin/experiment_end pair in order before the end of the "
                   "file: the repetition is left out of stats");
    if (t) {
        gp_table_close(t);
        free(t);
    }
    free(path);
    return ok ? 0 : -1;
}

/* The phases stats report: train, then each complete epoch. */
static void build_phases(pw_dataset *ds, const gp_rep *rep, phase_list *pl, gp_result *res)
{
    size_t n = 0;
    res->phases = calloc(pl->n + 1, sizeof *res->phases);
    if (!res->phases)
        return;
    if (pl->has_train_begin && pl->has_train_end && pl->train_end >= pl->train_begin)
        res->phases[n++] = (gp_phase){.name = "train", .begin = pl->train_begin, .end = pl->train_end};
    for (size_t i = 0; i < pl->n; i++) {
        gp_phase *e = &pl->epochs[i];
        if (e->begin >= 0 && e->end >= e->begin)
            res->phases[n++] = *e;
        else
            pw_ds_diag(ds, PW_SEV_WARNING, "gpupower.open-epoch", rep->dir, PW_NO_OFFSET,
                       "timestamps.csv: epoch %lld has no matching begin/end pair; left out",
                       (long long)e->index);
    }
    res->n_phases = n;
}

/* Every window edge of the repetition, sorted. */
static int64_t *window_edges(const gp_result *res, size_t *n)
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
    *n = gp_edges_sort(edges, k);
    return edges;
}

/* One source's integral and the memory it records into. */
typedef struct source_pass {
    gp_integral g;
    double *buf;
} source_pass;

static int pass_init(source_pass *sp, const int64_t *edges, size_t n, int level, const gp_result *res)
{
    sp->buf = malloc(2 * n * sizeof *sp->buf);
    if (!sp->buf)
        return -1;
    gp_integral_init(&sp->g, edges, n, sp->buf, sp->buf + n, level, res->begin, res->end);
    return 0;
}

/* Stores a finished source's energies (J) for the experiment and phases. */
static void pass_store(pw_dataset *ds, const char *path, source_pass *sp, gp_result *res, int src,
                       double scale)
{
    gp_integral *g = &sp->g;
    gp_integral_finish(g);
    if (!g->s.samples)
        return;
    const int64_t *ed = g->edges;
    size_t n = g->n_edges, a = gp_edge_index(ed, n, res->begin), b = gp_edge_index(ed, n, res->end);
    if (!gp_integral_covers(g, a, b))
        pw_ds_diag(ds, PW_SEV_WARNING, "gpupower.partial-coverage", path, PW_NO_OFFSET,
                   "the samples cover only part of the experiment window: %s energy is "
                   "integrated over the overlap",
                   gp_source_names[src]);
    res->has[src] = 1;
    res->energy[src] = (g->value[b] - g->value[a]) * scale;
    if (src == GP_SRC_GPU)
        res->peak_w = gp_integral_peak(g, a, b) * scale;
    for (size_t i = 0; i < res->n_phases; i++) {
        gp_phase *p = &res->phases[i];
        p->energy[src] = (g->value[gp_edge_index(ed, n, p->end)] - g->value[gp_edge_index(ed, n, p->begin)]) * scale;
    }
}

/* gpu-power.csv: the power column (mW) and the total-energy counter (mJ). */
static void read_gpu(pw_dataset *ds, const gp_dataset *gd, const gp_rep *rep, const int64_t *edges,
                     size_t n_edges, gp_result *res)
{
    char *path = gp_rep_file(rep, "gpu-power.csv");
    int exists = path && pw_path_is_dir(path) == 0;
    if (path && !exists)
        pw_ds_diag(ds, PW_SEV_ERROR, "gpupower.no-gpu-power", path, PW_NO_OFFSET,
                   "missing: the data model says it is always present; no gpu energy");
    gp_table *t = exists ? open_table(ds, gd, path, GP_FILE_GPU) : NULL;
    source_pass power = {0}, counter = {0};
    if (t && !t->has_value[GP_POWER])
        pw_ds_diag(ds, PW_SEV_ERROR, "gpupower.no-power-column", path, 0,
                   "line 1: no 'power' column: the repetition has no gpu energy");
    int want_p = t && t->has_value[GP_POWER], want_c = t && t->has_value[GP_TOTAL_ENERGY];
    if ((want_p && pass_init(&power, edges, n_edges, 0, res)) ||
        (want_c && pass_init(&counter, edges, n_edges, 1, res)))
        want_p = want_c = 0;
    pw_error e;
    pw_status s = PW_END;
    while ((want_p || want_c) && (s = gp_table_next(t, &e)) == PW_OK) {
        if (want_p && !isnan(t->v[GP_POWER]))
            gp_integral_add(&power.g, t->t, t->v[GP_POWER]);
        if (want_c && !isnan(t->v[GP_TOTAL_ENERGY]))
            gp_integral_add(&counter.g, t->t, t->v[GP_TOTAL_ENERGY]);
    }
    note_read_error(ds, s, &e);
    if (want_p)
        pass_store(ds, path, &power, res, GP_SRC_GPU, 1e-3);
    if (want_c)
        pass_store(ds, path, &counter, res, GP_SRC_NVML, 1e-3);
    free(power.buf);
    free(counter.buf);
    if (t)
        gp_table_close(t);
    free(t);
    free(path);
}

/* Reads a one-value power file: external (sum of channels) or samples. */
static void read_power_file(pw_dataset *ds, const gp_dataset *gd, const char *path, gp_file_kind kind,
                            const int64_t *edges, size_t n_edges, gp_result *res, int src, double scale)
{
    gp_table *t = open_table(ds, gd, path, kind);
    source_pass sp = {0};
    if (!t || pass_init(&sp, edges, n_edges, 0, res)) {
        if (t)
            gp_table_close(t);
        free(t);
        return;
    }
    pw_error e;
    pw_status s;
    while ((s = gp_table_next(t, &e)) == PW_OK) {
        double sum = 0;
        for (size_t i = 0; i < t->n_values; i++)
            sum += t->v[i];
        if (!isnan(sum))
            gp_integral_add(&sp.g, t->t, sum);
    }
    note_read_error(ds, s, &e);
    pass_store(ds, path, &sp, res, src, scale);
    free(sp.buf);
    gp_table_close(t);
    free(t);
}

void gp_repetition_read(pw_dataset *ds, const gp_rep *rep, gp_result *res)
{
    const gp_dataset *gd = ds->impl;
    phase_list pl = {0};
    memset(res, 0, sizeof *res);
    if (read_phases(ds, gd, rep, &pl) == 0) {
        res->ok = 1;
        res->begin = pl.exp_begin;
        res->end = pl.exp_end;
        res->duration_s = (double)(pl.exp_end - pl.exp_begin) * 1e-9;
        build_phases(ds, rep, &pl, res);
    }
    free(pl.epochs);
    size_t n_edges = 0;
    int64_t *edges = res->ok ? window_edges(res, &n_edges) : NULL;
    if (!edges) {
        res->ok = 0;
        return;
    }
    read_gpu(ds, gd, rep, edges, n_edges, res);
    /* A bad external header was reported when the tree was opened. */
    char *ext = rep->external_ok ? gp_rep_file(rep, "power-external.csv") : NULL;
    if (ext)
        read_power_file(ds, gd, ext, GP_FILE_EXTERNAL, edges, n_edges, res, GP_SRC_EXTERNAL,
                        gd->external_w_per_unit);
    free(ext);
    if (rep->total_power_samples)
        read_power_file(ds, gd, rep->total_power_samples, GP_FILE_SAMPLES, edges,
                        n_edges, res, GP_SRC_SAMPLES, 1e-3);
    free(edges);
}

void gp_result_free(gp_result *res)
{
    free(res->phases);
    res->phases = NULL;
    res->n_phases = 0;
}
