/* run.c — one process's run over an open dataset: made with the dataset,
 * it holds what the analyses computed together until they report it. */
#include "model/run.h"

#include <stdlib.h>

#include "model/dataset.h"

pw_run *pw_run_new(unsigned wants)
{
    pw_run *run = calloc(1, sizeof *run);
    if (!run)
        return NULL;
    run->wants = wants;
    run->share_end = SIZE_MAX; /* every location until a share is set */
    atomic_init(&run->open_bytes, 0);
    return run;
}

void pw_run_free(pw_run *run)
{
    if (!run)
        return;
    while (run->held) {
        pw_held *h = run->held;
        run->held = h->next;
        h->release(h->state);
        free(h);
    }
    free(run->read_to_end);
    free(run);
}

int pw_ds_hold(pw_dataset *ds, const void *by, void *state, void (*release)(void *state))
{
    pw_held *h = malloc(sizeof *h);
    if (!h) {
        release(state);
        return 0;
    }
    *h = (pw_held){by, state, release, ds->run->held};
    ds->run->held = h;
    return 1;
}

void *pw_ds_take(pw_dataset *ds, const void *by)
{
    for (pw_held **at = &ds->run->held; *at; at = &(*at)->next)
        if ((*at)->by == by) {
            pw_held *h = *at;
            void *state = h->state;
            *at = h->next;
            free(h);
            return state;
        }
    return NULL;
}
