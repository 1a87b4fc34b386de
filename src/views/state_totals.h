/* state_totals.h — time per state summed over the rows (threads, CPUs)
 * of a view: how long every task type ran across all threads, per MPI
 * function, per subsystem; the table "state_totals" next to "states". */
#ifndef PW_VIEWS_STATE_TOTALS_H
#define PW_VIEWS_STATE_TOTALS_H
#include <stdint.h>

#include "model/dataset.h"

typedef struct pw_state_total {
    const char *view, *channel, *label; /* held by the caller until the report */
    int32_t type;
    int64_t value;
    uint64_t ns, rows;
} pw_state_total;

typedef struct pw_state_totals {
    pw_state_total *v;
    size_t n, cap;
    int failed; /* memory ran out */
} pw_state_totals;

/* One (row, channel, value)'s time. */
void pw_state_totals_add(pw_state_totals *t, const char *view, int32_t type, const char *channel, int64_t value,
                         const char *label, uint64_t ns);
/* Adds the table "state_totals" to root: per view and channel, each value's
 * time over all rows, the longest first, and its share of the channel's
 * time; then frees t.  0 when memory ran out. */
int pw_state_totals_report(pw_state_totals *t, pw_rnode *root);
extern const pw_table_decl pw_state_totals_table;
#endif
