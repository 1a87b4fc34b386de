/* fuzz_ross_samples.c — the ROSS sample files on arbitrary bytes: the
 * input's length picks the file kind (gvt engine samples, analysis-lps
 * with its two header forms, model samples), so every seed exercises all
 * three parsers as the fuzzer grows and shrinks it. */
#include "input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"run-gvt.bin", "run-analysis-lps.bin", "run-model.bin"};
    const char *path = fuzz_write(names[size % 3], data, size);
    fuzz_read_all(path, "ross", size / 3); /* size % 3 picked the kind */
    return 0;
}
