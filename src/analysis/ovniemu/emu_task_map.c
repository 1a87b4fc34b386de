/* emu_task_map.c — the window of the newest ids and the periodic runs
 * below it (emu_task_map.h). */
#include "analysis/ovniemu/emu_task_map.h"
#include "core/grow.h"

#include <stdlib.h>
#include <string.h>

#define WINDOW EMU_TASK_MAP_WINDOW
#define PERIOD EMU_TASK_MAP_PERIOD

static uint32_t run_value(const emu_task_map_run *r, uint32_t id)
{
    return r->values[(id - r->lo) % r->period];
}

/* The index of the first run starting after id. */
static size_t after(const emu_task_map *m, uint32_t id)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->runs[mid].lo <= id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

uint32_t emu_task_map_get(const emu_task_map *m, uint32_t id)
{
    if (m->window && id >= m->base)
        return id - m->base < WINDOW ? m->window[id % WINDOW] : 0;
    size_t p = after(m, id);
    return p && m->runs[p - 1].hi >= id ? run_value(&m->runs[p - 1], id) : 0;
}

/* Room for one more run at index p. */
static emu_task_map_run *open_at(emu_task_map *m, size_t p)
{
    if (!pw_grow((void **)&m->runs, m->n, &m->cap, sizeof *m->runs))
        return NULL;
    memmove(&m->runs[p + 1], &m->runs[p], (m->n - p) * sizeof *m->runs);
    m->n++;
    return &m->runs[p];
}

/* Appends id (above every run) as the window slides past it: the last
 * run takes it when its pattern holds the value there, or when it is
 * still short enough to become its own pattern (period = its length). */
static int append(emu_task_map *m, uint32_t id, uint32_t value)
{
    emu_task_map_run *r = m->n ? &m->runs[m->n - 1] : NULL;
    if (r && r->hi + 1 == id) {
        uint32_t len = id - r->lo;
        if (r->values[len % r->period] == value) {
            r->hi = id;
            return 0;
        }
        if (len < PERIOD) {
            for (uint32_t i = r->period; i < len; i++)
                r->values[i] = r->values[i % r->period];
            r->values[len] = value;
            r->period = len + 1;
            r->hi = id;
            return 0;
        }
    }
    if (!value)
        return 0; /* ids between runs have none */
    r = open_at(m, m->n);
    if (!r)
        return -1;
    *r = (emu_task_map_run){.lo = id, .hi = id, .period = 1, .values = {value}};
    return 0;
}

/* Moves the window up so that it starts at `base`: the ids it leaves go
 * to the runs in order. */
static int slide(emu_task_map *m, uint32_t base)
{
    uint32_t end = base - m->base < WINDOW ? base : m->base + WINDOW;
    for (uint32_t id = m->base; id != end; id++) {
        if (append(m, id, m->window[id % WINDOW]) != 0)
            return -1;
        m->window[id % WINDOW] = 0;
    }
    m->base = base;
    return 0;
}

/* An id below the window: the run holding it splits around it (the part
 * after it with its pattern turned to start there), or it gets a run of
 * its own between the others. */
static int set_below(emu_task_map *m, uint32_t id, uint32_t value)
{
    size_t p = after(m, id);
    emu_task_map_run *r = p && m->runs[p - 1].hi >= id ? &m->runs[p - 1] : NULL;
    if (r && run_value(r, id) == value)
        return 0;
    if (!r) {
        emu_task_map_run *one = open_at(m, p);
        if (!one)
            return -1;
        *one = (emu_task_map_run){.lo = id, .hi = id, .period = 1, .values = {value}};
        return 0;
    }
    /* Room for both new runs first: a failure leaves the map as it was. */
    if (!pw_grow((void **)&m->runs, m->n + 1, &m->cap, sizeof *m->runs))
        return -1;
    r = &m->runs[p - 1];
    emu_task_map_run old = *r;
    size_t at = p - 1;
    if (old.lo < id) {
        r->hi = id - 1;
        open_at(m, ++at);
    }
    m->runs[at] = (emu_task_map_run){.lo = id, .hi = id, .period = 1, .values = {value}};
    if (id < old.hi) {
        emu_task_map_run *rest = open_at(m, at + 1);
        *rest = (emu_task_map_run){.lo = id + 1, .hi = old.hi, .period = old.period};
        for (uint32_t i = 0; i < old.period; i++)
            rest->values[i] = run_value(&old, id + 1 + i);
    }
    return 0;
}

int emu_task_map_set(emu_task_map *m, uint32_t id, uint32_t value)
{
    if (!m->window) {
        if (!(m->window = calloc(WINDOW, sizeof *m->window)))
            return -1;
        /* Room for ids a little older than the first. */
        m->base = id > WINDOW / 2 ? id - WINDOW / 2 : 0;
    }
    if (id < m->base)
        return set_below(m, id, value);
    if (id - m->base >= WINDOW && slide(m, id - WINDOW + 1) != 0)
        return -1;
    m->window[id % WINDOW] = value;
    return 0;
}

void emu_task_map_free(emu_task_map *m)
{
    free(m->runs);
    free(m->window);
    memset(m, 0, sizeof *m);
}
