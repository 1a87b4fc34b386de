/* gpupower_stats.c — the format's own part of `stats`: how the tree was
 * read (the options that change its figures).  The figures themselves,
 * energy per repetition, run and benchmark, come from the energy analysis
 * (src/analysis/energy/) through the layout gpupower_energy.c describes. */
#include "formats/gpupower/gpupower.h"

pw_status gp_stats(pw_dataset *ds, pw_report *r, pw_error *err)
{
    (void)err;
    const gp_dataset *gd = ds->impl;
    pw_rnode *root = pw_report_root(r);
    pw_rnode_str(root, "format", "gpupower");
    pw_rnode_str(root, "path", ds->path);
    pw_rnode_str(root, "external_unit", gd->external_unit);
    pw_rnode_str(root, "tz", gd->tz_text);
    pw_rnode_bool(root, "baseline_subtracted", gd->subtract_baseline);
    return PW_OK;
}
