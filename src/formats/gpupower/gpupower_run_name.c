/* gpupower_run_name.c — the settings a run directory's name encodes
 * (gpupower-facts.md §2): "{power_limit}W" for power-limit experiments and
 * "{mem_clock}MHz,{sm_clock}MHz" (memory clock first) for clock limits.
 * Any other name carries no settings. */
#include <string.h>

#include "formats/gpupower/gpupower.h"

/* A decimal number of 1..6 digits followed by `unit` at *p; advances *p. */
static int number_with_unit(const char **p, const char *unit, int64_t *out)
{
    const char *s = *p;
    int64_t v = 0;
    int n = 0;
    for (; (unsigned)(*s - '0') < 10 && n < 6; s++, n++)
        v = v * 10 + (*s - '0');
    size_t ul = strlen(unit);
    if (!n || strncmp(s, unit, ul))
        return -1;
    *p = s + ul;
    *out = v;
    return 0;
}

void gp_parse_run_name(const char *name, gp_rep *rep)
{
    const char *p = name;
    int64_t a, b;
    if (number_with_unit(&p, "W", &a) == 0 && !*p) {
        rep->has_power_limit = 1;
        rep->power_limit_w = a;
        return;
    }
    p = name;
    if (number_with_unit(&p, "MHz", &a) == 0 && *p++ == ',' && number_with_unit(&p, "MHz", &b) == 0 &&
        !*p) {
        rep->has_clocks = 1;
        rep->mem_clock_mhz = a;
        rep->sm_clock_mhz = b;
    }
}
