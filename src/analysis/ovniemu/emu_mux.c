/* emu_mux.c — outputs that follow the input their select chooses. */
#include "analysis/ovniemu/emu_mux.h"

#include <stddef.h>

#include "analysis/ovniemu/emu_thread.h"

int emu_mux_init(emu_mux *m, emu_chan *select, emu_chan *output, emu_mux_select_fn choose)
{
    /* Propagation sets an output without emu_chan_set's checks and emits
     * it as it copies it (emu_chan.c): a stack's pushed values would be
     * left behind, a second mux would overwrite the first's value
     * unnoticed, and followers of its own would not be run. */
    if (output->is_stack || output->mux_output || output->n_subs)
        return -1;
    output->mux_output = 1;
    output->walk = 1;
    m->select = select;
    m->output = output;
    m->choose = choose;
    m->selected = NULL;
    m->def = emu_null();
    output->dirty_write = 1;
    output->allow_dup = 1;
    return emu_chan_subscribe(select, m, 0);
}

static int thread_state_selects(const emu_mux *m, emu_value key, emu_chan **input, int active)
{
    *input = NULL;
    if (key.null)
        return 0;
    if (key.i == EMU_TH_RUNNING || (active && (key.i == EMU_TH_COOLING || key.i == EMU_TH_WARMING)))
        *input = m->input;
    return 0;
}

int emu_select_running(const emu_mux *m, emu_value key, emu_chan **input)
{
    return thread_state_selects(m, key, input, 0);
}

int emu_select_active(const emu_mux *m, emu_value key, emu_chan **input)
{
    return thread_state_selects(m, key, input, 1);
}

int emu_select_index(const emu_mux *m, emu_value key, emu_chan **input)
{
    *input = NULL;
    if (key.null)
        return 0;
    *input = m->chan_of(m, key.i);
    return *input ? 0 : -1;
}

int emu_mux_on_select(emu_bay *bay, emu_mux *m)
{
    if (m->selected) {
        emu_chan_unsubscribe(m->selected, m, 1);
        m->selected = NULL;
    }
    emu_chan *input = NULL;
    if (m->choose(m, emu_chan_read(m->select), &input) != 0) {
        if (!bay->fault) {
            bay->fault = "the select value chooses no input";
            bay->fault_chan = m->output->name;
        }
        return -1;
    }
    if (input) {
        if (emu_chan_subscribe(input, m, 1) != 0)
            return -1;
        m->selected = input;
    }
    return emu_chan_set(bay, m->output, input ? emu_chan_read(input) : m->def);
}
