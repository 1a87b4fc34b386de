/* value_text.h — a field value as one text cell, for the tabular writers
 * (CSV, SQLite): scalars as usual, bytes as ":hh:hh", lists as
 * "[a;b;c]" and objects as "{name=value;...}", so nested DUMPI arrays and
 * statuses fit one column. */
#ifndef PW_SINKS_CONVERT_VALUE_TEXT_H
#define PW_SINKS_CONVERT_VALUE_TEXT_H
#include <stddef.h>

#include "perfweave.h"

typedef struct pw_text {
    char *p;
    size_t n, cap;
    int failed; /* memory ran out */
} pw_text;

/* Replaces t's content with the text of v (empty when not present). */
void pw_value_text(pw_text *t, const pw_value *v);
void pw_text_free(pw_text *t);
/* Appends s[0..n). */
void pw_text_add(pw_text *t, const char *s, size_t n);
#endif
