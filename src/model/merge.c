/* merge.c — k-way merge of all cursors into one time-ordered stream, with
 * a loser tree (tournament.h).  Memory: one cursor per location, nothing
 * per record. */
#include <stdlib.h>

#include "core/compiler.h"
#include "core/window.h"
#include "model/dataset.h"
#include "model/tournament.h"

struct pw_merge {
    pw_dataset *ds;
    pw_cursor **cursors; /* per leaf, NULL once exhausted */
    pw_tournament t;
    int pending;         /* the winner's record was handed out last */
    int history;         /* an analysis's merge: pw_cursor_open_history's cursors */
    int past_end;        /* a cursor went on past the filter's window */
};

/* Window size per cursor: together the windows of a merge take about
 * 512 KiB, so that what read() copied in is still in the core's L2 cache
 * (1 MiB on the bench machine) when the merge reaches it; with 256 KiB per
 * window, 8 streams' windows and the writer's buffer evicted each other
 * and every event header was a cache miss (perf: the first load of
 * ovni_stream_next).  At least 16 KiB each (a read of that size still
 * costs little per byte), at most the default. */
size_t pw_merge_window_cap(size_t n_cursors)
{
    size_t cap = n_cursors ? ((size_t)512 << 10) / n_cursors : PW_WINDOW_DEFAULT_CAP;
    if (cap > PW_WINDOW_DEFAULT_CAP)
        cap = PW_WINDOW_DEFAULT_CAP;
    if (cap < 16 * 1024)
        cap = 16 * 1024;
    return cap;
}

/* Leaf i's cursor ended with s: closed (a damaged cursor is already a
 * diagnostic).  Under check, a location read to its end or to its damage
 * is marked read: a system fault is not, so that the check's read-through
 * still ends with it. */
static PW_RARE void merge_leaf_done(pw_merge *m, size_t i, pw_status s)
{
    if (m->ds->run->read_to_end && (s == PW_END || s == PW_E_DATA))
        m->ds->run->read_to_end[m->cursors[i]->location] = 1;
    m->past_end |= m->cursors[i]->past_end;
    pw_cursor_close(m->cursors[i]);
    m->cursors[i] = NULL;
}

/* Advances leaf i's cursor; returns its next record, or NULL once it is
 * done.  Inline in pw_merge_next, where it runs once per record; the end
 * is out of line. */
static PW_HOT_INLINE const pw_record *merge_advance(pw_merge *m, size_t i)
{
    pw_error err;
    pw_status s = pw_cursor_step(m->cursors[i], &err);
    if (s == PW_OK)
        return &m->cursors[i]->rec;
    merge_leaf_done(m, i, s);
    return NULL;
}

/* Opens one leaf per location with records (locs[0 .. n), or, locs NULL,
 * every location with records) and reads its first record. */
static pw_status merge_open_leaves(pw_merge *m, const uint32_t *locs, size_t n, pw_error *err)
{
    pw_dataset *ds = m->ds;
    size_t cap = pw_merge_window_cap(n), leaf = 0;
    for (size_t i = 0, at = 0; i < n; i++, at++) {
        while (!locs && !ds->locs[at].has_records)
            at++;
        uint32_t loc = locs ? locs[i] : (uint32_t)at;
        pw_status s = m->history ? pw_cursor_open_history(ds, loc, cap, &m->cursors[leaf], err)
                                 : pw_cursor_open_sized(ds, loc, cap, &m->cursors[leaf], err);
        if (s == PW_E_DATA || s == PW_E_IO) { /* unreadable location: note it, go on */
            pw_ds_diag_error(ds, PW_SEV_ERROR, "unreadable", err);
            /* Under check its damage is said (a fault is not marked: the
             * read-through ends with it, as merge_leaf_done says). */
            if (s == PW_E_DATA && ds->run->read_to_end)
                ds->run->read_to_end[locs ? locs[i] : at] = 1;
            continue;
        }
        if (s != PW_OK)
            return s;
        const pw_record *rec = merge_advance(m, leaf);
        if (rec)
            pw_tournament_set(&m->t, leaf, pw_sort_key_of(rec));
        leaf++;
    }
    return PW_OK;
}

static pw_status merge_open(pw_dataset *ds, const uint32_t *locs, size_t n, int history, pw_merge **out,
                            pw_error *err)
{
    *out = NULL;
    pw_merge *m = calloc(1, sizeof *m);
    if (!m || !pw_tournament_init(&m->t, n)) {
        free(m);
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    m->ds = ds;
    m->history = history;
    m->cursors = calloc(m->t.k, sizeof *m->cursors);
    pw_status s = m->cursors ? merge_open_leaves(m, locs, n, err)
                             : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    if (s == PW_OK && !pw_tournament_build(&m->t))
        s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    if (s != PW_OK) {
        pw_merge_close(m);
        return s;
    }
    *out = m;
    return PW_OK;
}

pw_status pw_merge_open_locations(pw_dataset *ds, const uint32_t *locs, size_t n, pw_merge **out,
                                  pw_error *err)
{
    return merge_open(ds, locs, n, 0, out, err);
}

pw_status pw_merge_open_history(pw_dataset *ds, const uint32_t *locs, size_t n, pw_merge **out,
                                pw_error *err)
{
    return merge_open(ds, locs, n, 1, out, err);
}

int pw_merge_past_end(const pw_merge *m) { return m->past_end; }

pw_status pw_merge_open(pw_dataset *ds, pw_merge **out, pw_error *err)
{
    return pw_merge_open_locations(ds, NULL, pw_ds_count_record_locations(ds), out, err);
}

/* The winner's cursor read rec: its key replays the winner's path.  A
 * record of ns time while no virtual time was met (nearly every merge)
 * takes the short replay; the others make the whole key, out of line. */
static PW_NOINLINE void merge_replay_key(pw_merge *m, const pw_record *rec)
{
    pw_sort_key k = pw_sort_key_of(rec);
    pw_tournament_replay(&m->t, k.t, k.vt, k.loc);
}

static PW_HOT_INLINE void merge_replay(pw_merge *m, const pw_record *rec)
{
    if (!m->t.vt_used && rec->clock == PW_CLOCK_NS)
        pw_tournament_replay_ns(&m->t, pw_order_of_i64(rec->t), (uint64_t)rec->location << 32);
    else
        merge_replay_key(m, rec);
}

pw_status pw_merge_next(pw_merge *m, const pw_record **rec, pw_error *err)
{
    (void)err;
    if (m->pending) { /* the record handed out last is consumed now */
        m->pending = 0;
        const pw_record *next = merge_advance(m, pw_tournament_leaf(&m->t));
        if (next)
            merge_replay(m, next);
        else
            pw_tournament_retire(&m->t);
    }
    long w = pw_tournament_winner(&m->t);
    if (w < 0) {
        *rec = NULL;
        return PW_END;
    }
    m->pending = 1;
    *rec = &m->cursors[w]->rec;
    return PW_OK;
}

void pw_merge_close(pw_merge *m)
{
    if (!m)
        return;
    for (size_t i = 0; m->cursors && i < m->t.k; i++)
        pw_cursor_close(m->cursors[i]);
    free(m->cursors);
    pw_tournament_free(&m->t);
    free(m);
}
