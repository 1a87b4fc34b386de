/* fuzz_gpupower_tree.c — a whole repetition from arbitrary bytes: the
 * input is cut at NUL bytes into timestamps.csv, gpu-power.csv,
 * power-external.csv, total_power_samples.csv and system_info.json. */
#include <stdio.h>
#include <string.h>

#include "input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const files[] = {"timestamps.csv", "gpu-power.csv", "power-external.csv",
                                        "total_power_samples.csv", "system_info.json"};
    size_t start = 0;
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        const uint8_t *nul = start < size ? memchr(data + start, 0, size - start) : NULL;
        size_t end = nul ? (size_t)(nul - data) : size;
        char name[128];
        snprintf(name, sizeof name, "e/b/877MHz,1065MHz/0/%s", files[f]);
        fuzz_write(name, data + start, start < size ? end - start : 0);
        start = end + 1;
    }
    char dir[512];
    snprintf(dir, sizeof dir, "%s/e/b/877MHz,1065MHz/0", fuzz_tempdir());
    fuzz_read_all(dir, "gpupower", size);
    return 0;
}
