/* fuzz_gpupower_time.c — the timestamp, number and run-name parsers on
 * arbitrary bytes (no file needed: they parse a cell in memory). */
#include <string.h>

#include "formats/gpupower/gpupower.h"
#include "formats/gpupower/gpupower_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const zones[] = {"local", "UTC", "+01:00", "-0530"};
    gp_tz tz;
    gp_tz_parse(zones[size % 4], &tz);
    gp_time_cache cache = {0};
    int64_t ns, i;
    double d;
    (void)gp_parse_time((const char *)data, size, &tz, &cache, &ns);
    (void)gp_parse_double((const char *)data, size, &d);
    (void)gp_parse_int((const char *)data, size, &i);
    char name[64];
    size_t n = size < sizeof name - 1 ? size : sizeof name - 1;
    memcpy(name, data, n);
    name[n] = '\0';
    gp_rep rep;
    memset(&rep, 0, sizeof rep);
    gp_parse_run_name(name, &rep);
    return 0;
}
