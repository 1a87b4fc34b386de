/* state_times.h — time per state: for every row of a states producer
 * (states.h), how long each labelled value of each channel lasted (the
 * histograms users make in Paraver from a runtime's state traces). */
#ifndef PW_VIEWS_STATE_TIMES_H
#define PW_VIEWS_STATE_TIMES_H
#include "views/states.h"

/* Adds to r the array "states": view, row, type, channel, value, label,
 * time_s and share_pct of the duration, one entry per (row, channel, value)
 * in that order.  When the producer refuses the records (PW_E_DATA, err
 * says why) the array holds what was counted until then and PW_E_DATA is
 * returned. */
/* The declaration of that table, and its columns by place. */
extern const pw_table_decl pw_state_times_table;
enum pw_state_times_column {
    PW_STATES_VIEW,
    PW_STATES_ROW,
    PW_STATES_TYPE,
    PW_STATES_CHANNEL,
    PW_STATES_VALUE,
    PW_STATES_LABEL,
    PW_STATES_TIME_S,
    PW_STATES_SHARE_PCT
};
/* The name of column c (PW_STATES_c) of that table. */
#define PW_STATES_COLUMN(c) PW_COLUMN(pw_state_times_table, PW_STATES_##c)
pw_status pw_state_times_report(pw_dataset *ds, const pw_states_source *src, pw_report *r,
                                pw_error *err);
#endif
