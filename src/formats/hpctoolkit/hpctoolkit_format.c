/* hpctoolkit_format.c — the HPCToolkit entry of the format registry:
 * finding the database files, telling the generations apart, opening. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"
#include "core/input.h"
#include "formats/hpctoolkit/hpctoolkit.h"

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* 1 when file dir/name starts with `magic`. */
static int has_magic(const char *dir, const char *name, const char *magic)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char buf[16];
    size_t n = strlen(magic);
    return pw_input_peek(path, buf, n) == n && !memcmp(buf, magic, n);
}

/* Present and not a directory (stored plain or compressed): a FIFO or a
 * device counts, so that its reader refuses it by name. */
static int exists(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    return pw_input_stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

/* The database directory: the path itself, or the directory of a file in
 * it (meta.db, experiment.xml, ...).  malloc'd. */
static char *database_dir(const char *path)
{
    if (is_dir(path))
        return strdup(path);
    const char *slash = strrchr(path, '/');
    return slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
}

typedef enum { DB_NONE, DB_RELEASED, DB_PROTOTYPE, DB_OLD_XML } db_kind;

/* strict: meta.db must carry its magic (probing); otherwise its presence
 * is enough, so that a damaged magic is reported by the reader. */
static db_kind classify(const char *dir, int strict)
{
    if (strict ? has_magic(dir, "meta.db", "HPCTOOLKITmeta") : exists(dir, "meta.db"))
        return DB_RELEASED;
    if (!exists(dir, "experiment.xml"))
        return DB_NONE;
    /* a profile.db beside experiment.xml is the prototype's, even damaged */
    if (exists(dir, "profile.db"))
        return DB_PROTOTYPE;
    return DB_OLD_XML;
}

static int hpc_probe(const char *path)
{
    char *dir = database_dir(path);
    if (!dir)
        return 0;
    db_kind k = classify(dir, 1);
    /* The files are there but meta.db's magic is not: weakly ours, so that
     * check says what is wrong with them. */
    int weak = k == DB_NONE && classify(dir, 0) != DB_NONE;
    free(dir);
    return k != DB_NONE ? 100 : weak ? 30 : 0;
}

/* dir/name when it exists (or when required), copied into the dataset. */
static const char *db_file(pw_dataset *ds, const char *dir, const char *name, int required)
{
    if (!required && !exists(dir, name))
        return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return pw_ds_strdup(ds, path);
}

static pw_status read_options(pw_dataset *ds, hpc_dataset *h, pw_error *err)
{
    /* Timelines draw call stacks as frames unless the user asks for the
     * sample instants (--set hpctoolkit.frames=0). */
    const char *v = pw_ds_option(ds, "frames");
    h->frames = v ? strcmp(v, "0") != 0 : pw_run_wants(ds->run, PW_WANT_TIMELINE);
    if ((v = pw_ds_option(ds, "depth"))) {
        char *end;
        long d = strtol(v, &end, 10);
        if (*end || d < 0 || d > 100000)
            return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                           "--depth wants a number of tree levels (0: all), found \"%s\"", v);
        h->depth = (int)d;
    }
    h->metric = pw_ds_option(ds, "metric");
    if ((v = pw_ds_option(ds, "views"))) {
        if (strcmp(v, "summary") && strcmp(v, "all"))
            return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                           "--views wants \"summary\" or \"all\", found \"%s\"", v);
        h->summary_only = !strcmp(v, "summary");
    }
    if ((v = pw_ds_option(ds, "lookup"))) {
        char *end;
        unsigned long c = strtoul(v, &end, 10), p = 0;
        if (*end == ':')
            p = strtoul(end + 1, &end, 10);
        if (*end || end == v || c > UINT32_MAX || p > UINT32_MAX)
            return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                           "--lookup wants CONTEXT[:PROFILE] (numbers), found \"%s\"", v);
        h->has_lookup = 1;
        h->lookup_ctx = (uint32_t)c;
        h->lookup_prof = (uint32_t)p;
    }
    h->threshold = 1.0;
    if ((v = pw_ds_option(ds, "threshold"))) {
        char *end;
        double t = strtod(v, &end);
        if (*end || !(t >= 0 && t <= 100))
            return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                           "--threshold wants a percentage from 0 to 100, found \"%s\"", v);
        h->threshold = t;
    }
    return PW_OK;
}

/* Damage in cct.db or trace.db leaves the profiles readable: it becomes a
 * finding and the part is left out. */
static void optional_part(pw_dataset *ds, hpc_dataset *h, pw_status s, const pw_error *e,
                          int trace)
{
    if (s == PW_OK)
        return;
    pw_ds_diag_error(ds, PW_SEV_ERROR, trace ? "hpctoolkit.bad-trace" : "hpctoolkit.bad-cct", e);
    if (trace) {
        h->n_traces = 0;
        for (uint32_t i = 0; i < h->n_profs; i++)
            h->profs[i].trace = HPC_NONE;
        h->trace_path = NULL;
    } else {
        h->cct_path = NULL;
    }
}

/* The version line names the generation; the old format's own version
 * comes from its experiment.xml. */
static pw_status set_version(pw_dataset *ds, hpc_dataset *h, pw_error *err)
{
    if (h->gen == HPC_RELEASED)
        return pw_ds_set_version(ds, "4.0 (meta.db + profile.db)", err);
    if (h->gen == HPC_PROTOTYPE)
        return pw_ds_set_version(ds, "prototype 4.0 (experiment.xml + big-endian .db 1.0)", err);
    char *v = hpc_xml_version(h->xml_path);
    char text[128];
    snprintf(text, sizeof text, "old XML %s (pre-4.0: experiment.xml + *.metric-db)",
             v ? v : "?");
    free(v);
    return pw_ds_set_version(ds, text, err);
}

static pw_status set_props(pw_dataset *ds, hpc_dataset *h, pw_error *err)
{
    uint64_t samples = 0;
    for (uint32_t i = 0; i < h->n_traces; i++)
        samples += hpc_trace_samples(&h->traces[i]);
    pw_status s = set_version(ds, h, err);
    if (!s)
        s = pw_ds_set_propf(ds, err, "contexts", "%u", h->n_contexts);
    if (!s)
        s = pw_ds_set_propf(ds, err, "procedures", "%u", h->n_procs);
    if (!s)
        s = pw_ds_set_propf(ds, err, "metric ids", "%u", h->n_metrics);
    if (!s)
        s = pw_ds_set_propf(ds, err, "profiles", "%u", h->n_profs);
    if (!s)
        s = pw_ds_set_propf(ds, err, "traces", "%u", h->n_traces);
    if (!s)
        s = pw_ds_set_propf(ds, err, "trace samples", "%llu", (unsigned long long)samples);
    if (!s && h->has_trace_range)
        s = pw_ds_set_propf(ds, err, "trace time range (ns)", "%llu .. %llu",
                            (unsigned long long)h->trace_min, (unsigned long long)h->trace_max);
    return s;
}

static pw_status open_parts(pw_dataset *ds, hpc_dataset *h, const char *dir, pw_error *err)
{
    pw_status s = h->gen == HPC_RELEASED ? hpc_meta_read(ds, h, err) : hpc_xml_read(ds, h, err);
    if (s == PW_OK)
        s = hpc_views_build(ds, h, err);
    if (s == PW_OK)
        s = h->gen == HPC_OLD_XML ? hpc_metricdb_read(ds, h, dir, err)
                                  : hpc_profiles_read(ds, h, err);
    if (s != PW_OK)
        return s;
    pw_error e;
    if (h->cct_path)
        optional_part(ds, h, hpc_cct_read_header(ds, h, &e), &e, 0);
    optional_part(ds, h, hpc_traces_read(ds, h, &e), &e, 1);
    if ((s = hpc_locations_build(ds, h, err)) == PW_OK && (s = hpc_schemas_build(ds, err)) == PW_OK)
        s = set_props(ds, h, err);
    ds->untimed = h->n_traces == 0; /* contexts and values only */
    return s;
}

static pw_status hpc_open(pw_dataset *ds, pw_error *err)
{
    hpc_dataset *h = calloc(1, sizeof *h);
    char *dir = database_dir(ds->path);
    if (!h || !dir) {
        free(h);
        free(dir);
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    ds->impl = h;
    h->progress = &ds->progress_done;
    pw_status s = read_options(ds, h, err);
    db_kind k = classify(dir, 0);
    if (s == PW_OK && k == DB_NONE)
        s = pw_fail(err, PW_E_FORMAT, ds->path, PW_NO_OFFSET,
                    "no meta.db or experiment.xml found");
    if (s == PW_OK) {
        h->gen = k == DB_RELEASED ? HPC_RELEASED : k == DB_PROTOTYPE ? HPC_PROTOTYPE : HPC_OLD_XML;
        h->big = h->gen != HPC_RELEASED;
        h->meta_path = h->gen == HPC_RELEASED ? db_file(ds, dir, "meta.db", 1) : NULL;
        h->xml_path = h->gen != HPC_RELEASED ? db_file(ds, dir, "experiment.xml", 1) : NULL;
        if (h->gen != HPC_OLD_XML) {
            h->profile_path = db_file(ds, dir, "profile.db", 1);
            h->cct_path = db_file(ds, dir, "cct.db", 0);
            h->trace_path = db_file(ds, dir, "trace.db", 0);
        }
        s = open_parts(ds, h, dir, err);
    }
    free(dir);
    if (s == PW_OK) { /* what cursors compare with, so a file cut meanwhile is an I/O error */
        for (uint32_t i = 0; i < h->n_profs; i++)
            if (i && h->profs[i].path == h->profs[i - 1].path)
                h->profs[i].seen = h->profs[i - 1].seen;
            else
                pw_input_id_of(h->profs[i].path, &h->profs[i].seen);
        if (h->trace_path)
            pw_input_id_of(h->trace_path, &h->seen_trace);
    }
    if (s == PW_OK) {
        struct stat st;
        if (h->profile_path && pw_input_stat(h->profile_path, &st) == 0)
            ds->progress_total += (uint64_t)st.st_size;
        if (h->trace_path && pw_input_stat(h->trace_path, &st) == 0)
            ds->progress_total += (uint64_t)st.st_size;
    }
    return s;
}

static void hpc_close(pw_dataset *ds)
{
    hpc_dataset *h = ds->impl;
    if (!h)
        return;
    free(h->ctx);
    free(h->procs);
    free(h->metrics);
    free(h);
    ds->impl = NULL;
}

static const pw_format_option hpc_options[] = {
    {"frames", "frames", NULL,
     "HPCToolkit traces as enter/leave records of CCT frames instead of samples "
     "(convert's default; 0: samples)"},
    {"depth", "depth", "N", "HPCToolkit top-down tree: show N levels (default: all)"},
    {"threshold", "threshold", "PCT",
     "HPCToolkit top-down tree: hide contexts below PCT % of the total (default 1)"},
    {"views", "views", "summary|all",
     "HPCToolkit stats: only the summary profile's views, or also per-profile and trace views"},
    {"lookup", "lookup", "CTX[:PROFILE]",
     "HPCToolkit stats: only the values of one context in one profile (binary search)"},
    {"metric", "metric", "NAME",
     "HPCToolkit stats: the metric the views sort and prune by (default: the first with a "
     "non-zero total, time metrics first)"},
    {NULL, NULL, NULL, NULL},
};

const pw_format_ops pw_format_hpctoolkit = {
    .name = "hpctoolkit",
    .description = "HPCToolkit databases (released 4.0 meta.db/profile.db/cct.db/trace.db; "
                   "2021-22 prototype experiment.xml + .db; old experiment.xml 2.x + metric-db)",
    .probe = hpc_probe,
    .open = hpc_open,
    .cursor_open = hpc_cursor_open,
    .stats = hpc_stats,
    .stats_part = hpc_stats_part,
    .stats_join = hpc_stats_join,
    .check = hpc_check,
    .close = hpc_close,
    .options = hpc_options,
    .tables = hpc_table_decls,
};
