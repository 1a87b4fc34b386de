/* fuzz_hpctoolkit_profile.c — the HPCToolkit reader on an arbitrary profile.db
 * beside intact other files (see fuzz_hpctoolkit_db.h). */
#include "fuzz_hpctoolkit_db.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hpc_fuzz_database("profile.db", data, size);
    return 0;
}
