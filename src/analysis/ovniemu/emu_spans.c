/* emu_spans.c — the current value of every row's channel, in an
 * open-addressing table: memory grows with rows x channels only. */
#include "analysis/ovniemu/emu_spans.h"

#include <stdlib.h>
#include <string.h>

uint64_t emu_mix64(uint64_t h)
{
    h = (h ^ h >> 30) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ h >> 27) * 0x94D049BB133111EBull;
    return h ^ h >> 31;
}

static emu_span_track *slot_of(emu_span_track *t, size_t cap, uint64_t key)
{
    size_t i = emu_mix64(key) & (cap - 1);
    while (t[i].key && t[i].key != key)
        i = (i + 1) & (cap - 1);
    return &t[i];
}

static int grow(emu_spans *s)
{
    size_t cap = s->cap ? s->cap * 2 : 256;
    emu_span_track *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < s->cap; i++)
        if (s->tracks[i].key)
            *slot_of(t, cap, s->tracks[i].key) = s->tracks[i];
    free(s->tracks);
    s->tracks = t;
    s->cap = cap;
    return 0;
}

void emu_spans_change(void *ctx, int64_t time, int view, uint32_t row, int32_t type, int64_t value)
{
    emu_spans *s = ctx;
    uint64_t key = (uint64_t)(view + 1) << 62 | (uint64_t)row << 31 | (uint32_t)type;
    if ((s->n + 1) * 2 > s->cap && grow(s) != 0) {
        s->failed = 1;
        return;
    }
    emu_span_track *tr = slot_of(s->tracks, s->cap, key);
    if (!tr->key) {
        *tr = (emu_span_track){key, value, time};
        s->n++;
        s->fn(s->ctx, view, row, type, 0, time, time, 1);
        return;
    }
    if (time > tr->since)
        s->fn(s->ctx, view, row, type, tr->value, tr->since, time, 0);
    tr->value = value;
    tr->since = time;
}

void emu_spans_close(emu_spans *s, int64_t end)
{
    for (size_t i = 0; i < s->cap; i++) {
        emu_span_track *tr = &s->tracks[i];
        if (tr->key && end > tr->since)
            s->fn(s->ctx, emu_span_view(tr->key), emu_span_row(tr->key), emu_span_type(tr->key),
                  tr->value, tr->since, end, 0);
    }
}

void emu_spans_free(emu_spans *s)
{
    free(s->tracks);
    memset(s, 0, sizeof *s);
}
