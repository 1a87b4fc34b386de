/* fuzz_dumpi_bin.c — the DUMPI reader on arbitrary bytes as one rank's
 * `.bin`: index, header, footer, label records, and every record of the
 * stream decoded through the generated layouts. */
#include "input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write("trace-0000.bin", data, size);
    fuzz_read_all(path, "dumpi", size);
    return 0;
}
