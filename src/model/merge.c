/* merge.c — k-way merge of all cursors into one time-ordered stream, with a
 * binary min-heap keyed by (time, location).  Memory: one cursor per
 * location, nothing per record. */
#include <stdlib.h>

#include "core/window.h"
#include "model/dataset.h"

struct pw_merge {
    pw_dataset *ds;
    pw_cursor **heap;   /* cursors whose current record is pending */
    size_t n;
    pw_cursor *last;    /* the cursor whose record was handed out last */
};

/* Orders records by time (virtual or ns), then by location so that ties
 * come out the same way every run. */
static int record_before(const pw_record *a, const pw_record *b)
{
    if (a->clock == PW_CLOCK_NS && b->clock == PW_CLOCK_NS) {
        if (a->t != b->t)
            return a->t < b->t;
    } else if (a->clock == PW_CLOCK_VIRTUAL && b->clock == PW_CLOCK_VIRTUAL) {
        if (a->vt != b->vt)
            return a->vt < b->vt;
    }
    return a->location < b->location;
}

static void heap_down(pw_merge *m, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, s = i;
        if (l < m->n && record_before(&m->heap[l]->rec, &m->heap[s]->rec))
            s = l;
        if (r < m->n && record_before(&m->heap[r]->rec, &m->heap[s]->rec))
            s = r;
        if (s == i)
            return;
        pw_cursor *t = m->heap[i];
        m->heap[i] = m->heap[s];
        m->heap[s] = t;
        i = s;
    }
}

/* Window size per cursor: large windows for few locations, smaller ones
 * when thousands are open at once, so the total stays near 64 MiB. */
static size_t merge_window_cap(size_t n_cursors)
{
    size_t cap = n_cursors ? ((size_t)64 << 20) / n_cursors : PW_WINDOW_DEFAULT_CAP;
    if (cap > PW_WINDOW_DEFAULT_CAP)
        cap = PW_WINDOW_DEFAULT_CAP;
    if (cap < 16 * 1024)
        cap = 16 * 1024;
    return cap;
}

/* Advances c; keeps it in the heap (at the root) when it has a record,
 * drops it otherwise.  A damaged cursor is already a diagnostic. */
static void merge_advance_root(pw_merge *m)
{
    const pw_record *rec;
    pw_error e;
    pw_status s = pw_cursor_next(m->heap[0], &rec, &e);
    if (s != PW_OK) {
        pw_cursor_close(m->heap[0]);
        m->heap[0] = m->heap[--m->n];
    }
    if (m->n)
        heap_down(m, 0);
}

pw_status pw_merge_open(pw_dataset *ds, pw_merge **out, pw_error *err)
{
    *out = NULL;
    pw_merge *m = calloc(1, sizeof *m);
    size_t with_records = 0;
    for (size_t i = 0; i < ds->n_locs; i++)
        with_records += ds->locs[i].has_records != 0;
    if (m)
        m->heap = calloc(with_records ? with_records : 1, sizeof *m->heap);
    if (!m || !m->heap) {
        free(m);
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    m->ds = ds;
    size_t cap = merge_window_cap(with_records);
    for (size_t i = 0; i < ds->n_locs; i++) {
        if (!ds->locs[i].has_records)
            continue;
        pw_cursor *c;
        pw_status s = pw_cursor_open_sized(ds, (uint32_t)i, cap, &c, err);
        if (s == PW_E_DATA || s == PW_E_IO) { /* unreadable location: note it, go on */
            pw_ds_diag_error(ds, PW_SEV_ERROR, "unreadable", err);
            continue;
        }
        if (s != PW_OK) {
            pw_merge_close(m);
            return s;
        }
        /* Prime: the heap root is this cursor until sifted into place. */
        const pw_record *rec;
        pw_error e;
        if (pw_cursor_next(c, &rec, &e) != PW_OK) {
            pw_cursor_close(c);
            continue;
        }
        m->heap[m->n++] = c;
    }
    for (size_t i = m->n / 2; i-- > 0;)
        heap_down(m, i);
    *out = m;
    return PW_OK;
}

pw_status pw_merge_next(pw_merge *m, const pw_record **rec, pw_error *err)
{
    (void)err;
    if (m->last) { /* the record handed out last is consumed now */
        m->last = NULL;
        merge_advance_root(m);
    }
    if (!m->n) {
        *rec = NULL;
        return PW_END;
    }
    m->last = m->heap[0];
    *rec = &m->heap[0]->rec;
    return PW_OK;
}

void pw_merge_close(pw_merge *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        pw_cursor_close(m->heap[i]);
    free(m->heap);
    free(m);
}
