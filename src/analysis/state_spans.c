/* state_spans.c — the current value of every row's channel, in an
 * open-addressing table: memory grows with rows x channels only. */
#include "analysis/state_spans.h"

#include <stdlib.h>
#include <string.h>

uint64_t pw_state_mix64(uint64_t h)
{
    h = (h ^ h >> 30) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ h >> 27) * 0x94D049BB133111EBull;
    return h ^ h >> 31;
}

static pw_state_track *slot_of(pw_state_track *t, size_t cap, uint64_t key)
{
    size_t i = pw_state_mix64(key) & (cap - 1);
    while (t[i].key && t[i].key != key)
        i = (i + 1) & (cap - 1);
    return &t[i];
}

static int grow(pw_state_spans *s)
{
    size_t cap = s->cap ? s->cap * 2 : 256;
    pw_state_track *t = calloc(cap, sizeof *t);
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

void pw_state_spans_change(void *ctx, int64_t time, int view, uint32_t row, int32_t channel,
                           int64_t value)
{
    pw_state_spans *s = ctx;
    uint64_t key = pw_state_key(view, row, channel);
    if ((s->n + 1) * 2 > s->cap && grow(s) != 0) {
        s->failed = 1;
        return;
    }
    pw_state_track *tr = slot_of(s->tracks, s->cap, key);
    if (!tr->key) {
        *tr = (pw_state_track){key, value, time};
        s->n++;
        s->fn(s->ctx, view, row, channel, 0, time, time, 1);
        return;
    }
    if (time > tr->since)
        s->fn(s->ctx, view, row, channel, tr->value, tr->since, time, 0);
    tr->value = value;
    tr->since = time;
}

void pw_state_spans_close(pw_state_spans *s, int64_t end)
{
    for (size_t i = 0; i < s->cap; i++) {
        pw_state_track *tr = &s->tracks[i];
        if (tr->key && end > tr->since)
            s->fn(s->ctx, pw_state_key_view(tr->key), pw_state_key_row(tr->key),
                  pw_state_key_channel(tr->key), tr->value, tr->since, end, 0);
    }
}

void pw_state_spans_free(pw_state_spans *s)
{
    free(s->tracks);
    memset(s, 0, sizeof *s);
}
