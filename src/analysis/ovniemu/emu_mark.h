/* emu_mark.h — user marks of the ovni model (ovni src/emu/ovni/mark.c):
 * types declared in the threads' metadata, one channel per type. */
#ifndef PW_EMU_MARK_H
#define PW_EMU_MARK_H
#include "analysis/ovniemu/emu.h"

int emu_mark_create(emu *e);
int emu_mark_event(emu *e, emu_ev *ev);
void emu_mark_destroy(emu *e);
#endif
