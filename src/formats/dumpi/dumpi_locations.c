/* dumpi_locations.c — which files make a trace (the `.meta`, the directory,
 * or one `.bin`), the `.meta` keys as properties, and the rank and thread
 * locations.  Rank files are read in parallel (one per worker); under
 * pw_open_share every header is read but only the share's record streams
 * are walked, and the locations wait for the other shares' threads
 * (dumpi_share.c). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/bytes.h"
#include "core/dirlist.h"
#include "core/error.h"
#include "core/input.h"
#include "core/parallel.h"
#include "core/path_name.h"
#include "formats/dumpi/dumpi_profile.h"

/* The .meta file is a few hundred bytes; anything large is not one. */
#define DUMPI_MAX_META 65536

static int starts_with_magic(const char *path)
{
    uint8_t m[8];
    return pw_input_peek(path, m, 8) == 8 && pw_be64(m) == DUMPI_MAGIC;
}

/* The .meta file in dir (the first by name), or NULL (malloc'd). */
static char *find_meta(const char *dir)
{
    pw_dirlist l;
    if (pw_dirlist_read(dir, &l, NULL) != PW_OK)
        return NULL;
    char *meta = NULL;
    for (size_t i = 0; i < l.n && !meta; i++)
        if (!l.items[i].is_dir && pw_ends_with(l.items[i].name, ".meta"))
            meta = pw_path_join(dir, l.items[i].name);
    pw_dirlist_free(&l);
    return meta;
}

static int rank_of_name(const char *path, int fallback);

/* A "<prefix>-NNNN.bin" with a .meta in its directory is a rank file even
 * when its magic is damaged, so that check can report the damage. */
static int rank_file_beside_meta(const char *path)
{
    if (rank_of_name(path, -1) < 0)
        return 0;
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
    char *meta = dir ? find_meta(dir) : NULL;
    int found = meta != NULL;
    free(dir);
    free(meta);
    return found;
}

int dumpi_probe_path(const char *path)
{
    int dir = pw_path_is_dir(path);
    if (dir == 1) {
        char *meta = find_meta(path);
        free(meta);
        return meta ? 90 : 0;
    }
    if (dir != 0)
        return 0;
    if (pw_ends_with(path, ".meta")) {
        char buf[512] = {0};
        size_t n = pw_input_peek(path, buf, sizeof buf - 1);
        return n && strstr(buf, "numprocs=") ? 95 : 0;
    }
    if (starts_with_magic(path))
        return 100;
    return rank_file_beside_meta(path) ? 40 : 0;
}

/* The rank number of "<prefix>-NNNN.bin", or `fallback`. */
static int rank_of_name(const char *path, int fallback)
{
    size_t n = strlen(path);
    if (n < 9 || !pw_ends_with(path, ".bin"))
        return fallback;
    const char *p = path + n - 4;
    const char *q = p;
    while (q > path && q[-1] >= '0' && q[-1] <= '9')
        q--;
    if (q == p || q == path || q[-1] != '-' || p - q > 7)
        return fallback; /* not "-NNNN", or a rank beyond any real run */
    return atoi(q);
}

static pw_status add_rank(dumpi_dataset *dd, const char *file, int rank, pw_error *err)
{
    dumpi_rank *grown = realloc(dd->ranks, (dd->n_ranks + 1) * sizeof *grown);
    if (!grown)
        return pw_fail(err, PW_E_NOMEM, file, PW_NO_OFFSET, "out of memory");
    dd->ranks = grown;
    dumpi_rank *r = &dd->ranks[dd->n_ranks];
    memset(r, 0, sizeof *r);
    r->rank = rank;
    r->file = strdup(file);
    if (!r->file)
        return pw_fail(err, PW_E_NOMEM, file, PW_NO_OFFSET, "out of memory");
    dd->n_ranks++;
    return PW_OK;
}

/* key=value lines become properties; fileprefix and numprocs name the
 * rank files "<dir>/<fileprefix>-%04d.bin". */
static pw_status read_meta(pw_dataset *ds, dumpi_dataset *dd, const char *meta, pw_error *err)
{
    char *text = NULL;
    size_t text_len = 0;
    pw_status st = pw_input_read_all(meta, DUMPI_MAX_META, &text, &text_len, err);
    if (st != PW_OK)
        return st;
    char prefix[512] = "";
    long numprocs = -1;
    char *next = text;
    while (st == PW_OK && next) {
        char *line = next;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line[strcspn(line, "\r")] = '\0';
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        *eq = '\0';
        if (!strcmp(line, "fileprefix"))
            snprintf(prefix, sizeof prefix, "%s", eq + 1);
        else if (!strcmp(line, "numprocs"))
            numprocs = strtol(eq + 1, NULL, 10);
        st = pw_ds_set_propf(ds, err, line, "%s", eq + 1);
    }
    free(text);
    if (st != PW_OK)
        return st;
    if (!prefix[0] || numprocs < 1 || numprocs > 10000000)
        return pw_fail(err, PW_E_DATA, meta, PW_NO_OFFSET,
                       "fileprefix= and numprocs= (at least 1) expected in the .meta file");
    char *slash = strrchr(meta, '/');
    int dir_len = slash ? (int)(slash - meta) : 1;
    const char *dir = slash ? meta : ".";
    for (long i = 0; i < numprocs && st == PW_OK; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%.*s/%s-%04ld.bin", dir_len, dir, prefix, i);
        /* Only an absent file is missing: one that cannot be read is added,
         * and its reader reports why (permission denied, a FIFO). */
        struct stat sb;
        if (pw_input_stat(path, &sb) == 0 || errno != ENOENT) {
            st = add_rank(dd, path, (int)i, err);
        } else {
            pw_ds_diag(ds, PW_SEV_ERROR, "dumpi.missing-rank", path, PW_NO_OFFSET,
                       "rank %ld of %ld: the file is missing", i, numprocs);
        }
    }
    return st;
}

static void read_rank_job(void *ctx, size_t i, int worker)
{
    (void)worker;
    pw_dataset *ds = ctx;
    dumpi_dataset *dd = ds->impl;
    dumpi_rankfile_read(ds, &dd->ranks[i]);
    dumpi_scan_rank(ds, dd, i);
}

static void read_header_job(void *ctx, size_t i, int worker)
{
    (void)worker;
    pw_dataset *ds = ctx;
    dumpi_rankfile_read(ds, &((dumpi_dataset *)ds->impl)->ranks[i]);
}

static void scan_share_job(void *ctx, size_t i, int worker)
{
    (void)worker;
    pw_dataset *ds = ctx;
    dumpi_dataset *dd = ds->impl;
    dumpi_scan_rank(ds, dd, dd->scan_first + i);
}

/* The rank slots of the open's share: the ranks (each one record
 * location) cut by their files' bytes as pw_dataset_set_share cuts them;
 * 0 (every slot then walked, as a whole open does) when a rank cannot be
 * read, whose location has no records: the shares of the locations and of
 * the profiles' ranks (mpi_profile_part.c) would then differ. */
static int choose_share(pw_dataset *ds, dumpi_dataset *dd)
{
    uint64_t *weight = malloc(dd->n_ranks * sizeof *weight);
    int all_usable = weight != NULL;
    for (size_t i = 0; all_usable && i < dd->n_ranks; i++) {
        all_usable = dd->ranks[i].usable;
        weight[i] = pw_ds_file_weight(dd->ranks[i].file);
    }
    if (all_usable)
        pw_share_cut(weight, NULL, dd->n_ranks, ds->run->opening_share, ds->run->opening_shares, &dd->scan_first,
                     &dd->scan_end);
    free(weight);
    return all_usable;
}

/* Reads every rank file: in full for a whole open, else every header and
 * index (a few KB each), then the records of the share's ranks only. */
static void read_rank_files(pw_dataset *ds, dumpi_dataset *dd)
{
    if (ds->run->opening_shares <= 1) {
        pw_parallel_for(dd->n_ranks, ds->threads, read_rank_job, ds);
        dd->scan_end = dd->n_ranks;
        return;
    }
    pw_parallel_for(dd->n_ranks, ds->threads, read_header_job, ds);
    dd->pending = choose_share(ds, dd);
    if (!dd->pending) {
        dd->scan_first = 0;
        dd->scan_end = dd->n_ranks;
    }
    pw_parallel_for(dd->scan_end - dd->scan_first, ds->threads, scan_share_job, ds);
}

/* The rank location and one child per thread id other than 0. */
static pw_status add_locations(pw_dataset *ds, dumpi_dataset *dd, pw_error *err)
{
    for (size_t i = 0; i < dd->n_ranks; i++) {
        dumpi_rank *r = &dd->ranks[i];
        char name[64];
        snprintf(name, sizeof name, "rank%d", r->rank);
        r->loc = pw_ds_add_location(ds, -1, PW_LOC_PROCESS, r->rank, name, r->file, r->usable);
        for (size_t t = 0; r->loc >= 0 && r->thread_locs && t < r->n_threads; t++) {
            snprintf(name, sizeof name, "thread%u", r->threads[t]);
            r->thread_locs[t] = pw_ds_add_location(ds, r->loc, PW_LOC_THREAD, r->threads[t], name, NULL, 0);
            if (r->thread_locs[t] < 0)
                return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
        }
        if (r->loc < 0)
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    dd->rank_of_loc = pw_ds_alloc(ds, (ds->n_locs ? ds->n_locs : 1) * sizeof *dd->rank_of_loc);
    if (!dd->rank_of_loc)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t l = 0; l < ds->n_locs; l++)
        dd->rank_of_loc[l] = -1;
    for (size_t i = 0; i < dd->n_ranks; i++)
        dd->rank_of_loc[dd->ranks[i].loc] = (int32_t)i;
    return PW_OK;
}

static pw_status find_rank_files(pw_dataset *ds, dumpi_dataset *dd, pw_error *err)
{
    const char *path = ds->path;
    int dir = pw_path_is_dir(path);
    if (dir == 1) {
        char *meta = find_meta(path);
        if (!meta)
            return pw_fail(err, PW_E_FORMAT, path, PW_NO_OFFSET, "a DUMPI .meta file expected in the directory");
        pw_status st = read_meta(ds, dd, meta, err);
        free(meta);
        return st;
    }
    if (pw_ends_with(path, ".meta"))
        return read_meta(ds, dd, path, err);
    return add_rank(dd, path, rank_of_name(path, 0), err);
}

/* What each function's arguments mean to the profile: the same for every
 * trace, so worked out once per process (by name lookups that would
 * otherwise cost more than opening a small trace). */
static dumpi_fn_use uses_table[DUMPI_N_LABELS];
static pthread_once_t uses_once = PTHREAD_ONCE_INIT;
static void uses_table_init(void) { dumpi_uses_init(uses_table); }

pw_status dumpi_layout_open(pw_dataset *ds, dumpi_dataset *dd, pw_error *err)
{
    pw_status st = find_rank_files(ds, dd, err);
    if (st != PW_OK)
        return st;
    if (dd->n_ranks == 0)
        return pw_fail(err, PW_E_DATA, ds->path, PW_NO_OFFSET, "no rank file (.bin) of the trace exists");
    dd->profiles = calloc(dd->n_ranks, sizeof *dd->profiles);
    dd->uses = calloc(DUMPI_N_LABELS, sizeof *dd->uses);
    if (!dd->profiles || !dd->uses)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < dd->n_ranks; i++)
        if (!dumpi_profile_init(&dd->profiles[i], dd->ranks[i].rank))
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    dumpi_profiles_publish(ds, dd);
    pthread_once(&uses_once, uses_table_init);
    memcpy(dd->uses, uses_table, sizeof uses_table);
    /* The pass profiles for `stats` unless the program said it wants no
     * stats (a window then walks less); stats profiles later if it did. */
    dd->profiled = pw_run_wants(ds->run, PW_WANT_STATS);
    dd->published.complete = dd->profiled;
    read_rank_files(ds, dd);
    for (size_t i = 0; i < dd->n_ranks; i++)
        if (dd->ranks[i].io_error) {
            if (err)
                *err = *dd->ranks[i].io_error;
            return dd->ranks[i].io_error->status;
        }
    return dd->pending ? PW_OK : dumpi_layout_finish(ds, dd, err);
}

/* The record locations of the ranks a two-step open walked, in
 * pw_ds_record_locations' items: pw_dataset_set_share takes this cut
 * only, so that the share's profiles are the ones walked here. */
static pw_status note_walk(pw_dataset *ds, const dumpi_dataset *dd, pw_error *err)
{
    size_t n, before = 0, walked = 0;
    const uint32_t *locs = pw_ds_record_locations(ds, &n);
    if (!locs)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t k = 0; k < n; k++) {
        int32_t slot = dd->rank_of_loc[locs[k]];
        before += slot >= 0 && (size_t)slot < dd->scan_first;
        walked += slot >= 0 && (size_t)slot >= dd->scan_first && (size_t)slot < dd->scan_end;
    }
    ds->run->walked_part = 1;
    ds->run->walked_first = before;
    ds->run->walked_end = before + walked;
    return PW_OK;
}

pw_status dumpi_layout_finish(pw_dataset *ds, dumpi_dataset *dd, pw_error *err)
{
    uint64_t total = 0;
    for (size_t i = 0; i < dd->n_ranks; i++)
        total += dd->ranks[i].file_size;
    ds->progress_total = total;
    pw_status st = add_locations(ds, dd, err);
    if (st == PW_OK && dd->pending)
        st = note_walk(ds, dd, err);
    for (size_t i = 0; i < dd->n_ranks && st == PW_OK; i++)
        st = dumpi_rankfile_props(ds, &dd->ranks[i], err);
    /* A rank's calls follow one another; with threads, calls of one file
     * (written as they end) may begin out of order. */
    ds->time_ordered = 1;
    for (size_t i = 0; i < dd->n_ranks; i++)
        ds->time_ordered &= dd->ranks[i].n_threads == 0;
    dd->pending = 0;
    return st;
}
