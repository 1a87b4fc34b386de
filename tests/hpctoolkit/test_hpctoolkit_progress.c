/* test_hpctoolkit_progress.c — the progress counter moves while stats and
 * a full read sweep profile.db and trace.db (the CLI's progress bar), and
 * stays within the bytes those files hold per sweep. */
#include <stdio.h>

#include "harness.h"
#include "perfweave.h"

static const char *shared_dir;

static void progress_of(const char *fixture)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", shared_dir, fixture);
    pw_options opt = {.threads = 1};
    pw_dataset *ds;
    pw_error err;
    CHECK_EQ_INT(pw_open(path, &opt, &ds, &err), PW_OK);
    if (!ds)
        return;
    uint64_t done, total;
    pw_dataset_progress(ds, &done, &total);
    CHECK(total > 0);
    CHECK_EQ_INT((long)done, 0);
    pw_report *r = pw_report_new();
    CHECK_EQ_INT(pw_stats(ds, r, &err), PW_OK);
    pw_report_free(r);
    uint64_t after_stats;
    pw_dataset_progress(ds, &after_stats, &total);
    CHECK(after_stats > 0);
    CHECK_EQ_INT(pw_check(ds, &err), PW_OK);
    pw_dataset_progress(ds, &done, &total);
    CHECK(done > after_stats);
    pw_close(ds);
}

static void small_d(void) { progress_of("hpctoolkit/hpctoolkit/tests-data-dbase@f9abaf11f/small.d"); }
static void cuda(void) { progress_of("hpctoolkit/hpctoolkit/tests-data-dbase@f9abaf11f/loops-cuda-nvidia-t.d"); }

int main(int argc, char **argv)
{
    shared_dir = argc > 1 ? argv[1] : "";
    static const harness_test tests[] = {T(small_d), T(cuda)};
    return harness_run(tests, sizeof tests / sizeof *tests);
}
