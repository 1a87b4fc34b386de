/* svg_sink.c — the "svg" plot sink: SVG charts of the energy analysis
 * (svg_energy.c), `stats --plot DIR`. */
#include "sinks/sink.h"
#include "sinks/svg/svg_energy.h"

static const pw_sink_plot svg_plot = {.begin = svg_energy_begin, .end = svg_energy_end};

const pw_sink_ops pw_sink_svg = {
    .name = "svg",
    .caps = PW_SINK_DIRECTORY,
    .description = "SVG charts: power over time per repetition, energy vs time per benchmark",
    .plot = &svg_plot,
};
