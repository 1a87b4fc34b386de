/* fuzz_ovni_metadata.c — ovni metadata parsing: the input becomes the
 * stream.json of a v3 trace (and the metadata.json of a v2 one) whose
 * streams are small and valid. */
#include <string.h>

#include "input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Header, then OHx (cpu 0, tid -1, tag 0) and OHe. */
static const uint8_t stream[] = {
    'o', 'v', 'n', 'i', 1, 0, 0, 0,
    0x0f, 'O', 'H', 'x', 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff,
    0, 0, 0, 0, 0, 0, 0, 0,
    0x00, 'O', 'H', 'e', 2, 0, 0, 0, 0, 0, 0, 0};

/* The input is the metadata of one layout per run, v3 or v2 by the size's
 * parity (each run costs one read; both layouts see half the inputs). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char dir[512];
    if (size % 2 == 0) {
        fuzz_write("v3/ovni/loom.x/proc.1/thread.1/stream.obs", stream, sizeof stream);
        fuzz_write("v3/ovni/loom.x/proc.1/thread.1/stream.json", data, size);
        strcpy(dir, fuzz_write("v3/marker", data, 0));
        *strrchr(dir, '/') = '\0';
        fuzz_read_all(dir, "ovni", size / 2);
        return 0;
    }
    fuzz_write("v2/ovni/loom.x/proc.1/thread.1.obs", stream, sizeof stream);
    fuzz_write("v2/ovni/loom.x/proc.1/thread.1.json", data, size);
    fuzz_write("v2/ovni/loom.x/proc.1/metadata.json", data, size);
    strcpy(dir, fuzz_write("v2/marker", data, 0));
    *strrchr(dir, '/') = '\0';
    fuzz_read_all(dir, "ovni", size / 2);
    return 0;
}
