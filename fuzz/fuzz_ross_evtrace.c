/* fuzz_ross_evtrace.c — the ROSS event-trace reader on arbitrary bytes. */
#include "input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write("run-evtrace.bin", data, size);
    fuzz_read_all(path, "ross", size);
    return 0;
}
