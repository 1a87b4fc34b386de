/* account.c — the account of a conversion (pw_convert_report): what the
 * timelines (analysis) and the writers (sinks) could not hold or wrote in
 * another form, item by item. */
#include "model/account.h"

void pw_convert_note(pw_convert_report *rep, const char *what, uint64_t count, int lost)
{
    if (!count)
        return;
    if (rep->n_items == PW_CONVERT_MAX_ITEMS) {
        pw_convert_item *last = &rep->items[PW_CONVERT_MAX_ITEMS - 1];
        last->what = "other records (several kinds)";
        last->count += count;
        last->lost |= lost;
        return;
    }
    rep->items[rep->n_items++] = (pw_convert_item){what, count, lost};
}
