/* state_window.c — states clipped to the report window (state_window.h). */
#include "views/state_window.h"

#include "model/filter.h"

/* Tracks of the held values need no spans. */
static void no_span(void *ctx, int view, uint32_t row, int32_t channel, int64_t value, int64_t t0,
                    int64_t t1, int first)
{
    (void)ctx, (void)view, (void)row, (void)channel, (void)value, (void)t0, (void)t1, (void)first;
}

int pw_state_window_init(pw_state_window *w, const pw_dataset *ds, pw_state_change_fn change, void *ctx)
{
    *w = (pw_state_window){change, ctx, INT64_MAX, INT64_MAX, 0, 0, 0, {NULL, 0, 0, no_span, NULL, 0}};
    return pw_selection_window_ns(ds, &w->abs_start, &w->abs_end);
}

/* abs - origin, saturated (an open bound is INT64_MIN or INT64_MAX). */
static int64_t since_origin(int64_t abs, int64_t origin)
{
    if (abs == INT64_MIN || abs == INT64_MAX)
        return abs;
    if (origin > 0 && abs < INT64_MIN + origin)
        return INT64_MIN;
    if (origin < 0 && abs > INT64_MAX + origin)
        return INT64_MAX;
    return abs - origin;
}

void pw_state_window_place(pw_state_window *w, int64_t origin)
{
    int64_t start = since_origin(w->abs_start, origin);
    w->start = start < 0 ? 0 : start; /* the states begin at 0 */
    w->end = since_origin(w->abs_end, origin);
}

/* The window opens: the values held go to the consumer at its start. */
static void open_window(pw_state_window *w)
{
    w->open = 1;
    const pw_state_index *x = w->held.index;
    for (size_t i = 0; x && i < w->held.n && w->start < w->end; i++) {
        const pw_state_track *tr = &x->tracks[i];
        if (tr->value)
            w->change(w->ctx, w->start, pw_state_key_view(tr->key), pw_state_key_row(tr->key),
                      pw_state_key_channel(tr->key), tr->value);
    }
}

void pw_state_window_change(void *ctx, int64_t time, int view, uint32_t row, int32_t channel,
                            int64_t value)
{
    pw_state_window *w = ctx;
    if (!w->open && time < w->start) {
        int first = 0;
        pw_state_track *tr = pw_state_spans_track(&w->held, time, view, row, channel, value, &first);
        if (tr)
            tr->value = value;
        return;
    }
    if (!w->open)
        open_window(w);
    if (time < w->end)
        w->change(w->ctx, time, view, row, channel, value);
}

int64_t pw_state_window_finish(pw_state_window *w, int64_t end, int cut)
{
    if (w->start == INT64_MAX) /* no record was played: nothing to clip */
        return w->held.failed ? -1 : end;
    if (cut || end > w->end)
        end = w->end;
    /* A window that opens after the states end still gets the values they
     * end with (a share's part holds them on to the trace's end). */
    if (!w->open && w->start != INT64_MAX)
        open_window(w);
    return w->held.failed ? -1 : end < w->start ? w->start : end;
}

void pw_state_window_free(pw_state_window *w) { pw_state_spans_free(&w->held); }

int64_t pw_state_window_start(const pw_dataset *ds, int64_t origin)
{
    pw_state_window w;
    if (!pw_state_window_init(&w, ds, NULL, NULL))
        return 0;
    pw_state_window_place(&w, origin);
    return w.start;
}
