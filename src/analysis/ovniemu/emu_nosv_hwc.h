/* emu_nosv_hwc.h — nOS-V hardware counters (ovni src/emu/nosv/hwc.c):
 * the counters the threads' metadata name ("nosv.hwc.<i>.name"
 * properties), one channel each, type 200 + i. */
#ifndef PW_EMU_NOSV_HWC_H
#define PW_EMU_NOSV_HWC_H
#include "analysis/ovniemu/emu.h"
#include "analysis/ovniemu/emu_tracks.h"

typedef struct emu_nosv_hwc {
    emu_chan_spec *spec;
    int n;
} emu_nosv_hwc;

int emu_nosv_hwc_create(emu *e, emu_nosv_hwc *h);
/* VWC: the counters' new values. */
int emu_nosv_hwc_event(emu *e, emu_ev *ev, const emu_nosv_hwc *h);
void emu_nosv_hwc_destroy(emu *e, emu_nosv_hwc *h);
#endif
