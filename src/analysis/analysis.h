/* analysis.h — the contract of an analysis: what turns a dataset's records
 * into results, whatever its format.  An analysis is a folder
 * src/analysis/<name>/ with one file <name>_analysis.c defining
 * `const pw_analysis_ops pw_analysis_<name>`; the build finds it and lists
 * it in the registry (analysis_registry.c.in), as formats and sinks are
 * found (docs/adding-an-analysis.md).
 *
 * An analysis sees records only through the model (cursors, merges,
 * schemas, properties and options) and never tests a format's name: it
 * decides from the schemas (MPI roles, span pairs) or from properties a
 * format sets (such as "emulation") whether it has something to say. */
#ifndef PW_ANALYSIS_ANALYSIS_H
#define PW_ANALYSIS_ANALYSIS_H
#include "views/states.h"
#include "views/timeline.h"
#include "model/dataset.h"

typedef struct pw_analysis_ops {
    const char *name;
    const char *description; /* one line */
    /* Adds the analysis's tables to the stats report r, after the format's
     * own summary; adds nothing (and returns PW_OK) for a dataset it has
     * nothing to say about. */
    pw_status (*report)(pw_dataset *ds, pw_report *r, pw_error *err);
    /* Optional: what the analysis finds wrong in the records (a state
     * transition its model forbids), as diagnostics of ds; run by pw_check
     * after the records were read.  Returns PW_OK or a system fault. */
    pw_status (*check)(pw_dataset *ds, pw_error *err);
    /* Optional, both or neither: the report split over the shares of the
     * locations (pw_dataset_set_share), as formats split their summary
     * (pw_stats_part).  part, run by every process on its share, puts the
     * analysis's partial state into *part as words (model/part.h; malloc'd,
     * *size bytes), or leaves *part NULL to decline (then the joining
     * process runs report over every location, as for an analysis without
     * parts).  join, run by one process with the parts of shares 0 .. n-1
     * in share order, adds to r exactly the bytes report would add.  Every
     * process calls part at the same point, so a part may also use
     * ds->run->collectives to exchange what its share needs from the others
     * before it is made. */
    pw_status (*part)(pw_dataset *ds, void **part, size_t *size, pw_error *err);
    pw_status (*join)(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n, pw_report *r,
                      pw_error *err);
    /* Optional: the thread and CPU states the analysis derives from the
     * records (states.h), for the sinks that write states. */
    const pw_states_source *states;
    /* Optional: what the analysis draws on the timelines of ds (Perfetto,
     * Chrome JSON) besides the records (views/timeline.h), when asked. */
    const pw_tl_decoration *decorate;
    /* Optional: the analysis computed by every process of a program
     * together (pw_stats_together), each over its share, talking through
     * ds->run->collectives; share 0 holds the results (pw_ds_hold) for `report`,
     * which then reports them instead of reading every location. */
    pw_status (*together)(pw_dataset *ds, pw_error *err);
    /* The tables report adds, NULL-ended (model/table.h); may be NULL. */
    const pw_table_decl *const *tables;
} pw_analysis_ops;

/* 0 when the caller asked for the format's own summary and reading only
 * (the library option "analyses" = "0": the CLI's --set analyses=0). */
int pw_analyses_wanted(const pw_dataset *ds);

extern const pw_analysis_ops *const pw_analyses[];
extern const size_t pw_n_analyses;

/* The registered analysis that offers states for ds, or NULL. */
const pw_states_source *pw_states_source_for(const pw_dataset *ds);

/* pw_timeline_run with what every registered analysis that offers to
 * decorate ds's timeline draws on it (in registry order: the first one's
 * sink nearest the writer's). */
pw_status pw_timeline_run_decorated(pw_dataset *ds, const pw_tl_sink *sink, pw_convert_report *rep,
                                    pw_error *err);
#endif
