/* emu_nosv.c — the nOS-V model (ovni src/emu/nosv/, doc
 * user/emulation/nosv.md): the running task's body id, id, type, AppID
 * and MPI rank (types 15, 10, 11, 12, 14), the subsystem stack (13, shown
 * while active), the idle state (16: Progressing unless told, Resting on
 * a CPU with no running thread) and the hardware counters (200 + i). */
#include <stdlib.h>

#include "analysis/ovniemu/emu_nosv_hwc.h"
#include "analysis/ovniemu/emu_rules.h"
#include "analysis/ovniemu/emu_task_event.h"
#include "analysis/ovniemu/emu_tracks.h"

#define SLOT_NOSV 5
enum { CH_BODYID, CH_TASKID, CH_TYPE, CH_APPID, CH_SUBSYSTEM, CH_RANK, CH_IDLE, CH_MAX };
enum { ST_TASK_BODY = 11, ST_PROGRESSING = 100, ST_RESTING = 101, ST_ABSORBING = 102 };

/* nosv/nosv_priv.h values, nosv/setup.c labels. */
static const emu_label subsystems[] = {
    {2, "Unknown subsystem"},        {6, "Scheduler: Hungry"},     {7, "Scheduler: Serving"},
    {8, "Scheduler: Submitting"},    {9, "Memory: Allocating"},    {10, "Memory: Freeing"},
    {11, "Task: In body"},           {12, "API: Create"},          {13, "API: Destroy"},
    {14, "API: Submit"},             {15, "API: Pause"},           {16, "API: Yield"},
    {17, "API: Waitfor"},            {18, "API: Scheduling point"}, {19, "API: Attach"},
    {20, "API: Detach"},             {21, "API: Mutex lock"},      {22, "API: Mutex trylock"},
    {23, "API: Mutex unlock"},       {24, "API: Barrier wait"},    {25, "API: Cond wait"},
    {26, "API: Cond signal"},        {27, "API: Cond broadcast"},  {28, "API: Join"},
    {29, "API: Join all"},           {30, "API: Wait"},            {31, "API: Wait all"},
    {32, "Thread: Worker"},          {33, "Thread: Delegate"},     {35, "EV Scheduler: Send task"},
    {34, "EV Scheduler: Recv task"}, {36, "EV Scheduler: Self-assign task"},
    {0, NULL}};


#define RUN EMU_TRACK_RUN
#define SKIP EMU_PRV_SKIPDUPNULL
static const emu_chan_spec nosv_chans[CH_MAX] = {
    [CH_BODYID] = {"bodyid", 0, 1, 15, "nOS-V task body ID", NULL, SKIP, RUN, RUN, 0},
    [CH_TASKID] = {"taskid", 0, 0, 10, "nOS-V task ID", NULL, SKIP, RUN, RUN, 0},
    [CH_TYPE] = {"task_type", 0, 1, 11, "nOS-V task type", NULL, SKIP, RUN, RUN, 0},
    [CH_APPID] = {"appid", 0, 1, 12, "nOS-V task AppID", NULL, SKIP, RUN, RUN, 0},
    [CH_SUBSYSTEM] = {"subsystem", 1, 1, 13, "nOS-V subsystem", subsystems, SKIP, EMU_TRACK_ACT,
                      RUN, 0},
    [CH_RANK] = {"rank", 0, 1, 14, "nOS-V task MPI rank", NULL, SKIP, RUN, RUN, 0},
    [CH_IDLE] = {"idle", 0, 0, 16, "nOS-V idle state", emu_idle_labels, SKIP, RUN, RUN, 0},
};

/* nosv/event.c */
static const emu_rule rules[] = {
    {'S', 'h', EMU_PUSH, CH_SUBSYSTEM, 6}, {'S', 'f', EMU_POP, CH_SUBSYSTEM, 6},
    {'S', '[', EMU_PUSH, CH_SUBSYSTEM, 7}, {'S', ']', EMU_POP, CH_SUBSYSTEM, 7},
    {'S', 'N', EMU_PUSH, CH_SUBSYSTEM, 7}, {'S', 'n', EMU_POP, CH_SUBSYSTEM, 7},
    {'S', '@', EMU_IGNORE, 0, 0},          {'S', 'r', EMU_IGNORE, 0, 0},
    {'S', 's', EMU_IGNORE, 0, 0},          {'U', '[', EMU_PUSH, CH_SUBSYSTEM, 8},
    {'U', ']', EMU_POP, CH_SUBSYSTEM, 8},  {'M', 'a', EMU_PUSH, CH_SUBSYSTEM, 9},
    {'M', 'A', EMU_POP, CH_SUBSYSTEM, 9},  {'M', 'f', EMU_PUSH, CH_SUBSYSTEM, 10},
    {'M', 'F', EMU_POP, CH_SUBSYSTEM, 10}, {'A', 'r', EMU_PUSH, CH_SUBSYSTEM, 12},
    {'A', 'R', EMU_POP, CH_SUBSYSTEM, 12}, {'A', 'd', EMU_PUSH, CH_SUBSYSTEM, 13},
    {'A', 'D', EMU_POP, CH_SUBSYSTEM, 13}, {'A', 's', EMU_PUSH, CH_SUBSYSTEM, 14},
    {'A', 'S', EMU_POP, CH_SUBSYSTEM, 14}, {'A', 'p', EMU_PUSH, CH_SUBSYSTEM, 15},
    {'A', 'P', EMU_POP, CH_SUBSYSTEM, 15}, {'A', 'y', EMU_PUSH, CH_SUBSYSTEM, 16},
    {'A', 'Y', EMU_POP, CH_SUBSYSTEM, 16}, {'A', 'w', EMU_PUSH, CH_SUBSYSTEM, 17},
    {'A', 'W', EMU_POP, CH_SUBSYSTEM, 17}, {'A', 'c', EMU_PUSH, CH_SUBSYSTEM, 18},
    {'A', 'C', EMU_POP, CH_SUBSYSTEM, 18}, {'A', 'a', EMU_PUSH, CH_SUBSYSTEM, 19},
    {'A', 'A', EMU_POP, CH_SUBSYSTEM, 19}, {'A', 'e', EMU_PUSH, CH_SUBSYSTEM, 20},
    {'A', 'E', EMU_POP, CH_SUBSYSTEM, 20}, {'A', 'l', EMU_PUSH, CH_SUBSYSTEM, 21},
    {'A', 'L', EMU_POP, CH_SUBSYSTEM, 21}, {'A', 't', EMU_PUSH, CH_SUBSYSTEM, 22},
    {'A', 'T', EMU_POP, CH_SUBSYSTEM, 22}, {'A', 'u', EMU_PUSH, CH_SUBSYSTEM, 23},
    {'A', 'U', EMU_POP, CH_SUBSYSTEM, 23}, {'A', 'b', EMU_PUSH, CH_SUBSYSTEM, 24},
    {'A', 'B', EMU_POP, CH_SUBSYSTEM, 24}, {'A', 'o', EMU_PUSH, CH_SUBSYSTEM, 25},
    {'A', 'O', EMU_POP, CH_SUBSYSTEM, 25}, {'A', 'g', EMU_PUSH, CH_SUBSYSTEM, 26},
    {'A', 'G', EMU_POP, CH_SUBSYSTEM, 26}, {'A', 'k', EMU_PUSH, CH_SUBSYSTEM, 27},
    {'A', 'K', EMU_POP, CH_SUBSYSTEM, 27}, {'A', 'j', EMU_PUSH, CH_SUBSYSTEM, 28},
    {'A', 'J', EMU_POP, CH_SUBSYSTEM, 28}, {'A', 'm', EMU_PUSH, CH_SUBSYSTEM, 29},
    {'A', 'M', EMU_POP, CH_SUBSYSTEM, 29}, {'A', 'i', EMU_PUSH, CH_SUBSYSTEM, 30},
    {'A', 'I', EMU_POP, CH_SUBSYSTEM, 30}, {'A', 'n', EMU_PUSH, CH_SUBSYSTEM, 31},
    {'A', 'N', EMU_POP, CH_SUBSYSTEM, 31}, {'H', 'a', EMU_IGNORE, 0, 0},
    {'H', 'A', EMU_IGNORE, 0, 0},          {'H', 'w', EMU_PUSH, CH_SUBSYSTEM, 32},
    {'H', 'W', EMU_POP, CH_SUBSYSTEM, 32}, {'H', 'd', EMU_PUSH, CH_SUBSYSTEM, 33},
    {'H', 'D', EMU_POP, CH_SUBSYSTEM, 33}, {'P', 'p', EMU_SET, CH_IDLE, ST_PROGRESSING},
    {'P', 'r', EMU_SET, CH_IDLE, ST_RESTING}, {'P', 'a', EMU_SET, CH_IDLE, ST_ABSORBING},
};

/* Tasks, bodies and counters. */
typedef struct nosv_state {
    emu_task_state ts;
    emu_nosv_hwc hwc;
} nosv_state;

static int fail(emu *e, const char *what)
{
    e->fault = what;
    return -1;
}

static const emu_task_chans task_chans = {SLOT_NOSV, CH_BODYID, CH_TASKID,  CH_TYPE,
                                          CH_APPID,  CH_RANK,   CH_SUBSYSTEM, ST_TASK_BODY};

/* VTx/VTe/VTp/VTr: parallel tasks name their body, others have body 1. */
static int task_transition(emu *e, emu_ev *ev, nosv_state *st)
{
    int ok = 1;
    uint32_t id = (uint32_t)emu_ev_int(ev, 0, &ok);
    uint32_t body_id = (uint32_t)emu_ev_int(ev, 1, &ok);
    if (!ok)
        return fail(e, "a task event without task and body ids");
    emu_task_info *ti = &st->ts.tasks[e->th->proc->gindex];
    emu_task *task = emu_task_lookup(e, ti, &st->ts.bodies[e->th->proc->gindex], id);
    if (!task)
        return -1;
    if (task->flags & EMU_TASK_PARALLEL) {
        if (!body_id)
            return fail(e, "a parallel task needs a body id");
    } else if (body_id) {
        return fail(e, "a task that is not parallel has body id 0");
    } else {
        body_id = 1;
    }
    return emu_task_transition(e, ev, &task_chans, ti, &st->ts.bodies[e->th->proc->gindex],
                               &st->ts.stacks[e->th->gindex], task, body_id);
}

static int task_event(emu *e, emu_ev *ev, nosv_state *st)
{
    if (ev->v != 'c' && ev->v != 'C')
        return task_transition(e, ev, st);
    /* Parallel tasks (VTC) have several bodies; others pause and rerun. */
    unsigned flags = ev->v == 'C' ? EMU_TASK_PARALLEL : EMU_TASK_RESURRECT | EMU_TASK_PAUSE;
    return emu_task_create_event(e, ev, &st->ts.tasks[e->th->proc->gindex], flags);
}

static int nosv_event(emu *e, emu_ev *ev)
{
    nosv_state *st = e->model_state[SLOT_NOSV];
    if (!e->th->is_active)
        return fail(e, "the thread is not active");
    if (e->th->is_out_of_cpu)
        return fail(e, "the thread is out of the CPU (kernel context switch)");
    switch (ev->c) {
    case 'T':
        return task_event(e, ev, st);
    case 'Y':
        return emu_task_type_event(e, ev, &st->ts.tasks[e->th->proc->gindex], 11);
    case 'W':
        return emu_nosv_hwc_event(e, ev, &st->hwc);
    }
    return emu_rules_apply(e, ev, SLOT_NOSV, rules, sizeof rules / sizeof *rules);
}

static int nosv_create(emu *e)
{
    nosv_state *st = calloc(1, sizeof *st);
    if (!st)
        return -1;
    e->model_state[SLOT_NOSV] = st;
    if (emu_task_state_init(&st->ts, e) != 0 || emu_tracks_create(e, SLOT_NOSV, nosv_chans, CH_MAX) != 0)
        return -1;
    emu_idle_init(e, SLOT_NOSV, CH_IDLE);
    return emu_nosv_hwc_create(e, &st->hwc);
}

static void nosv_destroy(emu *e)
{
    nosv_state *st = e->model_state[SLOT_NOSV];
    if (!st)
        return;
    emu_task_state_free(&st->ts, e);
    emu_nosv_hwc_destroy(e, &st->hwc);
    free(st);
    e->model_state[SLOT_NOSV] = NULL;
    emu_tracks_destroy(e, SLOT_NOSV);
}

const emu_model emu_model_nosv = {'V', "nosv", SLOT_NOSV, nosv_create, nosv_event, nosv_destroy};
