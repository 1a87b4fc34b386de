/* emu_nanos6.c — the Nanos6 model (ovni src/emu/nanos6/, doc
 * user/emulation/nanos6.md): the running task's id, type and MPI rank
 * (types 35, 36, 38), the subsystem stack (37, shown while active), the
 * thread type (39) and the idle state (40: Progressing unless told,
 * Resting on a CPU with no running thread). */
#include <stdlib.h>

#include "analysis/ovniemu/emu_rules.h"
#include "analysis/ovniemu/emu_task_event.h"
#include "analysis/ovniemu/emu_tracks.h"

#define SLOT_NANOS6 7
enum { CH_TASKID, CH_TYPE, CH_SUBSYSTEM, CH_RANK, CH_THREAD, CH_IDLE, CH_MAX };
enum { ST_TASK_BODY = 1, ST_PROGRESSING = 100, ST_RESTING = 101, ST_ABSORBING = 102 };

/* nanos6/nanos6_priv.h values, nanos6/setup.c labels. */
static const emu_label subsystems[] = {
    {2, "Unknown subsystem"},
    {1, "Task: Running body"},
    {3, "Task: Creating"},
    {4, "Task: Submitting"},
    {5, "Task: Spawning function"},
    {6, "Task: Running task for"},
    {9, "Scheduler: Serving tasks"},
    {7, "Scheduler: Adding ready tasks"},
    {8, "Scheduler: Processing ready tasks"},
    {10, "Dependency: Registering"},
    {11, "Dependency: Unregistering"},
    {12, "Blocking: Taskwait"},
    {14, "Blocking: Blocking current task"},
    {15, "Blocking: Unblocking remote task"},
    {13, "Blocking: Wait for deadline"},
    {18, "Worker: Handling task"},
    {19, "Worker: Looking for work"},
    {20, "Worker: Switching to another thread"},
    {21, "Worker: Migrating CPU"},
    {22, "Worker: Suspending thread"},
    {23, "Worker: Resuming another thread"},
    {24, "Worker: Sponge mode"},
    {16, "Memory: Allocating"},
    {17, "Memory: Freeing"},
    {61, "EV Scheduler: Send task"},
    {60, "EV Scheduler: Recv task"},
    {62, "EV Scheduler: Self-assign task"},
    {63, "EV CPU: Becomes idle"},
    {64, "EV CPU: Becomes active"},
    {65, "EV Worker: Waking another thread"},
    {0, NULL}};

static const emu_label thread_types[] = {
    {4, "External"}, {3, "Worker"}, {1, "Leader"}, {2, "Main"}, {0, NULL}};


#define RUN EMU_TRACK_RUN
static const emu_chan_spec nanos6_chans[CH_MAX] = {
    [CH_TASKID] = {"taskid", 0, 0, 35, "Nanos6 task ID", NULL, EMU_PRV_SKIPDUP, RUN, RUN, 0},
    [CH_TYPE] = {"task_type", 0, 1, 36, "Nanos6 task type", NULL, EMU_PRV_EMITDUP, RUN, RUN, 0},
    [CH_SUBSYSTEM] = {"subsystem", 1, 0, 37, "Nanos6 subsystem", subsystems, EMU_PRV_SKIPDUP,
                      EMU_TRACK_ACT, RUN, 0},
    [CH_RANK] = {"rank", 0, 1, 38, "Nanos6 task MPI rank", NULL, EMU_PRV_EMITDUP, RUN, RUN, 0},
    [CH_THREAD] = {"thread_type", 1, 0, 39, "Nanos6 thread type", thread_types, EMU_PRV_SKIPDUP,
                   EMU_TRACK_ANY, RUN, 0},
    [CH_IDLE] = {"idle", 0, 0, 40, "Nanos6 idle state", emu_idle_labels, EMU_PRV_SKIPDUP, RUN, RUN, 0},
};

/* nanos6/event.c */
#define SS CH_SUBSYSTEM
static const emu_rule rules[] = {
    {'W', '[', EMU_PUSH, SS, 19},   {'W', ']', EMU_POP, SS, 19},    {'W', 't', EMU_PUSH, SS, 18},
    {'W', 'T', EMU_POP, SS, 18},    {'W', 'w', EMU_PUSH, SS, 20},   {'W', 'W', EMU_POP, SS, 20},
    {'W', 'm', EMU_PUSH, SS, 21},   {'W', 'M', EMU_POP, SS, 21},    {'W', 's', EMU_PUSH, SS, 22},
    {'W', 'S', EMU_POP, SS, 22},    {'W', 'r', EMU_PUSH, SS, 23},   {'W', 'R', EMU_POP, SS, 23},
    {'W', 'g', EMU_PUSH, SS, 24},   {'W', 'G', EMU_POP, SS, 24},    {'W', '*', EMU_IGNORE, SS, 0},
    {'P', 'p', EMU_SET, CH_IDLE, ST_PROGRESSING},                   {'P', 'r', EMU_SET, CH_IDLE, ST_RESTING},
    {'P', 'a', EMU_SET, CH_IDLE, ST_ABSORBING},                     {'C', '[', EMU_PUSH, SS, 3},
    {'C', ']', EMU_POP, SS, 3},     {'U', '[', EMU_PUSH, SS, 4},    {'U', ']', EMU_POP, SS, 4},
    {'F', '[', EMU_PUSH, SS, 5},    {'F', ']', EMU_POP, SS, 5},     {'O', '[', EMU_PUSH, SS, 6},
    {'O', ']', EMU_POP, SS, 6},     {'t', '[', EMU_IGNORE, SS, 0},  {'t', ']', EMU_IGNORE, SS, 0},
    {'M', 'a', EMU_PUSH, SS, 16},   {'M', 'A', EMU_POP, SS, 16},    {'M', 'f', EMU_PUSH, SS, 17},
    {'M', 'F', EMU_POP, SS, 17},    {'D', 'r', EMU_PUSH, SS, 10},   {'D', 'R', EMU_POP, SS, 10},
    {'D', 'u', EMU_PUSH, SS, 11},   {'D', 'U', EMU_POP, SS, 11},    {'S', '[', EMU_PUSH, SS, 9},
    {'S', ']', EMU_POP, SS, 9},     {'S', 'a', EMU_PUSH, SS, 7},    {'S', 'A', EMU_POP, SS, 7},
    {'S', 'p', EMU_PUSH, SS, 8},    {'S', 'P', EMU_POP, SS, 8},     {'S', '@', EMU_IGNORE, SS, 0},
    {'S', 'r', EMU_IGNORE, SS, 0},  {'S', 's', EMU_IGNORE, SS, 0},  {'B', 'b', EMU_PUSH, SS, 14},
    {'B', 'B', EMU_POP, SS, 14},    {'B', 'u', EMU_PUSH, SS, 15},   {'B', 'U', EMU_POP, SS, 15},
    {'B', 'w', EMU_PUSH, SS, 12},   {'B', 'W', EMU_POP, SS, 12},    {'B', 'f', EMU_PUSH, SS, 13},
    {'B', 'F', EMU_POP, SS, 13},    {'H', 'e', EMU_PUSH, CH_THREAD, 4},
    {'H', 'E', EMU_POP, CH_THREAD, 4}, {'H', 'w', EMU_PUSH, CH_THREAD, 3},
    {'H', 'W', EMU_POP, CH_THREAD, 3}, {'H', 'l', EMU_PUSH, CH_THREAD, 1},
    {'H', 'L', EMU_POP, CH_THREAD, 1}, {'H', 'm', EMU_PUSH, CH_THREAD, 2},
    {'H', 'M', EMU_POP, CH_THREAD, 2},
};

static const emu_task_chans task_chans = {SLOT_NANOS6, -1, CH_TASKID, CH_TYPE, -1,
                                          CH_RANK,     CH_SUBSYSTEM, ST_TASK_BODY};

static int fail(emu *e, const char *what)
{
    e->fault = what;
    return -1;
}

static int task_event(emu *e, emu_ev *ev, emu_task_state *st)
{
    int ok = 1;
    uint32_t id = (uint32_t)emu_ev_int(ev, 0, &ok);
    emu_task_info *ti = &st->tasks[e->th->proc->gindex];
    if (ev->v == 'C')
        return 0; /* the old creation event, ignored as ovniemu does */
    /* Tasks pause; a new one may start over a running one. */
    if (ev->v == 'c')
        return emu_task_create_event(e, ev, ti, EMU_TASK_PAUSE | EMU_TASK_RELAX_NESTING);
    if (!ok)
        return fail(e, "a task event without a task id");
    emu_task *task = emu_task_lookup(e, ti, &st->bodies[e->th->proc->gindex], id);
    if (!task)
        return -1;
    return emu_task_transition(e, ev, &task_chans, ti, &st->bodies[e->th->proc->gindex],
                               &st->stacks[e->th->gindex], task, 1);
}

static int nanos6_event(emu *e, emu_ev *ev)
{
    emu_task_state *st = e->model_state[SLOT_NANOS6];
    if (!e->th->is_active)
        return fail(e, "the thread is not active");
    if (ev->c == 'T')
        return task_event(e, ev, st);
    if (ev->c == 'Y')
        return emu_task_type_event(e, ev, &st->tasks[e->th->proc->gindex], 36);
    return emu_rules_apply(e, ev, SLOT_NANOS6, rules, sizeof rules / sizeof *rules);
}

static int nanos6_create(emu *e)
{
    emu_task_state *st = calloc(1, sizeof *st);
    if (!st)
        return -1;
    e->model_state[SLOT_NANOS6] = st;
    if (emu_task_state_init(st, e) != 0 || emu_tracks_create(e, SLOT_NANOS6, nanos6_chans, CH_MAX) != 0)
        return -1;
    emu_idle_init(e, SLOT_NANOS6, CH_IDLE);
    return 0;
}

static void nanos6_destroy(emu *e)
{
    emu_task_state *st = e->model_state[SLOT_NANOS6];
    if (!st)
        return;
    emu_task_state_free(st, e);
    free(st);
    e->model_state[SLOT_NANOS6] = NULL;
    emu_tracks_destroy(e, SLOT_NANOS6);
}

const emu_model emu_model_nanos6 = {'6', "nanos6", SLOT_NANOS6, nanos6_create, nanos6_event,
                                    nanos6_destroy};
