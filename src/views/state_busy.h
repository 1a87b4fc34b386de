/* state_busy.h — how long each row of a view runs something, from the
 * view's busy channel (pw_state_view.busy: a CPU's running threads), and
 * how long it idles: the first screen of an emulated trace, the table
 * "summary" (busy and idle time per CPU). */
#ifndef PW_VIEWS_STATE_BUSY_H
#define PW_VIEWS_STATE_BUSY_H
#include <stdint.h>

#include "views/states.h"

typedef struct pw_state_busy {
    const pw_states *st;
    uint64_t **ns; /* [view][row]: time with a nonzero busy value; NULL for a view without */
    int failed;    /* memory ran out */
} pw_state_busy;

/* 1 when `type` is the busy channel of `view`. */
static inline int pw_state_busy_channel(const pw_states *st, int view, int32_t type)
{
    return st->views[view].busy != 0 && st->views[view].busy == type;
}
/* Ready to sum the rows of st's views that have a busy channel. */
void pw_state_busy_init(pw_state_busy *b, const pw_states *st);
/* A span of a nonzero busy value of row `row` of `view`. */
void pw_state_busy_add(pw_state_busy *b, int view, uint32_t row, uint64_t ns);
/* Adds the table "summary" to root, one row per row of a view with a busy
 * channel: busy and idle time over `span` ns (the states' duration).  0
 * when memory ran out. */
int pw_state_busy_report(const pw_state_busy *b, int64_t span, pw_rnode *root);
void pw_state_busy_free(pw_state_busy *b);
extern const pw_table_decl pw_state_busy_table;
#endif
