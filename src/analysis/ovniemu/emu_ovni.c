/* emu_ovni.c — the ovni model (ovni src/emu/ovni/event.c, setup.c; doc
 * user/emulation/ovni.md): thread life (OH*), affinity (OA*), buffer
 * flushes (OF*), and marks (OM*, emu_mark.c).  Bursts, OCn and the
 * unordered-region markers change no channel. */
#include "analysis/ovniemu/emu_mark.h"
#include "analysis/ovniemu/emu_tracks.h"

#define SLOT_OVNI 0
enum { CH_FLUSH, CH_MAX };

static const emu_label flushing[] = {{1, "Flushing"}, {0, NULL}};

static const emu_chan_spec ovni_chans[CH_MAX] = {
    [CH_FLUSH] = {"flush", 0, 0, 7, "Flushing ovni buffer", flushing, EMU_PRV_SKIPDUP,
                  EMU_TRACK_ANY, EMU_TRACK_RUN, 0},
};

static int fail(emu *e, const char *what)
{
    e->fault = what;
    return -1;
}

/* OHx: the thread starts on the CPU of the given index. */
static int thread_execute(emu *e, emu_ev *ev)
{
    emu_thread *th = e->th;
    if (th->state == EMU_TH_RUNNING)
        return fail(e, "cannot execute a thread that is already running");
    int ok = 1;
    int64_t index = emu_ev_int(ev, 0, &ok);
    if (!ok)
        return fail(e, "missing payload in the execute event");
    emu_cpu *cpu = emu_loom_cpu(th->proc->loom, index);
    if (!cpu)
        return fail(e, "no CPU with that index in the loom");
    if (emu_thread_set_cpu(&e->bay, th, cpu) || emu_thread_set_state(&e->bay, th, EMU_TH_RUNNING))
        return -1;
    return emu_cpu_add_thread(&e->bay, cpu, th);
}

static int thread_end(emu *e)
{
    emu_thread *th = e->th;
    if (th->state != EMU_TH_RUNNING && th->state != EMU_TH_COOLING)
        return fail(e, "cannot end a thread that is not running or cooling");
    emu_cpu *cpu = th->cpu;
    if (emu_thread_set_state(&e->bay, th, EMU_TH_DEAD) || emu_cpu_remove_thread(&e->bay, cpu, th))
        return -1;
    return emu_thread_unset_cpu(&e->bay, th);
}

/* The transitions that only change the state: allowed sources, target. */
typedef struct state_rule {
    char v;
    unsigned from; /* bit mask of allowed states */
    int to;
    const char *refusal;
} state_rule;

#define BIT(s) (1u << (s))
static const state_rule state_rules[] = {
    {'p', BIT(EMU_TH_RUNNING) | BIT(EMU_TH_COOLING), EMU_TH_PAUSED,
     "cannot pause a thread that is not running or cooling"},
    {'r', BIT(EMU_TH_PAUSED) | BIT(EMU_TH_WARMING), EMU_TH_RUNNING,
     "cannot resume a thread that is not paused or warming"},
    {'c', BIT(EMU_TH_RUNNING), EMU_TH_COOLING, "cannot cool a thread that is not running"},
    {'w', BIT(EMU_TH_PAUSED), EMU_TH_WARMING, "cannot warm a thread that is not paused"},
};

static int thread_event(emu *e, emu_ev *ev)
{
    switch (ev->v) {
    case 'C':
        return 0;
    case 'x':
        return thread_execute(e, ev);
    case 'e':
        return thread_end(e);
    }
    for (size_t i = 0; i < sizeof state_rules / sizeof *state_rules; i++) {
        const state_rule *r = &state_rules[i];
        if (r->v != ev->v)
            continue;
        if (!(r->from & BIT(e->th->state)))
            return fail(e, r->refusal);
        if (emu_thread_set_state(&e->bay, e->th, r->to))
            return -1;
        return emu_cpu_update(&e->bay, e->th->cpu);
    }
    return fail(e, "unknown thread event");
}

/* Moves th to the CPU of `index` in its loom. */
static int migrate(emu *e, emu_thread *th, int64_t index, int skip_same)
{
    emu_cpu *cpu = emu_loom_cpu(th->proc->loom, index);
    if (!cpu)
        return fail(e, "no CPU with that index in the loom");
    if (skip_same && cpu == th->cpu)
        return 0;
    if (emu_cpu_remove_thread(&e->bay, th->cpu, th) || emu_cpu_add_thread(&e->bay, cpu, th))
        return -1;
    return emu_thread_migrate_cpu(&e->bay, th, cpu);
}

static int affinity_event(emu *e, emu_ev *ev)
{
    int ok = 1;
    int64_t index = emu_ev_int(ev, 0, &ok);
    if (ev->v == 's') {
        if (!ok)
            return fail(e, "unexpected payload size");
        if (!e->th->cpu)
            return fail(e, "the thread has no CPU");
        if (!e->th->is_active)
            return fail(e, "the thread is not active");
        return migrate(e, e->th, index, 1);
    }
    if (ev->v != 'r')
        return fail(e, "unknown affinity event");
    int64_t tid = emu_ev_int(ev, 1, &ok);
    if (!ok)
        return fail(e, "unexpected payload size");
    emu_thread *remote = emu_loom_thread(&e->sys, e->th->proc->loom, tid);
    if (!remote)
        return fail(e, "the remote thread is not in the loom");
    if (remote->state == EMU_TH_DEAD || remote->state == EMU_TH_UNKNOWN)
        return fail(e, "the remote thread is dead or has not started");
    if (!remote->cpu)
        return fail(e, "the remote thread has no CPU");
    return migrate(e, remote, index, 0);
}

static int flush_event(emu *e, emu_ev *ev)
{
    emu_chan *flush = emu_tracks_chan(e->th, SLOT_OVNI, CH_FLUSH);
    if (ev->v == '[')
        return emu_chan_set(&e->bay, flush, emu_int(1));
    if (ev->v == ']')
        return emu_chan_set(&e->bay, flush, emu_null());
    return fail(e, "unexpected flush event (expecting '[' or ']')");
}

static int ovni_event(emu *e, emu_ev *ev)
{
    if (e->th->is_out_of_cpu)
        return fail(e, "the thread is out of the CPU (kernel context switch)");
    switch (ev->c) {
    case 'H':
        return thread_event(e, ev);
    case 'A':
        return affinity_event(e, ev);
    case 'F':
        return flush_event(e, ev);
    case 'M':
        return emu_mark_event(e, ev);
    case 'B':
    case 'C':
    case 'U':
        return 0;
    }
    return fail(e, "unknown ovni event category");
}

static int ovni_create(emu *e)
{
    if (emu_tracks_create(e, SLOT_OVNI, ovni_chans, CH_MAX) != 0)
        return -1;
    return emu_mark_create(e);
}

static void ovni_destroy(emu *e)
{
    emu_tracks_destroy(e, SLOT_OVNI);
    emu_mark_destroy(e);
}

const emu_model emu_model_ovni = {'O', "ovni", SLOT_OVNI, ovni_create, ovni_event, ovni_destroy};
