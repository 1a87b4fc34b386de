/* convert.c — pw_convert: the table of targets, choosing one from the
 * output's extension, and the account of records in and out. */
#include "sinks/convert/convert.h"

#include "model/filter.h"

#include <stdlib.h>
#include <string.h>

static const pw_convert_target targets[] = {
    {"perfetto", ".pftrace .perfetto-trace .pb", "Perfetto protobuf trace (ui.perfetto.dev)",
     pw_convert_perfetto},
    {"chrome", ".json .json.gz", "Chrome JSON trace events (chrome://tracing, Perfetto)", pw_convert_chrome},
    {"otf2", ".otf2", "OTF2 archive directory (Vampir, Score-P tools)", pw_convert_otf2},
    {"paraver", ".prv", "Paraver .prv/.pcf/.row (wxparaver)", pw_convert_paraver},
    {"csv", ".csv.d .csv", "a directory with one CSV file per record type", pw_convert_csv},
    {"sqlite", ".sqlite .sqlite3 .db", "SQLite database, one table per record type", pw_convert_sqlite},
};
#define N_TARGETS (sizeof targets / sizeof *targets)

size_t pw_convert_target_count(void) { return N_TARGETS; }
const char *pw_convert_target_name(size_t i) { return i < N_TARGETS ? targets[i].name : NULL; }
const char *pw_convert_target_description(size_t i) { return i < N_TARGETS ? targets[i].description : NULL; }

/* Does path end in one of the space-separated extensions? */
static int has_extension(const char *path, const char *exts)
{
    size_t n = strlen(path);
    while (*exts) {
        size_t len = strcspn(exts, " ");
        if (len < n && !strncmp(path + n - len, exts, len))
            return 1;
        exts += len + (exts[len] == ' ');
    }
    return 0;
}

const char *pw_convert_target_for_path(const char *out)
{
    char trimmed[4096];
    size_t n = strlen(out);
    while (n > 1 && out[n - 1] == '/') /* "out.otf2/" names the same directory */
        n--;
    if (n >= sizeof trimmed)
        return NULL;
    memcpy(trimmed, out, n);
    trimmed[n] = '\0';
    for (size_t i = 0; i < N_TARGETS; i++)
        if (has_extension(trimmed, targets[i].extensions))
            return targets[i].name;
    return NULL;
}

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

pw_status pw_convert_records(pw_dataset *ds, pw_convert_report *rep,
                             pw_status (*write)(void *ctx, const pw_record *rec, pw_error *err), void *ctx,
                             pw_error *err)
{
    pw_merge *m = NULL;
    pw_status s = pw_merge_open(ds, &m, err);
    const pw_record *rec;
    pw_record clipped;
    uint64_t n_clipped = 0;
    while (s == PW_OK && pw_merge_next(m, &rec, err) == PW_OK) {
        rep->records_in++;
        if (pw_window_clip(ds, rec, &clipped)) {
            rec = &clipped;
            n_clipped++;
        }
        s = write(ctx, rec, err);
        rep->records_out += s == PW_OK;
    }
    pw_merge_close(m);
    pw_convert_note(rep, "spans clipped to the --start/--end window", n_clipped, 0);
    return s;
}

int pw_grow_zeroed(void **p, uint32_t *cap, uint32_t need, size_t size)
{
    if (need < *cap)
        return 1;
    uint32_t c = *cap ? *cap : 64;
    while (c <= need)
        c *= 2;
    void *n = realloc(*p, (size_t)c * size);
    if (!n)
        return 0;
    memset((char *)n + (size_t)*cap * size, 0, (size_t)(c - *cap) * size);
    *p = n;
    *cap = c;
    return 1;
}

pw_status pw_convert(pw_dataset *ds, const char *out, const char *target, pw_convert_report *rep,
                     pw_error *err)
{
    pw_convert_report local;
    if (!rep)
        rep = &local;
    memset(rep, 0, sizeof *rep);
    if (!target)
        target = pw_convert_target_for_path(out);
    if (!target)
        return pw_fail(err, PW_E_USAGE, out, PW_NO_OFFSET,
                       "cannot tell the target from the extension: use --to NAME");
    for (size_t i = 0; i < N_TARGETS; i++) {
        if (strcmp(targets[i].name, target))
            continue;
        rep->target = targets[i].name;
        return targets[i].run(ds, out, rep, err);
    }
    return pw_fail(err, PW_E_USAGE, NULL, PW_NO_OFFSET, "unknown conversion target '%s'", target);
}
