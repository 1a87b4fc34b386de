/* fuzz_hpctoolkit_db.h — the HPCToolkit harnesses fuzz one file of a
 * database at a time: the input becomes that file, the other files come
 * intact from a small database (PW_FUZZ_HPC_BACKDROP, the 8 KB released
 * fixture small_v4.0, so that a run reads little besides the input; else
 * examples/hpctoolkit/synthetic, found from this source's own path), and
 * the whole database is read, summarised and checked. */
#ifndef PW_FUZZ_HPCTOOLKIT_DB_H
#define PW_FUZZ_HPCTOOLKIT_DB_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input_file.h"
#include "perfweave.h"

static const char *const hpc_fuzz_files[] = {"meta.db", "profile.db", "cct.db", "trace.db"};

static void hpc_fuzz_copy_example(const char *name)
{
    char path[4096];
#ifdef PW_FUZZ_HPC_BACKDROP
    snprintf(path, sizeof path, "%s/%s", PW_FUZZ_HPC_BACKDROP, name);
#else
    const char *src = __FILE__, *slash = strrchr(src, '/');
    int dir_len = slash ? (int)(slash - src) : 1;
    snprintf(path, sizeof path, "%.*s/../examples/hpctoolkit/synthetic/%s", dir_len,
             slash ? src : ".", name);
#endif
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    static uint8_t buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    char dst[64];
    snprintf(dst, sizeof dst, "db/%s", name);
    fuzz_write(dst, buf, n);
}

static void hpc_fuzz_database(const char *victim, const uint8_t *data, size_t size)
{
    static int copied;
    if (!copied++)
        for (size_t i = 0; i < sizeof hpc_fuzz_files / sizeof *hpc_fuzz_files; i++)
            if (strcmp(hpc_fuzz_files[i], victim))
                hpc_fuzz_copy_example(hpc_fuzz_files[i]);
    char name[64];
    snprintf(name, sizeof name, "db/%s", victim);
    const char *path = fuzz_write(name, data, size);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = '\0';
    /* One pass per input: a read through the writers, or (a quarter of
     * the inputs) the deep check with frames. */
    if (size % 4 != 3) {
        fuzz_read_all(dir, "hpctoolkit", size - size / 4); /* 3q + r, r < 3 */
        return;
    }
    pw_option_kv kv = {"hpctoolkit.frames", "1"};
    pw_options opt = {.format = "hpctoolkit", .threads = 1, .n_kv = 1, .kv = &kv};
    pw_dataset *ds;
    pw_error e;
    if (pw_open(dir, &opt, &ds, &e) == PW_OK) {
        pw_check(ds, &e);
        pw_close(ds);
    }
}
#endif
