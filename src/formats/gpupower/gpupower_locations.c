/* gpupower_locations.c — finding the repetitions of a tree from any level
 * (data root, experiment, benchmark, run or one repetition) and turning
 * each into locations.  Names come from the directory's absolute path, so
 * a repetition reads the same whichever level the user pointed at. */
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/grow.h"
#include "core/dirlist.h"
#include "core/json_file.h"
#include "core/path_name.h"
#include "formats/gpupower/gpupower.h"

/* data root / experiment / benchmark / run / repetition, and one level of
 * slack for a run directory inside `_baseline`. */
#define GP_MAX_DEPTH 5
#define GP_MAX_COMPONENTS 128

const char *const gp_sample_files[GP_SAMPLE_KINDS] = {
    "total_power_samples.csv", "gpu_utilization_samples.csv", "memory_utilization_samples.csv",
    NULL};

/* A file a repetition directory holds (the data model's file list). */
static int is_data_file(const char *name)
{
    return !strcmp(name, "gpu-power.csv") || !strcmp(name, "timestamps.csv") ||
           !strcmp(name, "power-external.csv") || !strcmp(name, "system_info.json") ||
           pw_ends_with(name, "_samples.csv");
}

/* Directories the walk enters: not hidden, and not `_`-prefixed (the
 * original loader skips those) except the `_baseline` idle runs. */
static int walk_enters(const char *name)
{
    return name[0] != '.' && (name[0] != '_' || !strncmp(name, "_baseline", 9));
}

/* Natural order: "2" before "10", so repetitions come out as 0, 1, ... 10. */
static int natural_cmp(const void *a, const void *b)
{
    const char *x = ((const pw_dirent *)a)->name, *y = ((const pw_dirent *)b)->name;
    while (*x && *y) {
        if ((unsigned)(*x - '0') < 10 && (unsigned)(*y - '0') < 10) {
            const char *xs = x, *ys = y;
            while (*xs == '0' && (unsigned)(xs[1] - '0') < 10)
                xs++;
            while (*ys == '0' && (unsigned)(ys[1] - '0') < 10)
                ys++;
            x = xs;
            y = ys;
            while ((unsigned)(*x - '0') < 10)
                x++;
            while ((unsigned)(*y - '0') < 10)
                y++;
            if (x - xs != y - ys)
                return (x - xs) < (y - ys) ? -1 : 1;
            int c = strncmp(xs, ys, (size_t)(x - xs));
            if (c)
                return c;
        } else {
            if (*x != *y)
                return (unsigned char)*x < (unsigned char)*y ? -1 : 1;
            x++;
            y++;
        }
    }
    return (unsigned char)*x - (unsigned char)*y;
}

int gp_layout_probe(const char *path)
{
    char *cur = strdup(path);
    int score = 0;
    for (int depth = 0; cur && depth <= GP_MAX_DEPTH && !score; depth++) {
        pw_dirlist l;
        pw_error e;
        if (pw_dirlist_read(cur, &l, &e) != PW_OK)
            break;
        char *next = NULL;
        for (size_t i = 0; i < l.n; i++) {
            if (!l.items[i].is_dir && (!strcmp(l.items[i].name, "gpu-power.csv") ||
                                       !strcmp(l.items[i].name, "timestamps.csv")))
                score = 80;
            if (!next && l.items[i].is_dir && walk_enters(l.items[i].name))
                next = pw_path_join(cur, l.items[i].name);
        }
        pw_dirlist_free(&l);
        free(cur);
        cur = next;
    }
    free(cur);
    if (!score && pw_path_is_dir(path) == 0)
        score = pw_ends_with(path, "gpu-power.csv") || pw_ends_with(path, "timestamps.csv") ? 80 : 0;
    return score;
}

char *gp_rep_file(const gp_rep *rep, const char *name) { return pw_path_join(rep->dir, name); }

/* The location chain above repetitions, reused while consecutive
 * repetitions share it (the walk is in sorted order). */
typedef struct layout_state {
    pw_dataset *ds;
    gp_dataset *gd;
    const char *names[3];  /* experiment, benchmark, run of the last chain */
    int32_t locs[3];
    int64_t bytes;
} layout_state;

static int ensure_locinfo(gp_dataset *gd, size_t n)
{
    if (n <= gd->cap_locinfo)
        return 0;
    size_t cap = gd->cap_locinfo ? gd->cap_locinfo * 2 : 256;
    while (cap < n)
        cap *= 2;
    gp_locinfo *li = realloc(gd->locinfo, cap * sizeof *li);
    if (!li)
        return -1;
    memset(li + gd->cap_locinfo, 0, (cap - gd->cap_locinfo) * sizeof *li);
    gd->locinfo = li;
    gd->cap_locinfo = cap;
    return 0;
}

/* Adds a location; readable ones also get their gp_locinfo. */
static int32_t add_loc(layout_state *st, int32_t parent, pw_location_kind kind, int64_t id,
                       const char *name, const char *file, gp_file_kind fk, int32_t value)
{
    int32_t l = pw_ds_add_location(st->ds, parent, kind, id, name, file, file != NULL);
    if (l < 0 || ensure_locinfo(st->gd, (size_t)l + 1) != 0)
        return -1;
    st->gd->locinfo[l] = (gp_locinfo){.kind = fk, .value = value};
    if (file) {
        pw_input_id_of(file, &st->gd->locinfo[l].seen);
        st->bytes += (off_t)st->gd->locinfo[l].seen.size;
    }
    return l;
}

/* experiment / benchmark / run locations, shared with the previous rep. */
static int32_t chain_location(layout_state *st, const gp_rep *rep)
{
    const char *names[3] = {rep->experiment, rep->benchmark, rep->run};
    int32_t parent = -1;
    int same = 1;
    for (int i = 0; i < 3; i++) {
        same = same && st->names[i] && !strcmp(st->names[i], names[i]);
        if (!same) {
            st->locs[i] = add_loc(st, parent, PW_LOC_OTHER, -1, names[i], NULL, 0, 0);
            st->names[i] = names[i];
            if (st->locs[i] < 0)
                return -1;
        }
        parent = st->locs[i];
    }
    return parent;
}

/* One location per d{dev}c{ch} column of power-external.csv (its header
 * is read now; a bad header is reported and the meter left out). */
static int add_external(layout_state *st, gp_rep *rep, const char *path)
{
    gp_table *t = malloc(sizeof *t);
    pw_error e;
    if (!t)
        return -1;
    int rc = 0;
    if (gp_table_open(t, st->ds, path, GP_FILE_EXTERNAL, &st->gd->tz, GP_WINDOW_HEADER, &e) != PW_OK) {
        pw_ds_diag_error(st->ds, e.status == PW_E_DATA ? PW_SEV_ERROR : PW_SEV_WARNING,
                         "gpupower.bad-header", &e);
    } else {
        int32_t meter = add_loc(st, rep->loc, PW_LOC_METER, -1, "external", NULL, 0, 0);
        rep->external_ok = 1;
        for (size_t i = 0; meter >= 0 && i < t->n_values; i++) {
            char name[32];
            snprintf(name, sizeof name, "d%dc%d", (int)t->channel_dev[i], (int)t->channel_ch[i]);
            int32_t l = add_loc(st, meter, PW_LOC_METER, (int64_t)i, name, path, GP_FILE_EXTERNAL, (int32_t)i);
            if (l < 0)
                rc = -1;
            else if (!rep->external_channels++)
                rep->external_loc = l;
        }
        rc = meter < 0 ? -1 : rc;
    }
    gp_table_close(t);
    free(t);
    return rc;
}

static int sample_kind(const char *name)
{
    for (int k = 0; k < GP_SAMPLES_OTHER; k++)
        if (!strcmp(name, gp_sample_files[k]))
            return k;
    return GP_SAMPLES_OTHER;
}

/* The repetition's own location and its children, one per file. */
static int add_rep_locations(layout_state *st, gp_rep *rep, const pw_dirlist *files)
{
    int32_t parent = chain_location(st, rep);
    char *end;
    long id = strtol(rep->repetition, &end, 10);
    rep->loc = parent < 0 ? -1
                          : add_loc(st, parent, PW_LOC_OTHER, *end ? -1 : id, rep->repetition, NULL, 0, 0);
    if (rep->loc < 0)
        return -1;
    rep->gpu_loc = rep->phases_loc = rep->samples_loc = rep->external_loc = -1;
    int rc = 0;
    for (size_t i = 0; i < files->n && rc == 0; i++) {
        const char *name = files->items[i].name;
        if (files->items[i].is_dir)
            continue;
        char *path = gp_rep_file(rep, name);
        if (!path)
            return -1;
        if (!strcmp(name, "gpu-power.csv")) {
            rep->gpu_loc = add_loc(st, rep->loc, PW_LOC_GPU, 0, "gpu", path, GP_FILE_GPU, 0);
            rc = rep->gpu_loc < 0;
        } else if (!strcmp(name, "timestamps.csv")) {
            rep->phases_loc = add_loc(st, rep->loc, PW_LOC_OTHER, -1, "phases", path, GP_FILE_TIMESTAMPS, 0);
            rc = rep->phases_loc < 0;
        } else if (!strcmp(name, "power-external.csv")) {
            rc = add_external(st, rep, path);
        } else if (pw_ends_with(name, "_samples.csv")) {
            int k = sample_kind(name);
            char loc_name[256];
            snprintf(loc_name, sizeof loc_name, "%.*s", (int)(strlen(name) - 4), name);
            int32_t l = add_loc(st, rep->loc, PW_LOC_GPU, -1, loc_name, path, GP_FILE_SAMPLES, k);
            rc = l < 0;
            if (k == GP_SAMPLES_TOTAL_POWER) {
                rep->total_power_samples = pw_ds_strdup(st->ds, path);
                rep->samples_loc = l;
            }
        }
        free(path);
    }
    return rc ? -1 : 0;
}

/* Names from the absolute path: the last four components, or around the
 * `_baseline` component for idle runs. */
static int name_rep(pw_dataset *ds, gp_rep *rep, char *abs)
{
    char *comp[GP_MAX_COMPONENTS];
    int n = 0, b = -1;
    char *save = NULL;
    for (char *tok = strtok_r(abs, "/", &save); tok && n < GP_MAX_COMPONENTS;
         tok = strtok_r(NULL, "/", &save))
        comp[n++] = tok;
    for (int i = n - 1; i >= 0 && i >= n - 3; i--)
        if (!strncmp(comp[i], "_baseline", 9))
            b = i;
#define COMP(i) pw_ds_strdup(ds, (i) >= 0 && (i) < n ? comp[i] : "-")
    rep->repetition = COMP(n - 1);
    if (b > 0) {
        rep->baseline = 1;
        rep->experiment = COMP(b - 1);
        rep->benchmark = COMP(b);
        rep->run = COMP(n - 1 > b + 1 ? n - 2 : b);
        char group[PATH_MAX] = "";
        for (int i = 0; i < b; i++) {
            strncat(group, "/", sizeof group - strlen(group) - 1);
            strncat(group, comp[i], sizeof group - strlen(group) - 1);
        }
        rep->baseline_group = pw_ds_strdup(ds, group);
    } else {
        rep->experiment = COMP(n - 4);
        rep->benchmark = COMP(n - 3);
        rep->run = COMP(n - 2);
    }
#undef COMP
    return rep->repetition && rep->experiment && rep->benchmark && rep->run ? 0 : -1;
}

/* Registers the repetition directory `dir`. */
static int add_rep(layout_state *st, const char *dir, pw_dirlist *files)
{
    gp_dataset *gd = st->gd;
    if (!pw_grow((void **)&gd->reps, gd->n_reps, &gd->cap_reps, sizeof *gd->reps))
        return -1;
    gp_rep *rep = &gd->reps[gd->n_reps++];
    memset(rep, 0, sizeof *rep);
    char *abs = realpath(dir, NULL);
    rep->dir = pw_ds_strdup(st->ds, abs ? abs : dir);
    int rc = abs && rep->dir ? name_rep(st->ds, rep, abs) : -1;
    free(abs);
    if (rc == 0) {
        gp_parse_run_name(rep->run, rep);
        rc = add_rep_locations(st, rep, files);
    }
    return rc;
}

static int has_data_file(const pw_dirlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (!l->items[i].is_dir && is_data_file(l->items[i].name))
            return 1;
    return 0;
}

/* Depth-first in natural order; a directory holding data files is a
 * repetition and is not entered further. */
static int walk(layout_state *st, const char *dir, int depth)
{
    pw_dirlist l;
    pw_error e;
    if (pw_dirlist_read(dir, &l, &e) != PW_OK) {
        pw_ds_diag_error(st->ds, PW_SEV_WARNING, "gpupower.unreadable-dir", &e);
        return 0;
    }
    qsort(l.items, l.n, sizeof *l.items, natural_cmp);
    int rc = 0;
    if (has_data_file(&l)) {
        rc = add_rep(st, dir, &l);
    } else if (depth < GP_MAX_DEPTH) {
        for (size_t i = 0; i < l.n && rc == 0; i++) {
            if (!l.items[i].is_dir || !walk_enters(l.items[i].name))
                continue;
            char *sub = pw_path_join(dir, l.items[i].name);
            rc = sub ? walk(st, sub, depth + 1) : -1;
            free(sub);
        }
    }
    pw_dirlist_free(&l);
    return rc;
}

/* With --subtract-baseline on a path below the experiment, the idle runs
 * live above it: walks the `_baseline` directories of up to four
 * ancestors (the repetition's run, benchmark, experiment, data root). */
static int walk_baselines_above(layout_state *st, const char *root)
{
    char *dir = realpath(root, NULL);
    int rc = 0;
    for (int up = 0; dir && up < 4 && rc == 0; up++) {
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir)
            break;
        *slash = '\0';
        pw_dirlist l;
        pw_error e;
        if (pw_dirlist_read(dir, &l, &e) != PW_OK)
            break;
        for (size_t i = 0; i < l.n && rc == 0; i++) {
            if (!l.items[i].is_dir || strncmp(l.items[i].name, "_baseline", 9))
                continue;
            char *sub = pw_path_join(dir, l.items[i].name);
            rc = sub ? walk(st, sub, 1) : -1;
            free(sub);
        }
        pw_dirlist_free(&l);
    }
    free(dir);
    return rc;
}

static int has_baseline(const gp_dataset *gd)
{
    for (size_t i = 0; i < gd->n_reps; i++)
        if (gd->reps[i].baseline)
            return 1;
    return 0;
}

/* system_info.json of one repetition: optional (facts §3.11), and when
 * present it must parse, so every command (not only stats) reports a
 * broken one, of _baseline runs too.  NULL when absent or broken. */
static json_t *load_system_info(pw_dataset *ds, const gp_rep *rep)
{
    char *path = gp_rep_file(rep, "system_info.json");
    json_t *j = NULL;
    pw_error e;
    if (path && pw_path_is_dir(path) == 0) {
        if (pw_json_load_file(path, 1 << 20, &j, &e) != PW_OK) {
            pw_ds_diag_error(ds, PW_SEV_ERROR, "gpupower.bad-system-info", &e);
        } else if (!json_is_object(j)) {
            pw_ds_diag(ds, PW_SEV_ERROR, "gpupower.bad-system-info", path, 0, "a JSON object expected");
            json_decref(j);
            j = NULL;
        }
    }
    free(path);
    return j;
}

/* Checks every system_info.json; dataset properties come from the first
 * good one (facts §3.10). */
static void system_props(pw_dataset *ds, gp_dataset *gd)
{
    static const char *const keys[] = {"device_name", "driver_version", "cuda_version",
                                       "nvml_version", "platform", "machine", "effective_power_limit"};
    int done = 0;
    for (size_t r = 0; r < gd->n_reps; r++) {
        json_t *j = load_system_info(ds, &gd->reps[r]);
        pw_error e;
        if (!j || done) {
            json_decref(j);
            continue;
        }
        done = 1;
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
            json_t *v = json_object_get(j, keys[k]);
            char key[64];
            snprintf(key, sizeof key, "system.%s", keys[k]);
            if (json_is_string(v))
                pw_ds_set_prop(ds, key, json_string_value(v), &e);
            else if (json_is_number(v))
                pw_ds_set_propf(ds, &e, key, "%.17g", json_number_value(v));
        }
        json_decref(j);
    }
}

static void count_props(pw_dataset *ds, const gp_dataset *gd)
{
    size_t reps = 0, base = 0, runs = 0, benches = 0;
    for (size_t i = 0; i < gd->n_reps; i++) {
        const gp_rep *r = &gd->reps[i], *p = i ? &gd->reps[i - 1] : NULL;
        if (r->baseline) {
            base++;
            continue;
        }
        reps++;
        int new_bench = !p || strcmp(p->experiment, r->experiment) || strcmp(p->benchmark, r->benchmark);
        benches += new_bench;
        runs += new_bench || strcmp(p->run, r->run);
    }
    pw_error e;
    pw_ds_set_propf(ds, &e, "benchmarks", "%zu", benches);
    pw_ds_set_propf(ds, &e, "runs", "%zu", runs);
    pw_ds_set_propf(ds, &e, "repetitions", "%zu", reps);
    pw_ds_set_propf(ds, &e, "baseline_repetitions", "%zu", base);
    pw_ds_set_prop(ds, "external_unit", gd->external_unit, &e);
    pw_ds_set_prop(ds, "tz", gd->tz_text, &e);
}

pw_status gp_layout_open(pw_dataset *ds, gp_dataset *gd, pw_error *err)
{
    layout_state st = {.ds = ds, .gd = gd};
    char *root = pw_path_is_dir(ds->path) == 1 ? strdup(ds->path) : NULL;
    if (!root) { /* a file of a repetition: read its directory */
        const char *slash = strrchr(ds->path, '/');
        root = slash ? strndup(ds->path, (size_t)(slash - ds->path)) : strdup(".");
    }
    int rc = root ? walk(&st, root, 0) : -1;
    if (rc == 0 && gd->subtract_baseline && !has_baseline(gd))
        rc = walk_baselines_above(&st, root);
    free(root);
    if (rc != 0)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    if (!gd->n_reps)
        return pw_fail(err, PW_E_FORMAT, ds->path, PW_NO_OFFSET,
                       "no repetition directory (one holding gpu-power.csv, timestamps.csv, ...) "
                       "within %d levels", GP_MAX_DEPTH);
    ds->progress_total = (uint64_t)st.bytes;
    atomic_store(&ds->progress_done, 0); /* header reads above are not progress */
    system_props(ds, gd);
    count_props(ds, gd);
    return pw_ds_set_version(ds, "gpyjoules tree", err);
}
