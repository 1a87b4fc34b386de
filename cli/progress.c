/* progress.c — a progress bar on stderr for long work: bytes read out of
 * the total, the rate and the time left, polled from the dataset by a
 * thread of its own. */
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
    struct timespec start;
};

static double seconds_since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* "1:05" or "2:03:07": the time left at the rate so far. */
static void time_left_text(double s, char *out, size_t n)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(out, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(out, n, "%ld:%02ld", t / 60, t % 60);
}

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
    double elapsed = seconds_since(&p->start), rate = elapsed > 0 ? (double)done / elapsed : 0;
    char left[32] = "?";
    if (rate > 0)
        time_left_text((double)(total - done) / rate, left, sizeof left);
    fprintf(stderr, "\r%s [%s] %3d%%  %.1f / %.1f MB  %.1f MB/s  %s left\033[K", p->what, bar,
            (int)(done * 100 / total), (double)done / 1e6, (double)total / 1e6, rate / 1e6, left);
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
    clock_gettime(CLOCK_MONOTONIC, &p->start);
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
