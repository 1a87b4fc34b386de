/* fuzz_hpctoolkit_cct.c — the HPCToolkit reader on an arbitrary cct.db
 * beside intact other files (see fuzz_hpctoolkit_db.h). */
#include "fuzz_hpctoolkit_db.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hpc_fuzz_database("cct.db", data, size);
    return 0;
}
