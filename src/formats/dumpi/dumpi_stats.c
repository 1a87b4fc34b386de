/* placeholder replaced below */
#include "formats/dumpi/dumpi.h"
pw_status dumpi_stats(pw_dataset *ds, pw_report *r, pw_error *err) { return pw_stats_generic(ds, r, err); }
