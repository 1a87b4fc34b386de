/* account.h — keeping the account of a conversion (pw_convert_report):
 * every record that a timeline or a writer could not hold is an item. */
#ifndef PW_MODEL_ACCOUNT_H
#define PW_MODEL_ACCOUNT_H
#include "perfweave.h"

/* Adds an item to rep's account when count > 0 (items beyond the limit
 * are folded into the last one, so counts still add up). */
void pw_convert_note(pw_convert_report *rep, const char *what, uint64_t count, int lost);
#endif
