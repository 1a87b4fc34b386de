/* svg_energy.h — the energy analysis's charts as SVG files (svg_energy.c). */
#ifndef PW_SINKS_SVG_ENERGY_H
#define PW_SINKS_SVG_ENERGY_H
#include "model/dataset.h"

/* Watches the energy analysis of ds (ds->run->energy_watch) and draws into dir;
 * *state stays NULL for a dataset without an energy layout. */
pw_status svg_energy_begin(pw_dataset *ds, const char *dir, void **state, pw_error *err);
/* The energy/time charts (when ok), then frees state. */
pw_status svg_energy_end(void *state, int ok, pw_error *err);
#endif
