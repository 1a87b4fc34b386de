/* convert.h — what the converters share: the target table entry and the
 * account of records kept in pw_convert_report. */
#ifndef PW_SINKS_CONVERT_H
#define PW_SINKS_CONVERT_H
#include "model/dataset.h"

typedef struct pw_convert_target {
    const char *name;
    const char *extensions; /* space-separated, e.g. ".json .json.gz" */
    const char *description;
    /* Writes ds into out; NULL when this build lacks the library it needs. */
    pw_status (*run)(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
} pw_convert_target;

/* Adds an item to rep's account when count > 0 (items beyond the limit
 * are folded into the last one, so counts still add up). */
void pw_convert_note(pw_convert_report *rep, const char *what, uint64_t count, int lost);

/* Feeds every record of ds, merged in time order, to write(ctx, rec),
 * counting records in and out in rep; stops at the first error. */
pw_status pw_convert_records(pw_dataset *ds, pw_convert_report *rep,
                             pw_status (*write)(void *ctx, const pw_record *rec, pw_error *err), void *ctx,
                             pw_error *err);

/* Grows a zero-filled array *p of *cap elements of `size` bytes so that
 * index `need` fits; 0 when memory runs out. */
int pw_grow_zeroed(void **p, uint32_t *cap, uint32_t need, size_t size);

/* The targets (convert.c) and their writers. */
pw_status pw_convert_perfetto(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_chrome(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_csv(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_sqlite(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_otf2(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
pw_status pw_convert_paraver(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err);
#endif
