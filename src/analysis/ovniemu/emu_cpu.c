/* emu_cpu.c — which thread a CPU runs (ovni src/emu/cpu.c): recomputed
 * from the states of the threads assigned to it after every change. */
#include "analysis/ovniemu/emu_system.h"

int emu_cpu_update(emu_bay *bay, emu_cpu *cpu)
{
    emu_thread *running = NULL, *active = NULL;
    int n_running = 0, n_active = 0;
    for (emu_thread *th = cpu->threads; th; th = th->cpu_next) {
        if (th->state == EMU_TH_RUNNING) {
            running = active = th;
            n_running++;
            n_active++;
        } else if (th->state == EMU_TH_COOLING || th->state == EMU_TH_WARMING) {
            active = th;
            n_active++;
        }
    }
    cpu->nth_running = n_running;
    cpu->nth_active = n_active;
    /* Only the virtual CPU may run several threads at once. */
    if (n_running > 1 && !cpu->is_virtual) {
        bay->fault = "more than one thread running on a CPU";
        return -1;
    }
    int one = n_running == 1;
    int rc = 0;
    rc |= emu_chan_set(bay, &cpu->chan[EMU_CPU_CHAN_TID], one ? emu_int(running->tid) : emu_null());
    rc |= emu_chan_set(bay, &cpu->chan[EMU_CPU_CHAN_PID], one ? emu_int(running->proc->pid) : emu_null());
    rc |= emu_chan_set(bay, &cpu->chan[EMU_CPU_CHAN_THRUN], one ? emu_int(running->gindex) : emu_null());
    rc |= emu_chan_set(bay, &cpu->chan[EMU_CPU_CHAN_NRUN], emu_int(n_running));
    rc |= emu_chan_set(bay, &cpu->chan[EMU_CPU_CHAN_THACT],
                       n_active == 1 ? emu_int(active->gindex) : emu_null());
    return rc ? -1 : 0;
}

static int on_cpu(const emu_cpu *cpu, const emu_thread *th)
{
    for (const emu_thread *p = cpu->threads; p; p = p->cpu_next)
        if (p == th)
            return 1;
    return 0;
}

int emu_cpu_add_thread(emu_bay *bay, emu_cpu *cpu, emu_thread *th)
{
    if (on_cpu(cpu, th)) {
        bay->fault = "the thread is already on the CPU";
        return -1;
    }
    /* Appended at the tail, as ovniemu keeps them. */
    emu_thread **tail = &cpu->threads;
    emu_thread *prev = NULL;
    while (*tail) {
        prev = *tail;
        tail = &(*tail)->cpu_next;
    }
    th->cpu_prev = prev;
    th->cpu_next = NULL;
    *tail = th;
    return emu_cpu_update(bay, cpu);
}

int emu_cpu_remove_thread(emu_bay *bay, emu_cpu *cpu, emu_thread *th)
{
    if (!on_cpu(cpu, th)) {
        bay->fault = "the thread is not on the CPU";
        return -1;
    }
    if (th->cpu_prev)
        th->cpu_prev->cpu_next = th->cpu_next;
    else
        cpu->threads = th->cpu_next;
    if (th->cpu_next)
        th->cpu_next->cpu_prev = th->cpu_prev;
    th->cpu_prev = th->cpu_next = NULL;
    return emu_cpu_update(bay, cpu);
}
