/* input_file.c — temporary files and the shared read-everything body. */
#include "input_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfweave.h"

const char *fuzz_tempdir(void)
{
    static char dir[256];
    if (!dir[0]) {
        const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(dir, sizeof dir, "%s/pwfuzz-%d", base, (int)getpid());
        mkdir(dir, 0700);
    }
    return dir;
}

const char *fuzz_write(const char *name, const uint8_t *data, size_t size)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", fuzz_tempdir(), name);
    for (char *p = path + strlen(fuzz_tempdir()) + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = '\0';
        mkdir(path, 0700);
        *p = '/';
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    return path;
}

void fuzz_read_all(const char *path, const char *format, size_t pick)
{
    pw_options opt = {.format = format, .threads = 1};
    pw_dataset *ds;
    pw_error e;
    if (pw_open(path, &opt, &ds, &e) != PW_OK)
        return;
    FILE *null = fopen("/dev/null", "w");
    if (null && pick % 3 < 2) {
        /* A dump reads every record and decodes every field itself. */
        pw_dump_all(ds, null, pick % 3 ? PW_DUMP_JSONL : PW_DUMP_TEXT, &e);
    } else {
        pw_merge *m;
        if (pw_merge_open(ds, &m, &e) == PW_OK) {
            const pw_record *r;
            while (pw_merge_next(m, &r, &e) == PW_OK)
                (void)pw_record_fields(r);
            pw_merge_close(m);
        }
        pw_report *rep = null ? pw_report_new() : NULL;
        if (rep && pw_stats(ds, rep, &e) == PW_OK)
            pw_report_write(rep, null, PW_REPORT_TEXT, &e);
        pw_report_free(rep);
    }
    if (null)
        fclose(null);
    pw_close(ds);
}
