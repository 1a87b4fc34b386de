/* energy_layout.c — the units a format may give its power and energy
 * fields in, as the energy analysis and its charts read them. */
#include <string.h>

#include "model/energy_layout.h"

double pw_energy_si_factor(const char *unit)
{
    static const struct {
        const char *unit;
        double factor;
    } units[] = {{"W", 1.0}, {"J", 1.0}, {"mW", 0.001}, {"mJ", 0.001}, {"cW", 0.01}, {"kW", 1000.0},
                 {"kJ", 1000.0}};
    for (size_t i = 0; unit && i < sizeof units / sizeof *units; i++)
        if (!strcmp(unit, units[i].unit))
            return units[i].factor;
    return 0;
}
