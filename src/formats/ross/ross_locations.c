/* ross_locations.c — finding the files of one ROSS run and walking them once
 * to learn their PEs, KPs and LPs and where each PE's records lie.
 *
 * A path is one file `<prefix>-<suffix>.bin`, or the stats directory, whose
 * files of one prefix form the dataset (ross-facts.md §1).  The walk checks
 * every record header; damage becomes a diagnostic and reading resumes at
 * the next offset where two records in a row make sense. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/dirlist.h"
#include "core/path_name.h"
#include "formats/ross/ross.h"

static const char *const ross_suffixes[ROSS_N_FILE_KINDS] = {
    "-gvt.bin", "-rt.bin", "-analysis-lps.bin", "-evtrace.bin", "-model.bin"};
/* Location names of the files: the suffix without '-' and ".bin". */
static const char *const ross_file_names[ROSS_N_FILE_KINDS] = {"gvt", "rt", "analysis-lps",
                                                               "evtrace", "model"};

/* The kind a file name's suffix says, or -1; *prefix_len gets the prefix. */
static int kind_of_name(const char *name, size_t *prefix_len)
{
    size_t n = strlen(name);
    for (int k = 0; k < ROSS_N_FILE_KINDS; k++) {
        size_t sl = strlen(ross_suffixes[k]);
        if (n > sl && !strcmp(name + n - sl, ross_suffixes[k])) {
            *prefix_len = n - sl;
            return k;
        }
    }
    return -1;
}

/* How many run prefixes the ROSS files in a (sorted) listing have; *first
 * gets the first ROSS file. */
static size_t count_prefixes(const pw_dirlist *l, size_t *first)
{
    size_t n = 0, plen = 0, pl;
    const char *prev = NULL;
    for (size_t i = 0; i < l->n; i++) {
        if (l->items[i].is_dir || kind_of_name(l->items[i].name, &pl) < 0)
            continue;
        if (prev && pl == plen && !strncmp(prev, l->items[i].name, pl))
            continue;
        if (!prev)
            *first = i;
        n++;
        prev = l->items[i].name;
        plen = pl;
    }
    return n;
}

int ross_probe_path(const char *path)
{
    size_t pl;
    int d = pw_path_is_dir(path);
    if (d == 0)
        return kind_of_name(pw_base_name(path), &pl) >= 0 ? 80 : 0;
    if (d != 1)
        return 0;
    pw_dirlist l;
    if (pw_dirlist_read(path, &l, NULL) != PW_OK)
        return 0;
    size_t first = 0;
    int score = count_prefixes(&l, &first) > 0 ? 70 : 0;
    pw_dirlist_free(&l);
    return score;
}

static pw_status add_file(pw_dataset *ds, ross_dataset *rd, const char *path, int kind,
                          pw_error *err)
{
    ross_file *f = &rd->files[rd->n_files];
    f->path = pw_ds_strdup(ds, path);
    f->kind = (ross_file_kind)kind;
    f->loc = pw_ds_add_location(ds, -1, PW_LOC_OTHER, -1, ross_file_names[kind], path, 0);
    if (!f->path || f->loc < 0)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    rd->n_files++;
    return PW_OK;
}

/* The files of the one run in directory `dir`, in suffix order. */
static pw_status find_dir_files(pw_dataset *ds, ross_dataset *rd, pw_error *err)
{
    pw_dirlist l;
    pw_status st = pw_dirlist_read(ds->path, &l, err);
    if (st != PW_OK)
        return st;
    size_t first = 0, pl = 0;
    size_t n = count_prefixes(&l, &first);
    if (n != 1) {
        pw_dirlist_free(&l);
        return pw_fail(err, n ? PW_E_USAGE : PW_E_FORMAT, ds->path, PW_NO_OFFSET,
                       n ? "%zu ROSS runs (file prefixes) in this directory: give one of their "
                           "files"
                         : "no ROSS file (<prefix>-gvt.bin, -rt.bin, -analysis-lps.bin, "
                           "-evtrace.bin, -model.bin) in this directory",
                       n);
    }
    kind_of_name(l.items[first].name, &pl);
    char *prefix = strndup(l.items[first].name, pl);
    for (int k = 0; k < ROSS_N_FILE_KINDS && st == PW_OK && prefix; k++) {
        char name[4096];
        snprintf(name, sizeof name, "%s%s", prefix, ross_suffixes[k]);
        for (size_t i = 0; i < l.n && st == PW_OK; i++) {
            if (l.items[i].is_dir || strcmp(l.items[i].name, name))
                continue;
            char *path = pw_path_join(ds->path, name);
            st = path ? add_file(ds, rd, path, k, err)
                      : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
            free(path);
        }
    }
    if (st == PW_OK)
        st = pw_ds_set_prop(ds, "prefix", prefix ? prefix : "", err);
    free(prefix);
    pw_dirlist_free(&l);
    return st;
}

static pw_status find_files(pw_dataset *ds, ross_dataset *rd, pw_error *err)
{
    if (pw_path_is_dir(ds->path) == 1)
        return find_dir_files(ds, rd, err);
    size_t pl;
    int kind = kind_of_name(pw_base_name(ds->path), &pl);
    if (kind < 0)
        return pw_fail(err, PW_E_FORMAT, ds->path, PW_NO_OFFSET,
                       "a ROSS file name ends in -gvt.bin, -rt.bin, -analysis-lps.bin, "
                       "-evtrace.bin or -model.bin; this one does not say which it is");
    char prefix[4096];
    snprintf(prefix, sizeof prefix, "%.*s", (int)pl, pw_base_name(ds->path));
    pw_status st = pw_ds_set_prop(ds, "prefix", prefix, err);
    return st == PW_OK ? add_file(ds, rd, ds->path, kind, err) : st;
}

/* The location (parent, id) names, created on first sight. */
static int32_t location_for(pw_dataset *ds, ross_dataset *rd, int32_t parent, pw_location_kind kind,
                            const char *prefix, uint64_t id)
{
    int32_t key_parent = parent < 0 ? ROSS_PARENT_PE : parent;
    int32_t loc = ross_idcache_get(&rd->walk.cache, &rd->ids, key_parent, id);
    if (loc >= 0)
        return loc;
    char name[32];
    snprintf(name, sizeof name, "%s%llu", prefix, (unsigned long long)id);
    loc = pw_ds_add_location(ds, parent, kind, (int64_t)id, name, NULL, 0);
    if (loc < 0 || ross_idmap_put(&rd->ids, key_parent, id, loc) < 0)
        return -1;
    if (kind == PW_LOC_LP && ross_idmap_get(&rd->ids, ROSS_PARENT_ANY_LP, id) < 0 &&
        ross_idmap_put(&rd->ids, ROSS_PARENT_ANY_LP, id, loc) < 0)
        return -1;
    return loc;
}

/* The LP location of lpid under kp, through the dense table of the walk
 * (LP ids are global and dense in ROSS), creating it on first sight. */
static int32_t lp_location(pw_dataset *ds, ross_dataset *rd, int32_t kp, uint64_t lpid)
{
    ross_walk *wk = &rd->walk;
    if (lpid < wk->n_lp && wk->lp[lpid].parent == kp)
        return wk->lp[lpid].loc;
    int32_t loc = location_for(ds, rd, kp, PW_LOC_LP, "lp", lpid);
    if (loc < 0 || lpid >= ROSS_WALK_MAX_LP)
        return loc;
    if (lpid >= wk->n_lp) {
        size_t n = wk->n_lp ? wk->n_lp : 1024;
        while (n <= lpid)
            n *= 2;
        ross_walk_lp *p = realloc(wk->lp, n * sizeof *p);
        if (!p)
            return -1;
        /* All bits set is {-1, -1}: no LP seen (one memset, not a loop
         * per entry, as the table may reach millions of entries). */
        memset(p + wk->n_lp, 0xff, (n - wk->n_lp) * sizeof *p);
        wk->lp = p;
        wk->n_lp = n;
    }
    wk->lp[lpid] = (ross_walk_lp){kp, loc};
    return loc;
}

/* The PE, KP and LP locations a record names; the last PE and KP are
 * remembered, since records come in runs of one PE and KP. */
static int note_ids(pw_dataset *ds, ross_dataset *rd, const ross_hdr *h)
{
    ross_walk *wk = &rd->walk;
    if (wk->pe < 0 || wk->peid != h->peid) {
        wk->pe = location_for(ds, rd, -1, PW_LOC_PE, "pe", h->peid);
        wk->peid = h->peid;
        wk->kp = -1;
    }
    if (wk->pe < 0 || h->rec == ROSS_REC_PE || h->rec == ROSS_REC_VT_PE)
        return wk->pe < 0 ? -1 : 0;
    if (wk->kp < 0 || wk->kpid != h->kpid) {
        wk->kp = location_for(ds, rd, wk->pe, PW_LOC_KP, "kp", h->kpid);
        wk->kpid = h->kpid;
    }
    if (wk->kp < 0 || h->rec == ROSS_REC_KP || h->rec == ROSS_REC_VT_KP)
        return wk->kp < 0 ? -1 : 0;
    return lp_location(ds, rd, wk->kp, h->lpid) < 0 ? -1 : 0;
}

static ross_stream_def *new_stream(ross_dataset *rd, int file, int64_t peid, int32_t loc)
{
    if (!pw_grow((void **)&rd->streams, rd->n_streams, &rd->cap_streams, sizeof *rd->streams))
        return NULL;
    ross_stream_def *d = &rd->streams[rd->n_streams++];
    *d = (ross_stream_def){.loc = loc, .file = file, .peid = peid};
    return d;
}

/* The stream of (file, PE), created on first sight: "<file>/pe<i>".  The
 * id map keys streams by the file's location; their value is the stream. */
static ross_stream_def *stream_for(pw_dataset *ds, ross_dataset *rd, int file, uint64_t peid)
{
    const ross_file *f = &rd->files[file];
    int32_t s = ross_idcache_get(&rd->walk.cache, &rd->ids, f->loc, peid);
    if (s >= 0)
        return &rd->streams[s];
    char name[32];
    snprintf(name, sizeof name, "pe%llu", (unsigned long long)peid);
    int32_t loc = pw_ds_add_location(ds, f->loc, PW_LOC_OTHER, (int64_t)peid, name, f->path, 1);
    if (loc < 0 || ross_idmap_put(&rd->ids, f->loc, peid, (int32_t)rd->n_streams) < 0)
        return NULL;
    return new_stream(rd, file, (int64_t)peid, loc);
}

/* Extends the PE's last run, or starts a new one after a gap. */
static int add_run(ross_stream_def *s, uint64_t off, uint64_t end)
{
    if (s->n_runs && s->runs[s->n_runs - 1].end == off) {
        s->runs[s->n_runs - 1].end = end;
        return 0;
    }
    if (!pw_grow((void **)&s->runs, s->n_runs, &s->cap_runs, sizeof *s->runs))
        return -1;
    s->runs[s->n_runs++] = (ross_run){off, end};
    return 0;
}

static void note_time(ross_file *f, double ts)
{
    if (!isfinite(ts) || ts >= ROSS_FINAL_TS)
        return;
    if (!f->has_ts || ts < f->ts_min)
        f->ts_min = ts;
    if (!f->has_ts || ts > f->ts_max)
        f->ts_max = ts;
    f->has_ts = 1;
}

static pw_status note_record(pw_dataset *ds, ross_dataset *rd, int file, const ross_hdr *h,
                             uint64_t off, pw_error *err)
{
    /* A run continues while the PE stays the same (the common case). */
    ross_walk *wk = &rd->walk;
    ross_stream_def *s = wk->stream >= 0 ? &rd->streams[wk->stream] : NULL;
    if (!s || s->file != file || (uint64_t)s->peid != h->peid) {
        s = stream_for(ds, rd, file, h->peid);
        wk->stream = s ? s - rd->streams : -1;
    }
    if (!s || note_ids(ds, rd, h) < 0 || add_run(s, off, off + h->size) < 0)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    note_time(&rd->files[file], h->ts);
    if (h->rec == ROSS_REC_LP || h->rec == ROSS_REC_VT_LP)
        rd->lp_seen[h->size == ROSS_SAMPLE_HDR + ROSS_LP_BODY ? 0 : 1] = 1;
    return PW_OK;
}

/* 1 when a record starts at off and the next one also does (or the file
 * ends right after it): what damaged bytes rarely imitate. */
static int plausible_at(pw_window *w, ross_file_kind kind, int lp_forced, uint64_t off)
{
    size_t size;
    if (!ross_record_fits(w, kind, lp_forced, off, &size))
        return 0;
    uint64_t next = off + size;
    return pw_window_left(w, next) == 0 || ross_record_fits(w, kind, lp_forced, next, &size);
}

/* After damage at `bad`: the next plausible record offset, or the file
 * size when there is none. */
static uint64_t resync(pw_window *w, ross_file_kind kind, int lp_forced, uint64_t bad)
{
    for (uint64_t off = bad + 1; off < w->file_size; off++)
        if (plausible_at(w, kind, lp_forced, off))
            return off;
    return w->file_size;
}

/* Reports damage and finds where reading can go on. */
static uint64_t skip_damage(pw_dataset *ds, ross_dataset *rd, pw_window *w, ross_file_kind kind,
                            uint64_t off, const char *code, const pw_error *e)
{
    pw_ds_diag_error(ds, PW_SEV_ERROR, code, e);
    uint64_t next = resync(w, kind, rd->lp_forced, off);
    rd->resyncs++;
    if (next < w->file_size)
        pw_ds_diag(ds, PW_SEV_WARNING, "ross.resync", w->path, (int64_t)next,
                   "%llu damaged bytes skipped; reading goes on at this offset",
                   (unsigned long long)(next - off));
    return next;
}

/* Walks one headered file: every record's PE, KP, LP and place. */
static pw_status walk_file(pw_dataset *ds, ross_dataset *rd, int file, pw_error *err)
{
    ross_file *f = &rd->files[file];
    pw_window w;
    pw_status st = pw_window_open(&w, f->path, PW_WINDOW_DEFAULT_CAP, ROSS_MAX_PAYLOAD + 64, err);
    if (st != PW_OK)
        return st;
    f->size = w.file_size;
    f->seen = w.in.id;
    uint64_t off = 0;
    for (;;) {
        ross_hdr h;
        const char *code = NULL;
        pw_error e;
        st = ross_record_at(&w, f->kind, rd->lp_forced, off, &h, &code, &e);
        if (st == PW_END) {
            st = PW_OK;
            break;
        }
        if (st == PW_E_DATA) {
            off = skip_damage(ds, rd, &w, f->kind, off, code, &e);
            continue;
        }
        if (st == PW_OK)
            st = note_record(ds, rd, file, &h, off, &e);
        if (st != PW_OK) {
            *err = e;
            break;
        }
        off += h.size;
    }
    pw_window_close(&w);
    return st;
}

/* The event trace is not walked (it names no PE): one stream, whole file. */
static pw_status add_event_stream(pw_dataset *ds, ross_dataset *rd, int file, pw_error *err)
{
    ross_file *f = &rd->files[file];
    pw_window w;
    pw_status st = pw_window_open(&w, f->path, 1, 1, err);
    if (st != PW_OK)
        return st;
    f->size = w.file_size;
    f->seen = w.in.id;
    pw_window_close(&w);
    ds->locs[f->loc].has_records = 1;
    if (!new_stream(rd, file, -1, f->loc))
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}

static pw_status describe(pw_dataset *ds, ross_dataset *rd, pw_error *err)
{
    const char *lp = rd->lp_forced == 36 || (!rd->lp_forced && rd->lp_seen[1] && !rd->lp_seen[0])
                         ? "36-byte LP samples (ROSS before Dec 2023)"
                     : rd->lp_seen[0] || rd->lp_forced == 48
                         ? "48-byte LP samples (ROSS since Dec 2023)"
                         : "no LP samples";
    if (rd->lp_seen[0] && rd->lp_seen[1])
        pw_ds_diag(ds, PW_SEV_WARNING, "ross.mixed-lp-layouts", ds->path, PW_NO_OFFSET,
                   "both 48-byte and 36-byte LP samples: files of two ROSS versions?");
    char version[160];
    snprintf(version, sizeof version, "ROSS instrumentation, %s", lp);
    pw_status st = pw_ds_set_version(ds, version, err);
    uint64_t total = 0;
    for (int i = 0; i < rd->n_files && st == PW_OK; i++) {
        total += rd->files[i].size;
        char key[64];
        snprintf(key, sizeof key, "file.%s", ross_file_names[rd->files[i].kind]);
        st = pw_ds_set_propf(ds, err, key, "%s (%llu bytes)", rd->files[i].path,
                             (unsigned long long)rd->files[i].size);
    }
    ds->progress_total = total;
    if (st == PW_OK)
        st = pw_ds_set_prop(ds, "uninitialised",
                            "LP s_process_event and tail padding, analysis-lps model "
                            "real_time: not read; model payloads of models that write none "
                            "(PHOLD) are garbage bytes",
                            err);
    return st;
}

/* Maps every location to its stream (or -1). */
static pw_status index_streams(pw_dataset *ds, ross_dataset *rd, pw_error *err)
{
    rd->stream_of_loc = malloc((ds->n_locs ? ds->n_locs : 1) * sizeof *rd->stream_of_loc);
    if (!rd->stream_of_loc)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < ds->n_locs; i++)
        rd->stream_of_loc[i] = -1;
    for (size_t s = 0; s < rd->n_streams; s++)
        rd->stream_of_loc[rd->streams[s].loc] = (int32_t)s;
    return PW_OK;
}

static void walk_free(ross_walk *wk)
{
    ross_idcache_free(&wk->cache);
    free(wk->lp);
    wk->lp = NULL;
    wk->n_lp = 0;
}

pw_status ross_layout_open(pw_dataset *ds, ross_dataset *rd, pw_error *err)
{
    rd->walk = (ross_walk){.stream = -1, .pe = -1, .kp = -1};
    if (ross_idmap_init(&rd->ids) < 0 || ross_idcache_init(&rd->walk.cache, 4096) < 0)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    pw_status st = find_files(ds, rd, err);
    for (int i = 0; i < rd->n_files && st == PW_OK; i++)
        st = rd->files[i].kind == ROSS_FILE_EVTRACE ? add_event_stream(ds, rd, i, err)
                                                    : walk_file(ds, rd, i, err);
    if (st == PW_OK)
        st = describe(ds, rd, err);
    if (st == PW_OK)
        st = index_streams(ds, rd, err);
    walk_free(&rd->walk);
    return st;
}

void ross_layout_free(ross_dataset *rd)
{
    for (size_t i = 0; i < rd->n_streams; i++)
        free(rd->streams[i].runs);
    free(rd->streams);
    free(rd->stream_of_loc);
    ross_idmap_free(&rd->ids);
    walk_free(&rd->walk);
}
