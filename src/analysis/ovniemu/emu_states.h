/* emu_states.h — the emulator as a producer of states (views/states.h):
 * its thread and CPU rows, its channels as the .pcf declares them, and
 * every change its propagation emits. */
#ifndef PW_EMU_STATES_H
#define PW_EMU_STATES_H
#include "views/states.h"

extern const pw_states_source emu_states_source;
#endif
