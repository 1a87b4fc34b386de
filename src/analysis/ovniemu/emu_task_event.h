/* emu_task_event.h — what the task-based models (nOS-V, Nanos6, OpenMP)
 * do alike: declare a task type from its jumbo event and label its value
 * in the views. */
#ifndef PW_EMU_TASK_EVENT_H
#define PW_EMU_TASK_EVENT_H
#include "analysis/ovniemu/emu.h"
#include "analysis/ovniemu/emu_body.h"

/* A type event (u32 typeid, str label): declares the type in ti and labels
 * its value under Paraver type prv_type in both views.  0, or -1 with
 * e->fault set. */
int emu_task_type_event(emu *e, emu_ev *ev, emu_task_info *ti, int32_t prv_type);

/* Where a task model shows the running task (channel indexes in its slot;
 * -1 for channels it does not have). */
typedef struct emu_task_chans {
    int slot;
    int bodyid, taskid, type, appid, rank, subsystem;
    int32_t body_subsystem; /* the subsystem value "in the task body" */
} emu_task_chans;

/* A task's x/e/p/r event on body `body_id` of the current thread: the
 * body's state, the subsystem, then the task channels, which show the
 * body running on the thread or null (ovni src/emu/nosv/event.c and
 * nanos6/event.c update_task).  A task whose bodies all ended then
 * leaves the table of tasks in flight (emu_task.h). */
int emu_task_transition(emu *e, emu_ev *ev, const emu_task_chans *c, emu_task_info *ti,
                        emu_body_table *bt, emu_body_stack *bs, emu_task *task, uint32_t body_id);

/* The task of `id` in a model with bodies: in flight, or ended and
 * brought back (its body dead) for the event to run again or be refused
 * as before.  NULL with e->fault set when it was not created. */
emu_task *emu_task_lookup(emu *e, emu_task_info *ti, emu_body_table *bt, uint32_t id);

/* A task model's state: tasks and bodies per process, body stacks per
 * thread (all indexed by global index). */
typedef struct emu_task_state {
    emu_task_info *tasks;
    emu_body_table *bodies;
    emu_body_stack *stacks;
} emu_task_state;

int emu_task_state_init(emu_task_state *ts, const emu *e);
/* The idle channel `ch` of the model in `slot` (nOS-V, Nanos6): threads
 * start Progressing (100), a CPU running no thread shows Resting (101). */
void emu_idle_init(emu *e, int slot, int ch);
/* The idle channel's labels: Progressing, Resting, Absorbing noise. */
extern const emu_label emu_idle_labels[];
void emu_task_state_free(emu_task_state *ts, const emu *e);

/* A creation event (u32 taskid, u32 typeid) of the current process: the
 * task with `flags`.  0, or -1 with e->fault set. */
int emu_task_create_event(emu *e, emu_ev *ev, emu_task_info *ti, unsigned flags);
#endif
