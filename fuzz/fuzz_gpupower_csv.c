/* fuzz_gpupower_csv.c — the CSV reader on arbitrary bytes: the input is
 * gpu-power.csv of a repetition whose other files are fixed, so the header
 * mapping, row parsing and the energy pass all see it. */
#include <stdio.h>

#include "input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char timestamps[] = "timestamp,event,data\n"
                                     "2020-03-16 12:00:00,experiment_begin,\n"
                                     "2020-03-16 12:00:01,epoch_begin,0\n"
                                     "2020-03-16 12:00:02,epoch_end,0\n"
                                     "2020-03-16 12:00:03,experiment_end,\n";
    fuzz_write("exp/bench/150W/0/timestamps.csv", (const uint8_t *)timestamps, sizeof timestamps - 1);
    fuzz_write("exp/bench/150W/0/gpu-power.csv", data, size);
    char dir[512];
    snprintf(dir, sizeof dir, "%s/exp/bench/150W/0", fuzz_tempdir());
    fuzz_read_all(dir, "gpupower", size);
    return 0;
}
