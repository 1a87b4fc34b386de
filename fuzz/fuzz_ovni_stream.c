/* fuzz_ovni_stream.c — the ovni stream decoder on arbitrary bytes: the
 * input is one stream file, read as a lone stream. */
#include "input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write("loom.x/proc.1/thread.1/stream.obs", data, size);
    fuzz_read_all(path, "ovni", size);
    return 0;
}
