/* emu_task_ended.c — runs of ended task ids in a sorted array: tasks end
 * near the newest ids, so runs are extended or added at the end and the
 * array moves little. */
#include "analysis/ovniemu/emu_task_ended.h"
#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

/* The index of the first run starting after id. */
static size_t after(const emu_task_ended *s, uint32_t id)
{
    size_t lo = 0, hi = s->n;
    /* The newest ids first: they end most. */
    if (hi && s->runs[hi - 1].lo <= id)
        return hi;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->runs[mid].lo <= id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const emu_task_run *emu_task_ended_find(const emu_task_ended *s, uint32_t id)
{
    size_t p = after(s, id);
    return p && s->runs[p - 1].hi >= id ? &s->runs[p - 1] : NULL;
}

/* Room for one more run at index p. */
static int open_at(emu_task_ended *s, size_t p)
{
    if (!pw_grow((void **)&s->runs, s->n, &s->cap, sizeof *s->runs))
        return -1;
    memmove(&s->runs[p + 1], &s->runs[p], (s->n - p) * sizeof *s->runs);
    s->n++;
    return 0;
}

static void close_at(emu_task_ended *s, size_t p)
{
    memmove(&s->runs[p], &s->runs[p + 1], (s->n - p - 1) * sizeof *s->runs);
    s->n--;
}

static int same_kind(const emu_task_run *r, uint32_t type, uint8_t flags)
{
    return r->type == type && r->flags == flags;
}

int emu_task_ended_add(emu_task_ended *s, uint32_t id, uint32_t type, uint8_t flags)
{
    size_t p = after(s, id);
    emu_task_run *prev = p ? &s->runs[p - 1] : NULL;
    emu_task_run *next = p < s->n ? &s->runs[p] : NULL;
    int joins_prev = prev && prev->hi + 1 == id && same_kind(prev, type, flags);
    int joins_next = next && id + 1 == next->lo && same_kind(next, type, flags);
    if (joins_prev && joins_next) {
        prev->hi = next->hi;
        close_at(s, p);
    } else if (joins_prev) {
        prev->hi = id;
    } else if (joins_next) {
        next->lo = id;
    } else {
        if (open_at(s, p) != 0)
            return -1;
        s->runs[p] = (emu_task_run){id, id, type, flags};
    }
    return 0;
}

int emu_task_ended_remove(emu_task_ended *s, uint32_t id)
{
    size_t p = after(s, id) - 1;
    emu_task_run *r = &s->runs[p];
    if (r->lo == id && r->hi == id) {
        close_at(s, p);
    } else if (r->lo == id) {
        r->lo++;
    } else if (r->hi == id) {
        r->hi--;
    } else {
        /* Split: lo..id-1 stays at p, id+1..hi goes after it. */
        if (open_at(s, p + 1) != 0)
            return -1;
        r = &s->runs[p];
        s->runs[p + 1] = (emu_task_run){id + 1, r->hi, r->type, r->flags};
        r->hi = id - 1;
    }
    return 0;
}

void emu_task_ended_free(emu_task_ended *s)
{
    free(s->runs);
    memset(s, 0, sizeof *s);
}
