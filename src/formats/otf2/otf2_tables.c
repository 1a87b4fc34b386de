/* otf2_tables.c — the declarations of the OTF2 summary's tables (the MPI
 * profile's are the mpi_profile analysis's). */
#include "formats/otf2/otf2.h"

static const pw_table_decl overview = {
    "overview", "OTF2 at a glance",
    "locations and events read, the trace's span, and the region of most exclusive time with its share", "one row",
    {{"locations", "count", 0},
     {"events", "count", 0},
     {"span_s", "s", 0},
     {"top_region", "", 0},
     {"top_region_exclusive_s", "s", 0},
     {"top_region_pct", "%", 0}}};

static const pw_table_decl per_location = {
    "per_location", "events per location", "events and clock range of each location with events", "location",
    {{"location", "", 1}, {"events", "count", 0}, {"first_ns", "ns", 0}, {"last_ns", "ns", 0}}};

static const pw_table_decl per_region = {
    "per_region", "time per region",
    "visits and inclusive and exclusive time of each region over every location (Cube's flat profile)",
    "exclusive time, largest first",
    {{"region", "", 1}, {"calls", "count", 0}, {"inclusive_s", "s", 0}, {"exclusive_s", "s", 0}}};

const pw_table_decl *const ot_table_decls[] = {&overview, &per_location, &per_region, NULL};
