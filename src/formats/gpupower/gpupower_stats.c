#include "formats/gpupower/gpupower.h"
pw_status gp_stats(pw_dataset *ds, pw_report *r, pw_error *err) { return pw_stats_generic(ds, r, err); }
