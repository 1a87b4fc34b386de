/* emu_task_event.h — what the task-based models (nOS-V, Nanos6, OpenMP)
 * do alike: declare a task type from its jumbo event and label its value
 * in the views. */
#ifndef PW_EMU_TASK_EVENT_H
#define PW_EMU_TASK_EVENT_H
#include "analysis/ovniemu/emu.h"
#include "analysis/ovniemu/emu_task.h"

/* A type event (u32 typeid, str label): declares the type in ti and labels
 * its value under Paraver type prv_type in both views.  0, or -1 with
 * e->fault set. */
int emu_task_type_event(emu *e, emu_ev *ev, emu_task_info *ti, int32_t prv_type);
#endif
