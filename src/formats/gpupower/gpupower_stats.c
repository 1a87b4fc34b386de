/* gpupower_stats.c — the format's own part of `stats`: how the tree was
 * read (the options that change its figures).  The figures themselves,
 * energy per repetition, run and benchmark, come from the energy analysis
 * (src/analysis/energy/) through the layout gpupower_energy.c describes. */
#include "formats/gpupower/gpupower.h"

pw_status gp_stats(pw_dataset *ds, pw_report *r, pw_error *err)
{
    (void)err;
    const gp_dataset *gd = ds->impl;
    pw_rnode *tree = pw_rnode_object(pw_report_root(r), "tree");
    pw_rnode_str(tree, "format", "gpupower");
    pw_rnode_str(tree, "path", ds->path);
    pw_rnode_str(tree, "external_unit", gd->external_unit);
    pw_rnode_str(tree, "tz", gd->tz_text);
    pw_rnode_bool(tree, "baseline_subtracted", gd->subtract_baseline);
    return PW_OK;
}

static const pw_table_decl tree = {
    "tree", "GPU power tree", "the tree read and how: the unit of external meters, the time zone, baselines",
    "one row",
    {{"format", "", 0}, {"path", "", 0}, {"external_unit", "", 0}, {"tz", "", 0}, {"baseline_subtracted", "", 0}}};

const pw_table_decl *const gp_table_decls[] = {&tree, NULL};
