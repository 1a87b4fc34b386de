/* fuzz_hpctoolkit_xml.c — the prototype's experiment.xml reader (expat) on
 * arbitrary bytes; profile.db is only its 16-byte magic, so the parse runs
 * to the end and opening then stops at the profiles. */
#include "input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int written;
    if (!written++)
        fuzz_write("proto/profile.db", (const uint8_t *)"HPCPROF-profdb__", 16);
    const char *path = fuzz_write("proto/experiment.xml", data, size);
    fuzz_read_all(path, "hpctoolkit", size);
    return 0;
}
