/* emu_kernel.c — the kernel model (ovni src/emu/kernel/, doc
 * user/emulation/): context switches, type 45.  A thread switched out of
 * its CPU shows "Out of the CPU" until it is switched back in, and the
 * ovni and nOS-V models refuse its events meanwhile. */
#include "analysis/ovniemu/emu_pairs.h"
#include "analysis/ovniemu/emu_tracks.h"

#define SLOT_KERNEL 9
#define ST_CSOUT 3

static const emu_label switches[] = {{ST_CSOUT, "Context switch: Out of the CPU"}, {0, NULL}};

static const emu_pair events[] = {{'C', 'O', 'I', 0, ST_CSOUT}};

static const emu_chan_spec kernel_chans[] = {
    {"context_switch", 1, 0, 45, "Kernel context switch", switches, EMU_PRV_SKIPDUP, EMU_TRACK_ANY,
     EMU_TRACK_RUN, 0},
};

static int kernel_event(emu *e, emu_ev *ev)
{
    if (emu_pairs_apply(e, ev, SLOT_KERNEL, events, 1) != 0)
        return -1;
    e->th->is_out_of_cpu = ev->v == 'O';
    return 0;
}

static int kernel_create(emu *e) { return emu_tracks_create(e, SLOT_KERNEL, kernel_chans, 1); }
static void kernel_destroy(emu *e) { emu_tracks_destroy(e, SLOT_KERNEL); }

const emu_model emu_model_kernel = {'K', "kernel", SLOT_KERNEL, kernel_create, kernel_event,
                                    kernel_destroy};
