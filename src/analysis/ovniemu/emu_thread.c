/* emu_thread.c — thread state and CPU assignment, as the ovni model keeps
 * them (ovni src/emu/thread.c): the state channel selects what the
 * thread's tracking muxes show, the TID channel names the thread while it
 * is active, the CPU channel its CPU (written one-based). */
#include "analysis/ovniemu/emu_thread.h"

#include "analysis/ovniemu/emu_system.h"

void emu_thread_init_chans(emu_thread *th)
{
    emu_chan_init(&th->chan[EMU_TH_CHAN_CPU], "cpu_gindex", 0);
    emu_chan_init(&th->chan[EMU_TH_CHAN_TID], "tid_active", 0);
    emu_chan_init(&th->chan[EMU_TH_CHAN_STATE], "state", 0);
    /* Running -> Cooling keeps the thread active: the TID repeats. */
    th->chan[EMU_TH_CHAN_TID].ignore_dup = 1;
    emu_chan_bind(&th->chan[EMU_TH_CHAN_CPU], EMU_VIEW_THREAD, th->gindex, EMU_PRV_THREAD_CPU,
                  EMU_PRV_NEXT);
    emu_chan_bind(&th->chan[EMU_TH_CHAN_TID], EMU_VIEW_THREAD, th->gindex, EMU_PRV_THREAD_TID, 0);
    emu_chan_bind(&th->chan[EMU_TH_CHAN_STATE], EMU_VIEW_THREAD, th->gindex, EMU_PRV_THREAD_STATE,
                  EMU_PRV_SKIPDUP);
}

int emu_thread_set_state(emu_bay *bay, emu_thread *th, int state)
{
    if (!th->cpu) {
        bay->fault = "the thread has no CPU";
        return -1;
    }
    th->state = state;
    th->is_running = state == EMU_TH_RUNNING;
    th->is_active = state == EMU_TH_RUNNING || state == EMU_TH_COOLING || state == EMU_TH_WARMING;
    if (emu_chan_set(bay, &th->chan[EMU_TH_CHAN_STATE], emu_int(state)) != 0)
        return -1;
    return emu_chan_set(bay, &th->chan[EMU_TH_CHAN_TID], th->is_active ? emu_int(th->tid) : emu_null());
}

int emu_thread_set_cpu(emu_bay *bay, emu_thread *th, emu_cpu *cpu)
{
    if (th->cpu) {
        bay->fault = "the thread already has a CPU";
        return -1;
    }
    th->cpu = cpu;
    return emu_chan_set(bay, &th->chan[EMU_TH_CHAN_CPU], emu_int(cpu->gindex));
}

int emu_thread_unset_cpu(emu_bay *bay, emu_thread *th)
{
    if (!th->cpu) {
        bay->fault = "the thread has no CPU";
        return -1;
    }
    th->cpu = NULL;
    return emu_chan_set(bay, &th->chan[EMU_TH_CHAN_CPU], emu_null());
}

int emu_thread_migrate_cpu(emu_bay *bay, emu_thread *th, emu_cpu *cpu)
{
    if (!th->cpu) {
        bay->fault = "the thread has no CPU";
        return -1;
    }
    th->cpu = cpu;
    return emu_chan_set(bay, &th->chan[EMU_TH_CHAN_CPU], emu_int(cpu->gindex));
}
