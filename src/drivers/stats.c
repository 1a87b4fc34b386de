/* stats.c — pw_stats: the format's own summary (or the generic counts),
 * then what every registered analysis finds in the records.  It lives in
 * the analysis layer because it is where formats' results and analyses'
 * results meet; formats and analyses never call each other.  The parts
 * of shares meet here too: a stats part is the format's part
 * (pw_ds_summary_part) and the part of every registered analysis that
 * makes one, in one envelope of words (model/part.h):
 *   the dataset's locations digest, the format part's word count and words,
 *   then per registered analysis 0 (no part: the join runs its report
 *   over every location) or 1 + its word count, and its words. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "model/part.h"

/* The declarations of the format's tables, so that renderings know their
 * titles and units. */
static pw_status declare_tables(const pw_dataset *ds, pw_report *r, pw_error *err)
{
    return pw_report_declare(r, ds->fmt->tables) ? PW_OK
                                                 : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
}

/* After an analysis ran: the declarations of the tables it added. */
static pw_status declare_added(const pw_dataset *ds, const pw_analysis_ops *a, pw_report *r, pw_status s,
                               pw_error *err)
{
    if (s == PW_OK && !pw_report_declare_present(r, a->tables))
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    return s;
}

/* The tables of every registered analysis, over every location. */
static pw_status add_analyses(pw_dataset *ds, pw_report *r, pw_error *err)
{
    pw_status s = PW_OK;
    for (size_t i = 0; s == PW_OK && pw_analyses_wanted(ds) && i < pw_n_analyses; i++)
        s = declare_added(ds, pw_analyses[i], r, pw_analyses[i]->report(ds, r, err), err);
    return s;
}

/* The format's summary of every location: its own, or its one part over
 * all locations joined, or the generic counts. */
static pw_status format_summary(pw_dataset *ds, pw_report *r, pw_error *err)
{
    int own = ds->fmt->stats || ds->fmt->stats_part;
    /* A format's own summary that reads its files past the cursors would
     * ignore a filter: the generic counts (through cursors) serve then,
     * and the report says why. */
    if (own && ds->filter && !ds->fmt->stats_filtered) {
        pw_rnode_str(pw_report_root(r), "filtered",
                     "records per type and location only: this format's summary reads the whole trace");
        return pw_stats_generic(ds, r, err);
    }
    if (ds->fmt->stats)
        return ds->fmt->stats(ds, r, err);
    if (ds->fmt->summary_by_analyses)
        return PW_OK;
    if (ds->fmt->stats_part) {
        void *part = NULL;
        size_t size = 0;
        pw_status s = ds->fmt->stats_part(ds, 0, SIZE_MAX, &part, &size, err);
        if (s == PW_OK)
            s = ds->fmt->stats_join(ds, (const void *const *)&part, &size, 1, r, err);
        free(part);
        return s;
    }
    return pw_stats_generic(ds, r, err);
}

/* 1 when format f names the analysis among those its datasets feed. */
static int feeds(size_t f, const pw_analysis_ops *a)
{
    const char *const *names = pw_format_name(f) ? pw_formats[f]->analyses : NULL;
    for (size_t k = 0; names && names[k]; k++)
        if (!strcmp(names[k], a->name))
            return 1;
    return 0;
}

const char *pw_format_analysis_table(size_t f, size_t i, const char **description, const char **analysis)
{
    for (size_t a = 0; a < pw_n_analyses; a++)
        for (size_t k = 0; feeds(f, pw_analyses[a]) && pw_analyses[a]->tables && pw_analyses[a]->tables[k]; k++)
            if (i-- == 0) {
                if (description)
                    *description = pw_analyses[a]->tables[k]->description;
                if (analysis)
                    *analysis = pw_analyses[a]->name;
                return pw_analyses[a]->tables[k]->name;
            }
    return NULL;
}

pw_status pw_stats(pw_dataset *ds, pw_report *r, pw_error *err)
{
    pw_status s = declare_tables(ds, r, err);
    if (s == PW_OK)
        s = format_summary(ds, r, err);
    return s == PW_OK ? add_analyses(ds, r, err) : s;
}

/* The analysis's part of this share, appended to w as its piece. */
static pw_status put_analysis_part(pw_dataset *ds, const pw_analysis_ops *a, pw_part_writer *w, pw_error *err)
{
    void *part = NULL;
    size_t size = 0;
    pw_status s = a->part && a->join && pw_analyses_wanted(ds) ? a->part(ds, &part, &size, err) : PW_OK;
    if (s == PW_OK) {
        pw_part_put_word(w, part ? 1 + size / sizeof(uint64_t) : 0);
        if (part)
            pw_part_put(w, part, size - size % sizeof(uint64_t));
    }
    free(part);
    return s;
}

pw_status pw_stats_part(pw_dataset *ds, void **part, size_t *size, pw_error *err)
{
    *part = NULL;
    *size = 0;
    void *summary = NULL;
    size_t summary_size = 0;
    pw_status s = pw_ds_summary_part(ds, &summary, &summary_size, err);
    pw_part_writer w = {0};
    if (s == PW_OK) {
        pw_part_put_word(&w, pw_ds_locations_digest(ds));
        pw_part_put_word(&w, summary_size / sizeof(uint64_t));
        if (summary)
            pw_part_put(&w, summary, summary_size - summary_size % sizeof(uint64_t));
    }
    free(summary);
    for (size_t i = 0; s == PW_OK && i < pw_n_analyses; i++)
        s = put_analysis_part(ds, pw_analyses[i], &w, err);
    return pw_part_finish(&w, s, ds->path, part, size, err);
}

/* The pieces of the shares' envelopes: [share] the format's, and
 * [analysis * n + share] each analysis's (NULL: none made). */
typedef struct pieces {
    const void **at;
    size_t *size;
} pieces;

/* Splits one share's envelope; 0 when it does not fit this dataset. */
static int split_envelope(const pw_dataset *ds, const void *part, size_t size, size_t share, size_t n,
                          pieces *p)
{
    pw_part_reader rd = pw_part_reader_of(part, size);
    if (pw_part_next(&rd) != pw_ds_locations_digest(ds) || rd.bad)
        return 0;
    for (size_t k = 0; k <= pw_n_analyses; k++) {
        uint64_t words = pw_part_next(&rd);
        int made = k == 0 || words > 0;
        words -= k > 0 && words > 0;
        if (rd.bad || words > rd.n - rd.pos)
            return 0;
        size_t slot = k * n + share;
        p->at[slot] = made ? (const void *)(rd.words + rd.pos) : NULL;
        p->size[slot] = (size_t)words * sizeof(uint64_t);
        rd.pos += (size_t)words;
    }
    return rd.pos == rd.n;
}

/* The analyses' tables: joined from the parts where every share made
 * one, else the analysis's report over every location. */
static pw_status join_analyses(pw_dataset *ds, const pieces *p, size_t n, pw_report *r, pw_error *err)
{
    pw_status s = PW_OK;
    for (size_t i = 0; s == PW_OK && pw_analyses_wanted(ds) && i < pw_n_analyses; i++) {
        const pw_analysis_ops *a = pw_analyses[i];
        int all = a->join != NULL;
        for (size_t k = 0; all && k < n; k++)
            all = p->at[(i + 1) * n + k] != NULL;
        s = all ? a->join(ds, p->at + (i + 1) * n, p->size + (i + 1) * n, n, r, err) : a->report(ds, r, err);
        s = declare_added(ds, a, r, s, err);
    }
    return s;
}

pw_status pw_stats_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n,
                        pw_report *r, pw_error *err)
{
    size_t slots = (pw_n_analyses + 1) * (n ? n : 1);
    pieces p = {calloc(slots, sizeof *p.at), calloc(slots, sizeof *p.size)};
    pw_status s = p.at && p.size ? PW_OK : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    if (s == PW_OK)
        s = declare_tables(ds, r, err);
    for (size_t k = 0; s == PW_OK && k < n; k++)
        if (!split_envelope(ds, parts[k], sizes[k], k, n, &p))
            s = pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                        "stats part %zu of %zu is not one of this dataset's (%zu bytes)", k, n, sizes[k]);
    /* The format's summary where it has no parts, and the analyses without
     * parts, read every location on this process. */
    int joined = pw_ds_summary_in_parts(ds);
    if (s == PW_OK && joined)
        s = ds->fmt->stats_join(ds, p.at, p.size, n, r, err);
    ds->run->share_index = 0;
    ds->run->share_first = 0;
    ds->run->share_end = SIZE_MAX;
    if (s == PW_OK && !joined)
        s = format_summary(ds, r, err);
    if (s == PW_OK)
        s = join_analyses(ds, &p, n, r, err);
    free(p.at);
    free(p.size);
    return s;
}
