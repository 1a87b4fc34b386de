/* state_spans.c — the current value of every row's channel.  A change finds
 * its track through two small arrays (the type's column, the row's cells),
 * as hashing every change cost more than the emulation of the event; the
 * hash of the keys is kept only for the order in which the spans still
 * open at the end are closed.  Memory grows with rows x channels only. */
#include "views/state_spans.h"

#include <stdlib.h>
#include <string.h>

#include "core/mix64.h"

/* The slot of `type` in the column map (holding it, or free). */
static uint64_t *column_slot(uint64_t *map, uint32_t cap, int32_t type)
{
    uint32_t i = ((uint32_t)type * 0x9E3779B1u) & (cap - 1);
    while (map[i] && (int32_t)(map[i] >> 32) != type)
        i = (i + 1) & (cap - 1);
    return &map[i];
}

/* Cells wide enough for `width` columns, the rows kept. */
static int widen(pw_state_index *s, uint32_t width)
{
    for (int v = 0; v < 2; v++) {
        uint32_t *c = calloc((size_t)s->n_rows[v] * width + 1, sizeof *c);
        if (!c)
            return -1;
        for (uint32_t r = 0; r < s->n_rows[v]; r++)
            memcpy(c + (size_t)r * width, s->cells[v] + (size_t)r * s->row_width,
                   s->row_width * sizeof *c);
        free(s->cells[v]);
        s->cells[v] = c;
    }
    s->row_width = width;
    return 0;
}

/* The column of `type`, made on its first use; -1 when memory runs out. */
static int64_t column_of(pw_state_index *s, int32_t type)
{
    int small = type >= 0 && type < 256;
    if (small && s->small[type])
        return s->small[type] - 1;
    if (s->columns_cap) {
        uint64_t c = *column_slot(s->columns, s->columns_cap, type);
        if (c)
            return (int64_t)(uint32_t)c - 1;
    }
    if ((s->n_columns + 1) * 2 > s->columns_cap) {
        uint32_t cap = s->columns_cap ? s->columns_cap * 2 : 32;
        uint64_t *m = calloc(cap, sizeof *m);
        if (!m)
            return -1;
        for (uint32_t i = 0; i < s->columns_cap; i++)
            if (s->columns[i])
                *column_slot(m, cap, (int32_t)(s->columns[i] >> 32)) = s->columns[i];
        free(s->columns);
        s->columns = m;
        s->columns_cap = cap;
    }
    if (s->n_columns == s->row_width && widen(s, s->row_width ? s->row_width * 2 : 16) != 0)
        return -1;
    *column_slot(s->columns, s->columns_cap, type) = (uint64_t)(uint32_t)type << 32 | ++s->n_columns;
    if (small && s->n_columns < 256)
        s->small[type] = (uint8_t)s->n_columns;
    return s->n_columns - 1;
}

/* The cell of (view, row, column), the view's rows grown to hold it. */
static uint32_t *cell_of(pw_state_index *s, int view, uint32_t row, uint32_t col)
{
    if (row >= s->n_rows[view]) {
        uint32_t n = row + 1 > s->n_rows[view] * 2 ? row + 1 : s->n_rows[view] * 2;
        uint32_t *c = realloc(s->cells[view], ((size_t)n * s->row_width + 1) * sizeof *c);
        if (!c)
            return NULL;
        memset(c + (size_t)s->n_rows[view] * s->row_width, 0,
               (size_t)(n - s->n_rows[view]) * s->row_width * sizeof *c);
        s->cells[view] = c;
        s->n_rows[view] = n;
    }
    return &s->cells[view][(size_t)row * s->row_width + col];
}

static uint32_t *order_slot(uint32_t *order, size_t cap, const pw_state_track *tracks, uint64_t key)
{
    size_t i = pw_mix64(key) & (cap - 1);
    while (order[i] && tracks[order[i] - 1].key != key)
        i = (i + 1) & (cap - 1);
    return &order[i];
}

/* The order table is kept under half full, grown (rehashed slot by slot)
 * at the first change that finds it half full, as the tracks' own table
 * once was: the order of the closing spans stays what it was. */
static int grow_order(pw_state_index *x)
{
    size_t cap = x->order_cap ? x->order_cap * 2 : 256;
    uint32_t *o = calloc(cap, sizeof *o);
    if (!o)
        return -1;
    for (size_t k = 0; k < x->order_cap; k++)
        if (x->order[k])
            *order_slot(o, cap, x->tracks, x->tracks[x->order[k] - 1].key) = x->order[k];
    free(x->order);
    x->order = o;
    x->order_cap = cap;
    return 0;
}

/* A new track holding `value` since `time`: index + 1, or 0 when memory
 * runs out. */
static uint32_t new_track(pw_state_spans *s, uint64_t key, int64_t value, int64_t time)
{
    pw_state_index *x = s->index;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        pw_state_track *t = realloc(x->tracks, cap * sizeof *t);
        if (!t)
            return 0;
        x->tracks = t;
        s->cap = cap;
    }
    x->tracks[s->n] = (pw_state_track){key, value, time, 0};
    *order_slot(x->order, x->order_cap, x->tracks, key) = (uint32_t)s->n + 1;
    return (uint32_t)++s->n;
}

/* The track of (view, row, type) as index + 1 in a cell (0: none yet), or
 * NULL when memory runs out. */
static uint32_t *find_cell(pw_state_spans *s, int view, uint32_t row, int32_t type)
{
    if (!s->index && !(s->index = calloc(1, sizeof *s->index)))
        return NULL;
    if ((s->n + 1) * 2 > s->index->order_cap && grow_order(s->index) != 0)
        return NULL;
    s->index->grow_pending = 0;
    int64_t col = column_of(s->index, type);
    return col < 0 ? NULL : cell_of(s->index, view, row, (uint32_t)col);
}

/* Any lookup: the index made or grown as needed, a new track made.  The
 * order table grows at the change after it became half full, as it
 * always did (the order of the closing spans depends on when). */
pw_state_track *pw_state_spans_track_slow(pw_state_spans *s, int64_t time, int view, uint32_t row,
                                          int32_t type, int64_t value, int *first)
{
    uint32_t *cell = find_cell(s, view, row, type);
    if (!cell) {
        s->failed = 1;
        return NULL;
    }
    pw_state_index *x = s->index;
    if (*cell)
        return &x->tracks[*cell - 1];
    if (!(*cell = new_track(s, pw_state_key(view, row, type), value, time))) {
        s->failed = 1;
        return NULL;
    }
    x->grow_pending = (s->n + 1) * 2 > x->order_cap;
    x->current = &x->tracks[*cell - 1];
    *first = 1;
    s->fn(s->ctx, view, row, type, 0, time, time, 1);
    return x->current;
}

void pw_state_spans_change(void *ctx, int64_t time, int view, uint32_t row, int32_t type, int64_t value)
{
    pw_state_spans *s = ctx;
    int64_t held, since;
    pw_state_track *tr = pw_state_spans_move(s, time, view, row, type, value, &held, &since);
    if (tr && time > since) { /* the span the change ends goes to the callback */
        s->index->current = tr;
        s->fn(s->ctx, view, row, type, held, since, time, 0);
    }
}

void pw_state_spans_close(pw_state_spans *s, int64_t end)
{
    pw_state_index *x = s->index;
    for (size_t i = 0; x && i < x->order_cap; i++) {
        if (!x->order[i])
            continue;
        pw_state_track *tr = &x->tracks[x->order[i] - 1];
        x->current = tr;
        if (end > tr->since)
            s->fn(s->ctx, pw_state_key_view(tr->key), pw_state_key_row(tr->key), pw_state_key_channel(tr->key),
                  tr->value, tr->since, end, 0);
    }
}

void pw_state_spans_free(pw_state_spans *s)
{
    pw_state_index *x = s->index;
    if (x) {
        free(x->tracks);
        free(x->cells[0]);
        free(x->cells[1]);
        free(x->columns);
        free(x->order);
        free(x);
    }
    memset(s, 0, sizeof *s);
}
