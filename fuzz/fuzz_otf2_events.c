/* fuzz_otf2_events.c — the OTF2 reader (our side of libotf2: callbacks,
 * definition tables, decode, check, stats with the MPI calls its wait
 * states assemble from the events) on arbitrary bytes as the
 * event file of location 0, in an archive whose anchor and definitions
 * are the Pipit ping-pong archive's (PW_FUZZ_OTF2_BACKDROP), copied once.
 * libotf2 itself is not instrumented; what it cannot survive is said in
 * docs/otf2.md. */
#include <stdio.h>
#include <stdlib.h>

#include "input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The backdrop's file `name` copied into the temporary archive. */
static void copy_backdrop(const char *name)
{
    char path[1024];
#ifdef PW_FUZZ_OTF2_BACKDROP
    snprintf(path, sizeof path, "%s/%s", PW_FUZZ_OTF2_BACKDROP, name);
#else
    snprintf(path, sizeof path, "%s", name);
#endif
    FILE *f = fopen(path, "rb");
    if (!f)
        abort(); /* the harness cannot run without its backdrop */
    static uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    char dst[256];
    snprintf(dst, sizeof dst, "archive/%s", name);
    fuzz_write(dst, buf, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        const char *files[] = {"traces.otf2", "traces.def", "traces/0.def", "traces/1.def", "traces/1.evt"};
        for (size_t i = 0; i < sizeof files / sizeof *files; i++)
            copy_backdrop(files[i]);
        ready = 1;
    }
    fuzz_write("archive/traces/0.evt", data, size);
    char anchor[512];
    snprintf(anchor, sizeof anchor, "%s/archive/traces.otf2", fuzz_tempdir());
    fuzz_read_all(anchor, "otf2", size);
    return 0;
}
