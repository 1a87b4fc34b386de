/* ovniemu_analysis.c — the ovni emulator's time per state as a registered
 * analysis, for datasets whose format says their records are emulated
 * (property "emulation"). */
#include "analysis/analysis.h"

static pw_status states_report(pw_dataset *ds, pw_report *r, pw_error *err)
{
    if (!pw_dataset_prop_get(ds, "emulation"))
        return PW_OK;
    return pw_emu_stats(ds, r, err);
}

static pw_status states_check(pw_dataset *ds, pw_error *err)
{
    if (!pw_dataset_prop_get(ds, "emulation"))
        return PW_OK;
    pw_status s = pw_emu_check(ds, err);
    return s == PW_E_DATA ? PW_OK : s; /* damage is in the diagnostics */
}

const pw_analysis_ops pw_analysis_ovniemu = {
    .name = "ovniemu",
    .description = "the runtime emulator's thread and CPU states, as ovniemu derives them",
    .report = states_report,
    .check = states_check,
};
