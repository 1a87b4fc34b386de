/* together.c — pw_stats_together: the analyses that every process of a
 * program computes together over its share (analysis.h, `together`),
 * their results held on share 0 for pw_stats_join's report. */
#include "analysis/analysis.h"

pw_status pw_stats_together(pw_dataset *ds, pw_error *err)
{
    pw_status s = PW_OK;
    for (size_t i = 0; s == PW_OK && pw_analyses_wanted(ds) && i < pw_n_analyses; i++)
        if (pw_analyses[i]->together)
            s = pw_analyses[i]->together(ds, err);
    return s;
}
