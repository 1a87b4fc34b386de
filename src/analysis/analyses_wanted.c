/* analyses_wanted.c — whether pw_stats and pw_check run the registered
 * analyses: an emulator or a wait-state replay costs far more than the
 * format's own summary (ovni: 8 M events/s against 140 M), and a user who
 * wants counts only says so with the option "analyses" = "0". */
#include <string.h>

#include "analysis/analysis.h"

int pw_analyses_wanted(const pw_dataset *ds)
{
    const char *v = pw_ds_common_option(ds, "analyses");
    return !v || strcmp(v, "0");
}
