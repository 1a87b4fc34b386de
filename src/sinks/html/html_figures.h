/* html_figures.h — what the HTML report's parts share: the page being
 * written and the figures, each drawn from the report tree that
 * `stats --json` renders (read by table and column names, so that a new
 * column changes nothing here) or, for the strips over time, from the
 * states an analysis derives. */
#ifndef PW_SINKS_HTML_FIGURES_H
#define PW_SINKS_HTML_FIGURES_H
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "perfweave.h"
#include "sinks/html/html_watch.h"

/* A repetition's primary power per pixel column (html_power.c). */
#define HTML_POWER_COLS 600
typedef struct html_power {
    int64_t begin, end; /* the measured window, ns */
    double sum[HTML_POWER_COLS], peak[HTML_POWER_COLS];
    uint32_t n[HTML_POWER_COLS];
} html_power;

typedef struct html_run {
    FILE *f;
    const json_t *root; /* the stats report tree */
    pw_dataset *ds;     /* for the strips over time; NULL: none */
    const char *prefix; /* of figure ids: "" for one run, "a-"/"b-" side by side */
    const char *name;   /* the run's path, for captions */
    int *findings;      /* verdict lines written so far */
    const pw_html_watch *watch; /* what pw_stats handed over; NULL: nothing */
} html_run;

/* The power columns kept of the repetition `rep` (a row of the
 * repetitions table), or NULL. */
const html_power *html_power_of(const pw_html_watch *w, const json_t *rep);

/* The number at key (0 when absent or not a number). */
double jnum(const json_t *o, const char *key);
/* The string at key ("" when absent). */
const char *jstr(const json_t *o, const char *key);
/* The figure id `prefix` + `id` into buf. */
const char *fig_id(const html_run *run, const char *id, char *buf, size_t cap);

/* Each draws the figures of its kind of data when the tree has them, and
 * returns how many it drew. */
int html_mpi_figures(const html_run *run);
int html_state_figures(const html_run *run);
int html_profile_figures(const html_run *run);
int html_pdes_figures(const html_run *run);
int html_energy_figures(const html_run *run);

/* The strips of states over time (html_strips.c): thread-states and
 * cpu-states, when the dataset's analyses derive states, from what a
 * watcher kept of a replay of them (strips, when complete): stats' own or
 * the report driver's (html_watch.h). */
typedef struct html_strips html_strips;
html_strips *html_strips_new(pw_dataset *ds);
void html_strips_watch(html_strips *s); /* sets ds->run->states_watch */
void html_strips_free(html_strips *s);
void html_state_strips(const html_run *run, const html_strips *strips);
/* The strips a page's watch kept (html_power.c), or NULL. */
html_strips *html_watch_strips(const pw_html_watch *w);

/* The verdict in plain words (html_summary.c), one <li> per finding. */
void html_findings(const html_run *run);
void html_finding(const html_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* html_mpi.c: the columns of the wait_states table that measure a kind
 * of wait state (all but its key, rank), at most max; their count. */
size_t html_wait_kinds(const json_t *wait_states, const char **columns, size_t max);

/* html_energy.c: 1 when row has the same strings as `of` at each of the
 * NULL-ended keys; the keys of a benchmark (experiment, benchmark). */
int html_same_keys(const json_t *row, const json_t *of, const char *const *keys);
extern const char *const html_benchmark_keys[];

/* html_states.c: the channel of a view that holds states the longest in the
 * states table (its type; -1: none), and what it says of the view. */
int64_t html_main_channel(const json_t *states, const char *view);
void html_state_verdict(const html_run *run, const json_t *states, const char *view, int64_t type);
/* The labels of that channel, most time first (at most max), and its name;
 * the strips colour label i as svg_colour(i), the rest grey. */
#define HTML_STATE_COLOURS 11
size_t html_state_labels(const json_t *states, const char *view, int64_t type, const char **labels, size_t max);
const char *html_channel_name(const json_t *states, const char *view, int64_t type);

/* html_profile.c: the hot path of a top-down table (the child of largest
 * inclusive cost `col`, from the root down) written "a → b → c" into
 * buf; its number of steps, and the cost at its end. */
size_t html_hot_path(const json_t *top_down, const char *col, char *buf, size_t cap);
double html_hot_path_value(const json_t *top_down, const char *col);
/* A comparison's verdict and its largest changes (html_diff.c). */
void html_diff_findings(FILE *f, const json_t *diff);
int html_diff_figures(FILE *f, const json_t *diff);
#endif
