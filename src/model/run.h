/* run.h — what one process's run over an open dataset holds besides the
 * data.
 *
 * The dataset (model/dataset.h) describes what was read: its format,
 * locations, schemas, properties, findings, and the flags a format sets
 * about its data.  Everything that depends on who reads it and how lives
 * here instead: what the program said it wants from the open, the share
 * of the locations this process reads (pw_dataset_set_share, the
 * two-step open of pw_open_share), how the processes talk, what the
 * analyses computed together and hold for their report, the watchers a
 * page or a chart sets while stats runs, and the marks of the check.
 * One run per open dataset (ds->run), made with it and freed by pw_close;
 * two processes reading one dataset differ only in their runs. */
#ifndef PW_MODEL_RUN_H
#define PW_MODEL_RUN_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "perfweave.h"

/* Results computed by `by` (an analysis's ops) held in the run until
 * taken (pw_ds_take) or until pw_close (release(state)). */
typedef struct pw_held {
    const void *by;
    void *state;
    void (*release)(void *state);
    struct pw_held *next;
} pw_held;

typedef struct pw_run {
    /* What the program will ask of the dataset (pw_options.wants; 0 when
     * it did not say): formats skip or shape at open what it decides
     * (pw_run_wants). */
    unsigned wants;
    /* The share pw_open_share opens for (opening_shares 0: pw_open, the
     * whole dataset), and the bytes the open read in full (record streams
     * walked, counted by formats that open in two steps). */
    unsigned opening_share, opening_shares;
    _Atomic uint64_t open_bytes;
    /* Set by a format whose two-step open walked the records of items
     * [walked_first, walked_end) of pw_ds_record_locations only: what it
     * holds of the others came from their shares, so the open's cut is
     * the share's, and pw_dataset_set_share refuses any other. */
    int walked_part;
    size_t walked_first, walked_end;
    /* This process's share of the record locations (pw_dataset_set_share):
     * items [share_first, share_end) of pw_ds_record_locations. */
    unsigned share_index;
    size_t share_first, share_end;
    /* How the processes of the shares talk (pw_dataset_set_collectives), or NULL. */
    const pw_collectives *collectives;
    /* What analyses computed together with other processes
     * (pw_stats_together), held for their report (pw_ds_hold). */
    pw_held *held;
    /* The last timeline drew this process's share alone (views/timeline_share.c). */
    int timeline_alone;
    /* Per location, from pw_check on (pw_check_note_reads): 1 once a merge
     * read it to its end or to its damage, noted, so that the check's own
     * read-through need not read it again; NULL before. */
    uint8_t *read_to_end;
    /* Set by a sink that draws what the energy analysis finds (model/energy_layout.h). */
    const struct pw_energy_watch *energy_watch;
    /* Set by a sink that draws states over time (views/states.h). */
    const struct pw_states_watch *states_watch;
} pw_run;

/* A run of the whole dataset for a program that wants `wants`; NULL when
 * memory runs out. */
pw_run *pw_run_new(unsigned wants);
/* Releases what the run holds (the held results, the check's marks). */
void pw_run_free(pw_run *run);

/* Whether the program said it wants `what` (PW_WANT_*) of the open; a
 * program that said nothing may ask anything but a timeline's shape
 * (PW_WANT_STATS and PW_WANT_RECORDS). */
static inline int pw_run_wants(const pw_run *run, unsigned what)
{
    unsigned wants = run->wants ? run->wants : PW_WANT_STATS | PW_WANT_RECORDS;
    return (wants & what) != 0;
}
#endif
