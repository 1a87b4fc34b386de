/* ovniemu_analysis.c — the ovni emulator as a registered analysis, for
 * datasets whose format says their records are emulated (property
 * "emulation"): its states (emu_states.c) for the sinks that write
 * states, their time per state for stats (split by loom over shares:
 * ovniemu_part.c), its findings for check. */
#include "analysis/analysis.h"
#include "analysis/ovniemu/emu_states.h"
#include "analysis/ovniemu/ovniemu_part.h"
#include "views/state_busy.h"
#include "views/state_times.h"
#include "views/state_totals.h"

/* What ovniemu refuses to start on (a thread that did not finish) is a
 * finding of its own. */
pw_status ovniemu_cannot_emulate(pw_dataset *ds, pw_error *err)
{
    pw_ds_diag_error(ds, PW_SEV_WARNING, "ovniemu.cannot-emulate", err);
    return PW_OK;
}

static pw_status states_report(pw_dataset *ds, pw_report *r, pw_error *err)
{
    if (!emu_states_source.offers(ds))
        return PW_OK;
    pw_status s = pw_state_times_report(ds, &emu_states_source, r, err);
    return s == PW_E_DATA ? ovniemu_cannot_emulate(ds, err) : s;
}

/* The emulation for its findings alone. */
static pw_status states_check(pw_dataset *ds, pw_error *err)
{
    if (!emu_states_source.offers(ds))
        return PW_OK;
    pw_states *st = NULL;
    pw_status s = emu_states_source.start(ds, NULL, NULL, &st, err);
    if (s == PW_OK)
        s = emu_states_source.play(st, err);
    else if (s == PW_E_DATA)
        s = ovniemu_cannot_emulate(ds, err);
    emu_states_source.release(st);
    return s == PW_E_DATA ? PW_OK : s; /* damage is in the diagnostics */
}

static const pw_table_decl *const ovniemu_tables[] = {&pw_state_busy_table, &pw_state_times_table,
                                                      &pw_state_totals_table, NULL};

const pw_analysis_ops pw_analysis_ovniemu = {
    .name = "ovniemu",
    .description = "the runtime emulator's thread and CPU states, as ovniemu derives them",
    .report = states_report,
    .part = ovniemu_part,
    .join = ovniemu_join,
    .check = states_check,
    .states = &emu_states_source,
    .tables = ovniemu_tables,
};
