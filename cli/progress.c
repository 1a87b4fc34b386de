/* progress.c — a progress bar on stderr for long work: bytes read out of
 * the total, polled from the dataset by a thread of its own. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

struct cli_progress {
    const pw_dataset *ds;
    const char *what;
    pthread_t thread;
    atomic_int stop;
};

static void progress_draw(cli_progress *p)
{
    uint64_t done, total;
    pw_dataset_progress(p->ds, &done, &total);
    if (!total)
        return;
    if (done > total)
        done = total;
    int width = 30, fill = (int)(done * (uint64_t)width / total);
    char bar[32];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r%s [%s] %3d%%  %.1f / %.1f MB", p->what, bar, (int)(done * 100 / total),
            (double)done / 1e6, (double)total / 1e6);
}

static void *progress_run(void *arg)
{
    cli_progress *p = arg;
    struct timespec tick = {0, 200 * 1000 * 1000};
    while (!atomic_load(&p->stop)) {
        nanosleep(&tick, NULL);
        progress_draw(p);
    }
    return NULL;
}

cli_progress *cli_progress_start(const cli_args *a, const pw_dataset *ds, const char *what)
{
    if (a->quiet || !isatty(STDERR_FILENO))
        return NULL;
    cli_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->ds = ds;
    p->what = what;
    atomic_init(&p->stop, 0);
    if (pthread_create(&p->thread, NULL, progress_run, p) != 0) {
        free(p);
        return NULL;
    }
    return p;
}

void cli_progress_stop(cli_progress *p)
{
    if (!p)
        return;
    atomic_store(&p->stop, 1);
    pthread_join(p->thread, NULL);
    fprintf(stderr, "\r\033[K");
    free(p);
}
