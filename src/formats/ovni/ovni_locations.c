/* ovni_locations.c — finding the streams of a trace in every layout libovni
 * has written, and reading their JSON metadata into properties.
 *
 * Properties are keyed "<location path>:<key>" (for example
 * "loom.nodeA/proc.6289:rank"), plus dataset-wide keys without a colon. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/dirlist.h"
#include "core/json_file.h"
#include "core/path_name.h"
#include "formats/ovni/ovni.h"

/* Metadata files are a few KiB; anything this large is not metadata. */
#define OVNI_MAX_JSON ((size_t)16 << 20)
/* The emulator indexes a loom's CPUs by logical index: a bound keeps a
 * damaged index from asking for gigabytes. */
#define OVNI_MAX_CPU_INDEX (1 << 20)

typedef struct ovni_thread_entry {
    long long tid;
    char *name;    /* "thread.<tid>" */
    char *stream;  /* stream file path */
    char *json;    /* per-thread JSON (v2, v3) or NULL */
    int version;   /* layout version this entry implies */
} ovni_thread_entry;

/* Parses "<prefix><integer>[suffix]" names; returns 1 and the integer. */
static int parse_numbered(const char *name, const char *prefix, const char *suffix, long long *out)
{
    size_t pl = strlen(prefix), nl = strlen(name), sl = suffix ? strlen(suffix) : 0;
    if (nl <= pl + sl || strncmp(name, prefix, pl))
        return 0;
    if (suffix && strcmp(name + nl - sl, suffix))
        return 0;
    char *end;
    long long v = strtoll(name + pl, &end, 10);
    if (end != name + nl - sl || end == name + pl)
        return 0;
    *out = v;
    return 1;
}

int ovni_looks_like_stream_name(const char *path)
{
    size_t n = strlen(path);
    long long tid;
    return (n > 4 && !strcmp(path + n - 4, ".obs")) || parse_numbered(pw_base_name(path), "thread.", NULL, &tid);
}

int ovni_is_stream_file(const char *path)
{
    char m[4];
    return pw_input_peek(path, m, 4) == 4 && !memcmp(m, "ovni", 4);
}

/* 1 when dir holds at least one "loom.*" directory. */
static int has_looms(const char *dir)
{
    pw_dirlist l;
    if (pw_dirlist_read(dir, &l, NULL) != PW_OK)
        return 0;
    int found = 0;
    for (size_t i = 0; i < l.n && !found; i++)
        found = l.items[i].is_dir && !strncmp(l.items[i].name, "loom.", 5);
    pw_dirlist_free(&l);
    return found;
}

char *ovni_find_root(const char *path)
{
    if (pw_path_is_dir(path) != 1)
        return NULL;
    char *sub = pw_path_join(path, "ovni");
    if (sub && pw_path_is_dir(sub) == 1 && has_looms(sub))
        return sub;
    free(sub);
    return has_looms(path) ? strdup(path) : NULL;
}

/* JSON scalar as property text; objects of scalars as "k v, k v". */
static void json_to_text(json_t *v, char *buf, size_t n)
{
    buf[0] = '\0';
    if (json_is_string(v))
        snprintf(buf, n, "%s", json_string_value(v));
    else if (json_is_integer(v))
        snprintf(buf, n, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        snprintf(buf, n, "%.17g", json_real_value(v));
    else if (json_is_boolean(v))
        snprintf(buf, n, "%s", json_is_true(v) ? "true" : "false");
    else if (json_is_object(v)) {
        const char *k;
        json_t *x;
        size_t used = 0;
        json_object_foreach(v, k, x)
        {
            char item[256];
            json_to_text(x, item, sizeof item);
            used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%s%s %s",
                                     used ? ", " : "", k, item);
            if (used >= n)
                break;
        }
    }
}

/* Copies metadata key `jkey` (dotted) of j into property "<loc>:<pkey>". */
static void prop_from_json(pw_dataset *ds, json_t *j, const char *jkey, const char *loc,
                           const char *pkey)
{
    json_t *v = pw_json_path(j, jkey);
    if (!v)
        return;
    char text[1024], key[1024];
    json_to_text(v, text, sizeof text);
    snprintf(key, sizeof key, "%s%s%s", loc, *loc ? ":" : "", pkey);
    pw_ds_set_prop(ds, key, text, NULL);
}

/* The mark types a thread declares ("ovni.mark": {"<type>": {title,
 * chan_type, labels: {"<value>": label}}}) as properties
 * "<thread>:mark.<type>.title", ".chan_type", ".label.<value>", so that the
 * emulator can name them. */
static void props_from_marks(pw_dataset *ds, json_t *j, const char *loc)
{
    json_t *marks = pw_json_path(j, "ovni.mark");
    const char *type;
    json_t *m;
    if (!json_is_object(marks))
        return;
    json_object_foreach(marks, type, m)
    {
        char key[1024];
        const char *fields[] = {"title", "chan_type"};
        for (size_t i = 0; i < 2; i++) {
            json_t *v = json_object_get(m, fields[i]);
            snprintf(key, sizeof key, "%s:mark.%s.%s", loc, type, fields[i]);
            if (json_is_string(v))
                pw_ds_set_prop(ds, key, json_string_value(v), NULL);
        }
        const char *value;
        json_t *label;
        json_t *labels = json_object_get(m, "labels");
        if (!json_is_object(labels))
            continue;
        json_object_foreach(labels, value, label)
        {
            snprintf(key, sizeof key, "%s:mark.%s.label.%s", loc, type, value);
            if (json_is_string(label))
                pw_ds_set_prop(ds, key, json_string_value(label), NULL);
        }
    }
}

/* The hardware counters a nOS-V thread declares ("nosv.hwc": {"<i>":
 * {"name": ...}}) as properties "<thread>:nosv.hwc.<i>.name". */
static void props_from_counters(pw_dataset *ds, json_t *j, const char *loc)
{
    json_t *hwc = pw_json_path(j, "nosv.hwc");
    const char *index;
    json_t *c;
    if (!json_is_object(hwc))
        return;
    json_object_foreach(hwc, index, c)
    {
        json_t *name = json_object_get(c, "name");
        char key[1024];
        snprintf(key, sizeof key, "%s:nosv.hwc.%s.name", loc, index);
        if (json_is_string(name))
            pw_ds_set_prop(ds, key, json_string_value(name), NULL);
    }
}

/* Appends a loom's CPU list ("index:phyid,...") to its property; v3 merges
 * the lists of several threads by appending (ovni-facts.md §3). */
static void add_loom_cpus(pw_dataset *ds, int32_t loom, json_t *cpus, const char *file)
{
    if (!json_is_array(cpus))
        return;
    char key[1024];
    snprintf(key, sizeof key, "%s:cpus", ds->locs[loom].path);
    const char *old = pw_dataset_prop_get(ds, key);
    size_t cap = (old ? strlen(old) : 0) + json_array_size(cpus) * 24 + 1;
    char *buf = malloc(cap);
    if (!buf)
        return;
    size_t used = (size_t)snprintf(buf, cap, "%s", old ? old : "");
    size_t i;
    json_t *c;
    json_array_foreach(cpus, i, c)
    {
        json_t *index = json_object_get(c, "index"), *phyid = json_object_get(c, "phyid");
        if (!json_is_integer(index) || !json_is_integer(phyid)) {
            pw_ds_diag(ds, PW_SEV_ERROR, "ovni.bad-metadata", file, PW_NO_OFFSET,
                       "CPU entry %zu lacks integer index/phyid", i);
            continue;
        }
        json_int_t ix = json_integer_value(index), ph = json_integer_value(phyid);
        if (ix < 0 || ix > OVNI_MAX_CPU_INDEX || ph < 0 || ph > INT32_MAX) {
            pw_ds_diag(ds, PW_SEV_ERROR, "ovni.bad-metadata", file, PW_NO_OFFSET,
                       "CPU entry %zu: index %lld or phyid %lld out of range (0..%d, 0..%d)", i,
                       (long long)ix, (long long)ph, OVNI_MAX_CPU_INDEX, INT32_MAX);
            continue;
        }
        used += (size_t)snprintf(buf + used, cap - used, "%s%lld:%lld", used ? "," : "",
                                 (long long)ix, (long long)ph);
    }
    pw_ds_set_prop(ds, key, buf, NULL);
    free(buf);
}

/* Loads a JSON file; damage becomes a diagnostic and NULL is returned. */
static json_t *load_metadata(pw_dataset *ds, const char *file)
{
    json_t *j = NULL;
    pw_error e;
    if (pw_json_load_file(file, OVNI_MAX_JSON, &j, &e) != PW_OK) {
        pw_ds_diag_error(ds, PW_SEV_ERROR, "ovni.bad-metadata", &e);
        return NULL;
    }
    if (!json_is_object(j)) {
        pw_ds_diag(ds, PW_SEV_ERROR, "ovni.bad-metadata", file, 0, "a JSON object expected");
        json_decref(j);
        return NULL;
    }
    return j;
}

/* v1/v2 process metadata.json: app_id, rank, nranks, cpus. */
static void read_process_metadata(pw_dataset *ds, int32_t loom, int32_t proc, const char *dir)
{
    char *file = pw_path_join(dir, "metadata.json");
    if (!file)
        return;
    if (pw_path_is_dir(file) < 0) {
        /* Written at process end: a crashed process has none. */
        pw_ds_diag(ds, PW_SEV_WARNING, "ovni.no-metadata", file, PW_NO_OFFSET,
                   "missing: the process did not end cleanly; its streams are still read");
        free(file);
        return;
    }
    json_t *j = load_metadata(ds, file);
    if (j) {
        const char *p = ds->locs[proc].path;
        prop_from_json(ds, j, "version", p, "metadata_version");
        prop_from_json(ds, j, "model_version", p, "model_version");
        prop_from_json(ds, j, "app_id", p, "app_id");
        prop_from_json(ds, j, "rank", p, "rank");
        prop_from_json(ds, j, "nranks", p, "nranks");
        add_loom_cpus(ds, loom, json_object_get(j, "cpus"), file);
        json_decref(j);
    }
    free(file);
}

/* v2 thread.<tid>.json and v3 stream.json. */
static void read_thread_metadata(pw_dataset *ds, int32_t loom, int32_t proc, int32_t thread,
                                 const ovni_thread_entry *t)
{
    json_t *j = load_metadata(ds, t->json);
    if (!j)
        return;
    const char *p = ds->locs[thread].path;
    json_t *version = json_object_get(j, "version");
    if (!json_is_integer(version) || json_integer_value(version) != t->version)
        pw_ds_diag(ds, PW_SEV_ERROR, "ovni.bad-metadata", t->json, PW_NO_OFFSET,
                   "\"version\": %d expected for this layout", t->version);
    prop_from_json(ds, j, "ovni.lib.version", p, "lib.version");
    prop_from_json(ds, j, "ovni.lib.commit", p, "lib.commit");
    prop_from_json(ds, j, "ovni.require", p, "require");
    prop_from_json(ds, j, "ovni.finished", p, "finished");
    props_from_marks(ds, j, p);
    props_from_counters(ds, j, p);
    if (!pw_dataset_prop_get(ds, "lib.version"))
        prop_from_json(ds, j, "ovni.lib.version", "", "lib.version");
    if (t->version == 3) {
        const char *pp = ds->locs[proc].path;
        prop_from_json(ds, j, "ovni.app_id", pp, "app_id");
        prop_from_json(ds, j, "ovni.rank", pp, "rank");
        prop_from_json(ds, j, "ovni.nranks", pp, "nranks");
        add_loom_cpus(ds, loom, pw_json_path(j, "ovni.loom_cpus"), t->json);
        json_t *tid = pw_json_path(j, "ovni.tid");
        if (json_is_integer(tid) && json_integer_value(tid) != t->tid)
            pw_ds_diag(ds, PW_SEV_WARNING, "ovni.tid-mismatch", t->json, PW_NO_OFFSET,
                       "ovni.tid %lld differs from the directory name (%lld)",
                       (long long)json_integer_value(tid), t->tid);
    }
    json_t *finished = pw_json_path(j, "ovni.finished");
    if (!json_is_integer(finished) || json_integer_value(finished) != 1)
        pw_ds_diag(ds, PW_SEV_WARNING, "ovni.unfinished", t->json, PW_NO_OFFSET,
                   "the thread did not finish (no \"ovni.finished\"): it may have crashed and "
                   "its stream may end early");
    json_decref(j);
}

static int thread_cmp(const void *a, const void *b)
{
    long long x = ((const ovni_thread_entry *)a)->tid, y = ((const ovni_thread_entry *)b)->tid;
    return (x > y) - (x < y);
}

/* Recognises one entry of a process directory as a stream (any layout). */
static int thread_from_entry(const char *dir, const pw_dirent *e, ovni_thread_entry *t)
{
    memset(t, 0, sizeof *t);
    char name[300];
    if (e->is_dir && parse_numbered(e->name, "thread.", NULL, &t->tid)) {
        char *sub = pw_path_join(dir, e->name);
        t->stream = sub ? pw_path_join(sub, "stream.obs") : NULL;
        t->json = sub ? pw_path_join(sub, "stream.json") : NULL;
        free(sub);
        t->version = 3;
    } else if (!e->is_dir && parse_numbered(e->name, "thread.", ".obs", &t->tid)) {
        t->stream = pw_path_join(dir, e->name);
        snprintf(name, sizeof name, "thread.%lld.json", t->tid);
        char *json = pw_path_join(dir, name);
        if (json && pw_path_is_dir(json) == 0) {
            t->json = json;
            t->version = 2;
        } else {
            free(json);
            t->version = 1;
        }
    } else if (!e->is_dir && parse_numbered(e->name, "thread.", NULL, &t->tid)) {
        t->stream = pw_path_join(dir, e->name);
        t->version = 0; /* v1 as written by lib 1.0.0: no suffix */
    } else {
        return 0;
    }
    snprintf(name, sizeof name, "thread.%lld", t->tid);
    t->name = strdup(name);
    return 1;
}

static void thread_entries_free(ovni_thread_entry *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(t[i].name);
        free(t[i].stream);
        free(t[i].json);
    }
    free(t);
}

/* Layout code (0 = v1 no suffix, 1 = v1 .obs, 2, 3) seen so far; -1 none. */
typedef struct layout_state {
    int layout;
    uint64_t streams;
} layout_state;

static pw_status open_process(pw_dataset *ds, layout_state *ls, int32_t loom, const char *dir,
                              const char *name, long long pid, pw_error *err)
{
    int32_t proc = pw_ds_add_location(ds, loom, PW_LOC_PROCESS, pid, name, NULL, 0);
    pw_dirlist l;
    if (proc < 0)
        return pw_fail(err, PW_E_NOMEM, dir, PW_NO_OFFSET, "out of memory");
    pw_status s = pw_dirlist_read(dir, &l, err);
    if (s != PW_OK)
        return s;
    ovni_thread_entry *ts = calloc(l.n ? l.n : 1, sizeof *ts);
    size_t nt = 0;
    for (size_t i = 0; ts && i < l.n; i++)
        nt += thread_from_entry(dir, &l.items[i], &ts[nt]);
    pw_dirlist_free(&l);
    if (!ts)
        return pw_fail(err, PW_E_NOMEM, dir, PW_NO_OFFSET, "out of memory");
    qsort(ts, nt, sizeof *ts, thread_cmp);
    int proc_layout = nt ? ts[0].version : -1;
    if (proc_layout >= 0 && proc_layout < 3)
        read_process_metadata(ds, loom, proc, dir);
    for (size_t i = 0; i < nt && s == PW_OK; i++) {
        if (!ts[i].name || !ts[i].stream) {
            s = pw_fail(err, PW_E_NOMEM, dir, PW_NO_OFFSET, "out of memory");
            break;
        }
        if (ls->layout >= 0 && ts[i].version != ls->layout)
            pw_ds_diag(ds, PW_SEV_WARNING, "ovni.mixed-layout", ts[i].stream, PW_NO_OFFSET,
                       "stream layout differs from the rest of the trace");
        if (ts[i].version > ls->layout)
            ls->layout = ts[i].version;
        int32_t th = pw_ds_add_location(ds, proc, PW_LOC_THREAD, ts[i].tid, ts[i].name,
                                        ts[i].stream, 1);
        if (th < 0) {
            s = pw_fail(err, PW_E_NOMEM, dir, PW_NO_OFFSET, "out of memory");
            break;
        }
        ls->streams++;
        if (ts[i].json)
            read_thread_metadata(ds, loom, proc, th, &ts[i]);
    }
    thread_entries_free(ts, nt);
    return s;
}

static pw_status open_loom(pw_dataset *ds, layout_state *ls, const char *dir, const char *name,
                           pw_error *err)
{
    int32_t loom = pw_ds_add_location(ds, -1, PW_LOC_NODE, -1, name, NULL, 0);
    if (loom < 0)
        return pw_fail(err, PW_E_NOMEM, dir, PW_NO_OFFSET, "out of memory");
    pw_dirlist l;
    pw_status s = pw_dirlist_read(dir, &l, err);
    if (s != PW_OK)
        return s;
    /* Processes in pid order, as numbers. */
    ovni_thread_entry *procs = calloc(l.n ? l.n : 1, sizeof *procs);
    size_t np = 0;
    for (size_t i = 0; procs && i < l.n; i++)
        if (l.items[i].is_dir && parse_numbered(l.items[i].name, "proc.", NULL, &procs[np].tid))
            procs[np++].name = strdup(l.items[i].name);
    pw_dirlist_free(&l);
    if (!procs)
        return pw_fail(err, PW_E_NOMEM, dir, PW_NO_OFFSET, "out of memory");
    qsort(procs, np, sizeof *procs, thread_cmp);
    for (size_t i = 0; i < np && s == PW_OK; i++) {
        char *pdir = procs[i].name ? pw_path_join(dir, procs[i].name) : NULL;
        s = pdir ? open_process(ds, ls, loom, pdir, procs[i].name, procs[i].tid, err)
                 : pw_fail(err, PW_E_NOMEM, dir, PW_NO_OFFSET, "out of memory");
        free(pdir);
    }
    thread_entries_free(procs, np);
    if (s == PW_OK && ls->layout >= 0) {
        char key[1024];
        snprintf(key, sizeof key, "%s:cpus", ds->locs[loom].path);
        if (!pw_dataset_prop_get(ds, key))
            pw_ds_diag(ds, PW_SEV_WARNING, "ovni.no-cpus", dir, PW_NO_OFFSET,
                       "no process or thread of this loom lists its CPUs");
    }
    return s;
}

/* A lone stream file: locations from the path when it follows the
 * loom.X/proc.P/thread.T convention, else one location named by the file. */
static pw_status open_single_stream(pw_dataset *ds, layout_state *ls, pw_error *err)
{
    char *copy = strdup(ds->path);
    if (!copy)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    size_t n = strlen(copy);
    int layout = 0;
    if (n > 11 && !strcmp(copy + n - 11, "/stream.obs")) {
        copy[n - 11] = '\0';
        layout = 3;
    } else if (n > 4 && !strcmp(copy + n - 4, ".obs")) {
        copy[n - 4] = '\0';
        layout = 1;
    }
    char *parts[3] = {NULL, NULL, NULL};
    for (int i = 2; i >= 0; i--) {
        char *slash = strrchr(copy, '/');
        parts[i] = slash ? slash + 1 : copy;
        if (!slash)
            break;
        *slash = '\0';
    }
    long long tid = -1, pid = -1;
    int conventional = parts[0] && parts[1] && !strncmp(parts[0], "loom.", 5) &&
                       parse_numbered(parts[1], "proc.", NULL, &pid) &&
                       parse_numbered(parts[2], "thread.", NULL, &tid);
    int32_t parent = -1;
    if (conventional) {
        parent = pw_ds_add_location(ds, -1, PW_LOC_NODE, -1, parts[0], NULL, 0);
        parent = parent < 0 ? -1 : pw_ds_add_location(ds, parent, PW_LOC_PROCESS, pid, parts[1], NULL, 0);
    }
    int32_t th = pw_ds_add_location(ds, parent, PW_LOC_THREAD, tid, conventional ? parts[2] : pw_base_name(ds->path),
                                    ds->path, 1);
    free(copy);
    if (th < 0)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    ls->layout = layout;
    ls->streams = 1;
    return PW_OK;
}

static const char *layout_name(int layout)
{
    switch (layout) {
    case 0: return "v1 (libovni 1.0)";
    case 1: return "v1 .obs (libovni 1.1-1.4)";
    case 2: return "v2 (libovni 1.5-1.10)";
    case 3: return "v3 (libovni 1.11-1.14)";
    }
    return "unknown";
}

/* Dataset-wide properties and the version text after all streams are known. */
static pw_status finish_layout(pw_dataset *ds, const layout_state *ls, pw_error *err)
{
    ovni_dataset *od = ds->impl;
    od->seen_of_loc = calloc(ds->n_locs ? ds->n_locs : 1, sizeof *od->seen_of_loc);
    if (!od->seen_of_loc)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < ds->n_locs; i++) {
        if (!ds->locs[i].file)
            continue;
        pw_input_id_of(ds->locs[i].file, &od->seen_of_loc[i]);
        ds->progress_total += od->seen_of_loc[i].size; /* for progress display */
    }
    od->metadata_version = ls->layout <= 1 ? 1 : ls->layout;
    od->old_letters = ls->layout == 0;
    const char *lib = pw_dataset_prop_get(ds, "lib.version");
    char version[128];
    if (lib)
        snprintf(version, sizeof version, "v%d (libovni %s)", od->metadata_version, lib);
    else
        snprintf(version, sizeof version, "%s", layout_name(ls->layout));
    pw_status s = pw_ds_set_version(ds, version, err);
    if (s == PW_OK)
        s = pw_ds_set_propf(ds, err, "metadata_version", "%d", od->metadata_version);
    if (s == PW_OK)
        s = pw_ds_set_prop(ds, "layout", layout_name(ls->layout), err);
    if (s == PW_OK)
        s = pw_ds_set_propf(ds, err, "streams", "%llu", (unsigned long long)ls->streams);
    return s;
}

pw_status ovni_layout_open(pw_dataset *ds, pw_error *err)
{
    layout_state ls = {-1, 0};
    char *root = ovni_find_root(ds->path);
    pw_status s = PW_OK;
    if (!root) {
        /* A lone file is read as a stream even when its header is damaged:
         * the cursor then reports exactly what is wrong, at which offset. */
        if (pw_path_is_dir(ds->path) != 0)
            return pw_fail(err, PW_E_FORMAT, ds->path, PW_NO_OFFSET,
                           "not an ovni trace: no loom.* directories and no stream file");
        s = open_single_stream(ds, &ls, err);
    } else {
        pw_dirlist l = {NULL, 0};
        s = pw_dirlist_read(root, &l, err);
        for (size_t i = 0; s == PW_OK && i < l.n; i++) {
            if (!l.items[i].is_dir || strncmp(l.items[i].name, "loom.", 5))
                continue;
            char *dir = pw_path_join(root, l.items[i].name);
            s = dir ? open_loom(ds, &ls, dir, l.items[i].name, err)
                    : pw_fail(err, PW_E_NOMEM, root, PW_NO_OFFSET, "out of memory");
            free(dir);
        }
        pw_dirlist_free(&l);
        free(root);
    }
    if (s == PW_OK && ls.streams == 0)
        pw_ds_diag(ds, PW_SEV_WARNING, "ovni.no-streams", ds->path, PW_NO_OFFSET,
                   "the trace has no streams");
    return s == PW_OK ? finish_layout(ds, &ls, err) : s;
}
