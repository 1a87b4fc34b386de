/* energy_analysis.c — energy from power samples as a registered analysis:
 * per repetition, phase, run and setting of a benchmark campaign whose
 * format describes its power measurements (model/energy_layout.h); split
 * over shares by repetition (energy_part.c). */
#include "analysis/analysis.h"
#include "analysis/energy/energy.h"

const pw_analysis_ops pw_analysis_energy = {
    .name = "energy",
    .description = "energy per repetition, phase, run and setting from power samples; EDP, optima, Pareto front",
    .report = energy_report,
    .part = energy_part,
    .join = energy_join,
    .tables = energy_table_decls,
};
