/* emu_openmp.c — the OpenMP model (ovni src/emu/openmp/, doc
 * user/emulation/openmp.md): the runtime subsystem (type 50), the label of
 * the task or worksharing (51, the type's hashed value) and the task id
 * (52), all stacks shown while the thread is active.  Tasks may nest
 * without pausing and run again after ending, as ovniemu allows. */
#include <stdlib.h>

#include "analysis/ovniemu/emu_pairs.h"
#include "analysis/ovniemu/emu_task_event.h"
#include "analysis/ovniemu/emu_tracks.h"

#define SLOT_OPENMP 4
enum { CH_SUBSYSTEM, CH_LABEL, CH_TASKID, CH_MAX };

/* openmp/openmp_priv.h values, openmp/setup.c labels. */
static const emu_label subsystems[] = {
    {9, "Work-distribution: Distribute"},
    {10, "Work-distribution: Dynamic for chunk"},
    {11, "Work-distribution: Dynamic for initialization"},
    {12, "Work-distribution: Static for chunk"},
    {13, "Work-distribution: Section"},
    {14, "Work-distribution: Single"},
    {15, "Task: Allocation"},
    {16, "Task: Check deps"},
    {17, "Task: Duplicating"},
    {18, "Task: Releasing deps"},
    {19, "Task: Running task"},
    {20, "Task: Running task if0"},
    {21, "Task: Scheduling"},
    {22, "Task: Taskgroup"},
    {23, "Task: Taskwait"},
    {24, "Task: Taskwait deps"},
    {25, "Task: Taskyield"},
    {6, "Critical: Acquiring"},
    {7, "Critical: Releasing"},
    {8, "Critical: Section"},
    {1, "Barrier: Fork"},
    {2, "Barrier: Join"},
    {3, "Barrier: Plain"},
    {5, "Barrier: Task"},
    {4, "Barrier: Spin wait"},
    {26, "Runtime: Attached"},
    {27, "Runtime: Fork call"},
    {28, "Runtime: Initialization"},
    {29, "Runtime: Internal microtask"},
    {30, "Runtime: User microtask"},
    {31, "Runtime: Worker main loop"},
    {0, NULL}};

/* openmp/event.c; the spin wait (PBs/PBS) changes nothing. */
static const emu_pair events[] = {
    {'B', 'b', 'B', CH_SUBSYSTEM, 3},  {'B', 'j', 'J', CH_SUBSYSTEM, 2},
    {'B', 'f', 'F', CH_SUBSYSTEM, 1},  {'B', 't', 'T', CH_SUBSYSTEM, 5},
    {'I', 'a', 'A', CH_SUBSYSTEM, 6},  {'I', 'r', 'R', CH_SUBSYSTEM, 7},
    {'I', '[', ']', CH_SUBSYSTEM, 8},  {'W', 'd', 'D', CH_SUBSYSTEM, 9},
    {'W', 'c', 'C', CH_SUBSYSTEM, 10}, {'W', 'y', 'Y', CH_SUBSYSTEM, 11},
    {'W', 's', 'S', CH_SUBSYSTEM, 12}, {'W', 'e', 'E', CH_SUBSYSTEM, 13},
    {'W', 'i', 'I', CH_SUBSYSTEM, 14}, {'T', 'a', 'A', CH_SUBSYSTEM, 15},
    {'T', 'c', 'C', CH_SUBSYSTEM, 16}, {'T', 'd', 'D', CH_SUBSYSTEM, 17},
    {'T', 'r', 'R', CH_SUBSYSTEM, 18}, {'T', '[', ']', CH_SUBSYSTEM, 19},
    {'T', 'i', 'I', CH_SUBSYSTEM, 20}, {'T', 's', 'S', CH_SUBSYSTEM, 21},
    {'T', 'g', 'G', CH_SUBSYSTEM, 22}, {'T', 't', 'T', CH_SUBSYSTEM, 23},
    {'T', 'w', 'W', CH_SUBSYSTEM, 24}, {'T', 'y', 'Y', CH_SUBSYSTEM, 25},
    {'A', '[', ']', CH_SUBSYSTEM, 26}, {'M', 'i', 'I', CH_SUBSYSTEM, 29},
    {'M', 'u', 'U', CH_SUBSYSTEM, 30}, {'H', '[', ']', CH_SUBSYSTEM, 31},
    {'C', 'i', 'I', CH_SUBSYSTEM, 28}, {'C', 'f', 'F', CH_SUBSYSTEM, 27},
};

static const emu_chan_spec openmp_chans[CH_MAX] = {
    {"subsystem", 1, 1, 50, "OpenMP subsystem", subsystems, EMU_PRV_SKIPDUPNULL, EMU_TRACK_ACT,
     EMU_TRACK_RUN, 0},
    {"label", 1, 1, 51, "OpenMP label", NULL, EMU_PRV_SKIPDUPNULL, EMU_TRACK_ACT, EMU_TRACK_RUN, 0},
    {"task ID", 1, 1, 52, "OpenMP task ID", NULL, EMU_PRV_SKIPDUPNULL, EMU_TRACK_ACT,
     EMU_TRACK_RUN, 0},
};

static int fail(emu *e, const char *what)
{
    e->fault = what;
    return -1;
}

/* Per process: its task types and tasks. */
static emu_task_info *proc_tasks(emu *e)
{
    emu_task_info *all = e->model_state[SLOT_OPENMP];
    return &all[e->th->proc->gindex];
}

static int task_event(emu *e, emu_ev *ev)
{
    emu_task_info *ti = proc_tasks(e);
    int ok = 1;
    uint32_t id = (uint32_t)emu_ev_int(ev, 0, &ok);
    /* Tasks may nest without pausing and run again after ending. */
    if (ev->v == 'c')
        return emu_task_create_event(e, ev, ti,
                                     EMU_TASK_RELAX_NESTING | EMU_TASK_RESURRECT | EMU_TASK_BODILESS);
    if (!ok || !id)
        return fail(e, "a task event without a task id");
    uint32_t type;
    unsigned flags;
    if (!emu_task_ended(ti, id, &type, &flags))
        return fail(e, "the task was not created");
    emu_chan *tid = emu_tracks_chan(e->th, SLOT_OPENMP, CH_TASKID);
    emu_chan *label = emu_tracks_chan(e->th, SLOT_OPENMP, CH_LABEL);
    emu_value gid = emu_int(ti->types[type].gid);
    if (ev->v == 'x')
        return emu_chan_push(&e->bay, tid, emu_int(id)) || emu_chan_push(&e->bay, label, gid) ? -1 : 0;
    if (ev->v == 'e')
        return emu_chan_pop(&e->bay, tid, emu_int(id)) || emu_chan_pop(&e->bay, label, gid) ? -1 : 0;
    return fail(e, "unknown task event");
}

/* PQx/PQe: a worksharing of a declared type. */
static int worksharing_event(emu *e, emu_ev *ev)
{
    int ok = 1;
    emu_task_type *type = emu_task_type_find(proc_tasks(e), (uint32_t)emu_ev_int(ev, 0, &ok));
    if (!type)
        return fail(e, "the worksharing's type was not declared");
    emu_chan *label = emu_tracks_chan(e->th, SLOT_OPENMP, CH_LABEL);
    if (ev->v == 'x')
        return emu_chan_push(&e->bay, label, emu_int(type->gid));
    if (ev->v == 'e')
        return emu_chan_pop(&e->bay, label, emu_int(type->gid));
    return fail(e, "unknown worksharing event");
}

static int openmp_event(emu *e, emu_ev *ev)
{
    if (!e->th->is_running)
        return fail(e, "the thread is not running");
    switch (ev->c) {
    case 'P':
        return task_event(e, ev);
    case 'O':
        return emu_task_type_event(e, ev, proc_tasks(e), 51);
    case 'Q':
        return worksharing_event(e, ev);
    case 'B':
        if (ev->v == 's' || ev->v == 'S')
            return 0;
        break;
    }
    return emu_pairs_apply(e, ev, SLOT_OPENMP, events, sizeof events / sizeof *events);
}

static int openmp_create(emu *e)
{
    e->model_state[SLOT_OPENMP] = calloc(e->sys.n_procs ? e->sys.n_procs : 1, sizeof(emu_task_info));
    if (!e->model_state[SLOT_OPENMP])
        return -1;
    return emu_tracks_create(e, SLOT_OPENMP, openmp_chans, CH_MAX);
}

static void openmp_destroy(emu *e)
{
    emu_task_info *all = e->model_state[SLOT_OPENMP];
    for (uint32_t i = 0; all && i < e->sys.n_procs; i++)
        emu_task_info_free(&all[i]);
    free(all);
    e->model_state[SLOT_OPENMP] = NULL;
    emu_tracks_destroy(e, SLOT_OPENMP);
}

const emu_model emu_model_openmp = {'P', "openmp", SLOT_OPENMP, openmp_create, openmp_event,
                                    openmp_destroy};
