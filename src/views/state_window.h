/* state_window.h — states (states.h) clipped to the report window: how a
 * producer that replays the whole history (model/filter.h: analyses read
 * up to the window's end) hands its consumer only [start, end).  Changes
 * before the start are held, one value per row channel, and the values
 * held when the window opens are given at its start; changes at or after
 * its end are dropped.  So every consumer (stats' time per state, the
 * states writers, dump --states) sees the whole run's states clipped. */
#ifndef PW_VIEWS_STATE_WINDOW_H
#define PW_VIEWS_STATE_WINDOW_H
#include "views/state_spans.h"
#include "views/states.h"

typedef struct pw_state_window {
    pw_state_change_fn change; /* the consumer */
    void *ctx;
    int64_t start, end;        /* in the states' times; start INT64_MAX until placed */
    int64_t abs_start, abs_end; /* the window in the dataset's ns clock */
    int open;                  /* the start was passed: changes go on as they come */
    pw_state_spans held;       /* before the start: each row channel's value */
} pw_state_window;

/* 1 when ds has a report window on its ns clock: *w then wraps the
 * consumer (change, ctx) and the producer sends its changes to
 * pw_state_window_change with w as ctx; 0: no window, send them to the
 * consumer itself. */
int pw_state_window_init(pw_state_window *w, const pw_dataset *ds, pw_state_change_fn change, void *ctx);
/* The states' time 0 is `origin` in the dataset's clock (the first
 * record's time): the window is placed in the states' times. */
void pw_state_window_place(pw_state_window *w, int64_t origin);
void pw_state_window_change(void *ctx, int64_t time, int view, uint32_t row, int32_t channel,
                            int64_t value);
/* The end of the states in the window: `end` (the states' own end) cut to
 * the window, or the window's end where the history read stopped there
 * (cut: something came after it); the values held are given first if the
 * window never opened.  -1: memory ran out. */
int64_t pw_state_window_finish(pw_state_window *w, int64_t end, int cut);
void pw_state_window_free(pw_state_window *w);
/* Where the states of ds are reported from when their time 0 is `origin`:
 * the report window's start in the states' times, 0 without one. */
int64_t pw_state_window_start(const pw_dataset *ds, int64_t origin);
#endif
