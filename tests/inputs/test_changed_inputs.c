/* test_changed_inputs.c — a file that changes while perfweave reads it is
 * a system fault naming the file (PW_E_IO, exit 3), never a shorter trace
 * (issue #13, item 5):
 *  - cut, grown or touched between pw_open and the read of its records,
 *    in every format (the cursor compares with the identity seen at open);
 *  - cut while a window reads it (the window checks at an unexpected end).
 * Datasets are copied to a temporary directory first. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/window.h"
#include "harness.h"
#include "perfweave.h"

static char tmpdir[] = "/tmp/pw-changed-XXXXXX";

/* Copies src to tmpdir/name (fresh) and returns the copy's path. */
static const char *copy_dataset(const char *src, const char *name)
{
    static char dst[1024];
    char cmd[4096];
    snprintf(dst, sizeof dst, "%s/%s", tmpdir, name);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s' '%s'", dst, src, dst);
    CHECK(system(cmd) == 0);
    return dst;
}

typedef enum { CUT, GROW, TOUCH } change;

static void apply(const char *file, change how)
{
    struct stat st;
    CHECK(stat(file, &st) == 0);
    if (how == CUT)
        CHECK(truncate(file, st.st_size / 2) == 0);
    else if (how == GROW)
        CHECK(truncate(file, st.st_size + 100) == 0);
    else {
        struct timespec t[2] = {{0, UTIME_OMIT}, {st.st_mtim.tv_sec - 1000, 0}};
        CHECK(utimensat(AT_FDCWD, file, t, 0) == 0);
    }
}

/* Opens ds_path, changes victim, checks: a system fault naming victim. */
static void changed_after_open(const char *ds_path, const char *victim, change how,
                               const pw_option_kv *kv)
{
    pw_options opt = {0};
    opt.threads = 1;
    opt.kv = kv;
    opt.n_kv = kv ? 1 : 0;
    pw_dataset *ds = NULL;
    pw_error err;
    CHECK(pw_open(ds_path, &opt, &ds, &err) == PW_OK);
    if (!ds) {
        fprintf(stderr, "  %s\n", err.message);
        return;
    }
    apply(victim, how);
    /* Either check itself ends with the fault, or a finding carries it. */
    pw_status s = pw_check(ds, &err);
    int named = s == PW_E_IO && strstr(err.message, victim) && strstr(err.message, "changed");
    CHECK(s != PW_OK);
    CHECK(named || pw_dataset_system_fault(ds));
    for (size_t i = 0; i < pw_dataset_diag_count(ds); i++) {
        const pw_diag *d = pw_dataset_diag(ds, i);
        named |= d->file && !strcmp(d->file, victim) && strstr(d->message, "changed");
    }
    if (!named) {
        fprintf(stderr, "  nothing names %s as changed (check: %s); findings:\n", victim,
                err.message);
        for (size_t i = 0; i < pw_dataset_diag_count(ds); i++)
            fprintf(stderr, "    %s\n", pw_dataset_diag(ds, i)->message);
    }
    CHECK(named);
    pw_close(ds);
}

static void each_change(const char *src, const char *name, const char *victim_rel,
                        const pw_option_kv *opts)
{
    static const change all[] = {CUT, GROW, TOUCH};
    for (size_t i = 0; i < 3; i++) {
        const char *ds = copy_dataset(src, name);
        char victim[2048];
        snprintf(victim, sizeof victim, "%s/%s", ds, victim_rel);
        changed_after_open(ds, victim, all[i], opts);
    }
}

static void test_dumpi(void)
{
    each_change(PW_SHARED_DATA "/dumpi/pingpong4", "dumpi",
                "pingpong-2026.11.21.22.45.31-0001.bin", NULL);
}

static void test_ross(void)
{
    const char *src = PW_SHARED_DATA "/ross/known-np4-gvt-model-evtrace";
    each_change(src, "ross", "known-np4-gvt-model-evtrace-evtrace.bin", NULL);
    each_change(src, "ross", "known-np4-gvt-model-evtrace-gvt.bin", NULL);
}

static void test_ovni(void)
{
    each_change(PW_SHARED_DATA "/ovni/emu-1.4.1", "ovni",
                "ovni/loom.nodeA/proc.6256/thread.6256.obs", NULL);
}

static void test_hpctoolkit(void)
{
    const char *src = PW_SHARED_DATA "/hpctoolkit/pipit/ping-pong-hpctoolkit@05d9563-v4";
    each_change(src, "hpc", "trace.db", NULL);
    each_change(src, "hpc", "profile.db", NULL);
}

static void test_gpupower(void)
{
    char gen[1024], cmd[4096];
    snprintf(gen, sizeof gen, "%s/gp", tmpdir);
    snprintf(cmd, sizeof cmd, "python3 '%s' '%s' --seconds 10 >/dev/null", PW_GPUPOWER_GEN, gen);
    CHECK(system(cmd) == 0);
    char tree[1100];
    snprintf(tree, sizeof tree, "%s/tree", gen);
    static const pw_option_kv tz[] = {{"tz", "+01:00"}};
    each_change(tree, "gptree", "clock-limit/resnet/877MHz,1065MHz/0/gpu-power.csv", tz);
}

/* A file cut while a window is part-way through it: the next refill
 * meets the end early and says the file changed, naming it. */
static void test_window_cut_while_read(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/cut-while-read.bin", tmpdir);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    for (int i = 0; i < 100000; i++)
        fputc(i & 0xff, f);
    fclose(f);
    pw_window w;
    pw_error err;
    const uint8_t *p;
    CHECK(pw_window_open(&w, path, 4096, 4096, &err) == PW_OK);
    CHECK(pw_window_need(&w, 0, 4096, &p, &err) == PW_OK);
    CHECK(truncate(path, 50000) == 0);
    pw_status s = PW_OK;
    uint64_t off = 4096;
    while (s == PW_OK && off < 100000) {
        s = pw_window_need(&w, off, 1000, &p, &err);
        off += 1000;
    }
    CHECK_EQ_INT(s, PW_E_IO);
    CHECK(strstr(err.message, path) != NULL);
    pw_window_close(&w);
}

int main(void)
{
    static const harness_test tests[] = {T(test_window_cut_while_read), T(test_dumpi), T(test_ross),
                                         T(test_ovni), T(test_hpctoolkit), T(test_gpupower)};
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    int rc = harness_run(tests, sizeof tests / sizeof *tests);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}
