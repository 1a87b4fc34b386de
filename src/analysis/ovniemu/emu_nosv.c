/* emu_nosv.c — the nOS-V model (ovni src/emu/nosv/, doc
 * user/emulation/nosv.md): the running task's body id, id, type, AppID
 * and MPI rank (types 15, 10, 11, 12, 14), the subsystem stack (13, shown
 * while active), the idle state (16: Progressing unless told, Resting on
 * a CPU with no running thread) and the hardware counters (200 + i). */
#include <stdlib.h>

#include "analysis/ovniemu/emu_body.h"
#include "analysis/ovniemu/emu_nosv_hwc.h"
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

static const emu_label idle_states[] = {
    {ST_PROGRESSING, "Progressing"}, {ST_RESTING, "Resting"}, {ST_ABSORBING, "Absorbing noise"},
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
    [CH_IDLE] = {"idle", 0, 0, 16, "nOS-V idle state", idle_states, SKIP, RUN, RUN, 0},
};

/* Which subsystem (or idle state) an event opens, closes or sets. */
enum { PUSH, POP, SET, IGNORE };
typedef struct ss_rule {
    char c, v;
    uint8_t action, ch;
    int32_t value;
} ss_rule;

/* nosv/event.c */
static const ss_rule rules[] = {
    {'S', 'h', PUSH, CH_SUBSYSTEM, 6}, {'S', 'f', POP, CH_SUBSYSTEM, 6},
    {'S', '[', PUSH, CH_SUBSYSTEM, 7}, {'S', ']', POP, CH_SUBSYSTEM, 7},
    {'S', 'N', PUSH, CH_SUBSYSTEM, 7}, {'S', 'n', POP, CH_SUBSYSTEM, 7},
    {'S', '@', IGNORE, 0, 0},          {'S', 'r', IGNORE, 0, 0},
    {'S', 's', IGNORE, 0, 0},          {'U', '[', PUSH, CH_SUBSYSTEM, 8},
    {'U', ']', POP, CH_SUBSYSTEM, 8},  {'M', 'a', PUSH, CH_SUBSYSTEM, 9},
    {'M', 'A', POP, CH_SUBSYSTEM, 9},  {'M', 'f', PUSH, CH_SUBSYSTEM, 10},
    {'M', 'F', POP, CH_SUBSYSTEM, 10}, {'A', 'r', PUSH, CH_SUBSYSTEM, 12},
    {'A', 'R', POP, CH_SUBSYSTEM, 12}, {'A', 'd', PUSH, CH_SUBSYSTEM, 13},
    {'A', 'D', POP, CH_SUBSYSTEM, 13}, {'A', 's', PUSH, CH_SUBSYSTEM, 14},
    {'A', 'S', POP, CH_SUBSYSTEM, 14}, {'A', 'p', PUSH, CH_SUBSYSTEM, 15},
    {'A', 'P', POP, CH_SUBSYSTEM, 15}, {'A', 'y', PUSH, CH_SUBSYSTEM, 16},
    {'A', 'Y', POP, CH_SUBSYSTEM, 16}, {'A', 'w', PUSH, CH_SUBSYSTEM, 17},
    {'A', 'W', POP, CH_SUBSYSTEM, 17}, {'A', 'c', PUSH, CH_SUBSYSTEM, 18},
    {'A', 'C', POP, CH_SUBSYSTEM, 18}, {'A', 'a', PUSH, CH_SUBSYSTEM, 19},
    {'A', 'A', POP, CH_SUBSYSTEM, 19}, {'A', 'e', PUSH, CH_SUBSYSTEM, 20},
    {'A', 'E', POP, CH_SUBSYSTEM, 20}, {'A', 'l', PUSH, CH_SUBSYSTEM, 21},
    {'A', 'L', POP, CH_SUBSYSTEM, 21}, {'A', 't', PUSH, CH_SUBSYSTEM, 22},
    {'A', 'T', POP, CH_SUBSYSTEM, 22}, {'A', 'u', PUSH, CH_SUBSYSTEM, 23},
    {'A', 'U', POP, CH_SUBSYSTEM, 23}, {'A', 'b', PUSH, CH_SUBSYSTEM, 24},
    {'A', 'B', POP, CH_SUBSYSTEM, 24}, {'A', 'o', PUSH, CH_SUBSYSTEM, 25},
    {'A', 'O', POP, CH_SUBSYSTEM, 25}, {'A', 'g', PUSH, CH_SUBSYSTEM, 26},
    {'A', 'G', POP, CH_SUBSYSTEM, 26}, {'A', 'k', PUSH, CH_SUBSYSTEM, 27},
    {'A', 'K', POP, CH_SUBSYSTEM, 27}, {'A', 'j', PUSH, CH_SUBSYSTEM, 28},
    {'A', 'J', POP, CH_SUBSYSTEM, 28}, {'A', 'm', PUSH, CH_SUBSYSTEM, 29},
    {'A', 'M', POP, CH_SUBSYSTEM, 29}, {'A', 'i', PUSH, CH_SUBSYSTEM, 30},
    {'A', 'I', POP, CH_SUBSYSTEM, 30}, {'A', 'n', PUSH, CH_SUBSYSTEM, 31},
    {'A', 'N', POP, CH_SUBSYSTEM, 31}, {'H', 'a', IGNORE, 0, 0},
    {'H', 'A', IGNORE, 0, 0},          {'H', 'w', PUSH, CH_SUBSYSTEM, 32},
    {'H', 'W', POP, CH_SUBSYSTEM, 32}, {'H', 'd', PUSH, CH_SUBSYSTEM, 33},
    {'H', 'D', POP, CH_SUBSYSTEM, 33}, {'P', 'p', SET, CH_IDLE, ST_PROGRESSING},
    {'P', 'r', SET, CH_IDLE, ST_RESTING}, {'P', 'a', SET, CH_IDLE, ST_ABSORBING},
};

/* Tasks and bodies per process, body stacks per thread. */
typedef struct nosv_state {
    emu_task_info *tasks;
    emu_body_table *bodies;
    emu_body_stack *stacks;
    emu_nosv_hwc hwc;
} nosv_state;

static int fail(emu *e, const char *what)
{
    e->fault = what;
    return -1;
}

static emu_chan *chan(emu *e, int i) { return emu_tracks_chan(e->th, SLOT_NOSV, i); }

static int simple(emu *e, emu_ev *ev)
{
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
        const ss_rule *r = &rules[i];
        if (r->c != ev->c || r->v != ev->v)
            continue;
        switch (r->action) {
        case PUSH:
            return emu_chan_push(&e->bay, chan(e, r->ch), emu_int(r->value));
        case POP:
            return emu_chan_pop(&e->bay, chan(e, r->ch), emu_int(r->value));
        case SET:
            return emu_chan_set(&e->bay, chan(e, r->ch), emu_int(r->value));
        }
        return 0;
    }
    return fail(e, "unknown nOS-V event");
}

/* The task channels while body b runs, or null while none does. */
static int show_body(emu *e, const nosv_state *st, const emu_body *b)
{
    const emu_proc *p = e->th->proc;
    emu_value body = emu_null(), task = emu_null(), type = emu_null(), app = emu_null();
    if (b) {
        const emu_task_info *ti = &st->tasks[p->gindex];
        const emu_task *t = emu_task_find(ti, b->task);
        body = emu_int(b->id);
        task = emu_int(b->task);
        type = emu_int(ti->types[t->type].gid);
        app = emu_int(p->appid);
    }
    if (emu_chan_set(&e->bay, chan(e, CH_BODYID), body) ||
        emu_chan_set(&e->bay, chan(e, CH_TASKID), task) ||
        emu_chan_set(&e->bay, chan(e, CH_TYPE), type) || emu_chan_set(&e->bay, chan(e, CH_APPID), app))
        return -1;
    if (p->rank >= 0)
        return emu_chan_set(&e->bay, chan(e, CH_RANK), b ? emu_int(p->rank + 1) : emu_null());
    return 0;
}

/* VTx/VTe/VTp/VTr: the body's state, the subsystem, then the channels
 * (nosv/event.c update_task). */
static int task_transition(emu *e, emu_ev *ev, nosv_state *st)
{
    int ok = 1;
    uint32_t id = (uint32_t)emu_ev_int(ev, 0, &ok);
    uint32_t body_id = (uint32_t)emu_ev_int(ev, 1, &ok);
    if (!ok)
        return fail(e, "a task event without task and body ids");
    emu_task_info *ti = &st->tasks[e->th->proc->gindex];
    emu_body_table *bt = &st->bodies[e->th->proc->gindex];
    emu_body_stack *bs = &st->stacks[e->th->gindex];
    emu_task *task = emu_task_find(ti, id);
    if (!task)
        return fail(e, "the task was not created");
    if (task->flags & EMU_TASK_PARALLEL) {
        if (!body_id)
            return fail(e, "a parallel task needs a body id");
    } else if (body_id) {
        return fail(e, "a task that is not parallel has body id 0");
    } else {
        body_id = 1;
    }
    const emu_body *prev = emu_body_running(bt, bs);
    const char *why = ev->v == 'x'   ? emu_body_execute(bt, bs, task, body_id)
                      : ev->v == 'e' ? emu_body_end(bt, bs, task, body_id)
                      : ev->v == 'p' ? emu_body_pause(bt, bs, task, body_id)
                                     : emu_body_resume(bt, bs, task, body_id);
    if (why)
        return fail(e, why);
    const emu_body *next = emu_body_running(bt, bs);
    emu_chan *ss = chan(e, CH_SUBSYSTEM);
    if (ev->v == 'x' && emu_chan_push(&e->bay, ss, emu_int(ST_TASK_BODY)))
        return -1;
    if (ev->v == 'e' && emu_chan_pop(&e->bay, ss, emu_int(ST_TASK_BODY)))
        return -1;
    /* A nested start or end switches to the other body. */
    int nested = (ev->v == 'x' && prev) || (ev->v == 'e' && next);
    int runs = ev->v == 'x' || ev->v == 'r' || nested;
    if (show_body(e, st, runs ? next : NULL))
        return -1;
    emu_value top = emu_chan_read(ss);
    if (ev->v == 'x' && !top.null && top.i != ST_TASK_BODY)
        return fail(e, "a task started outside the task body subsystem");
    return 0;
}

static int task_event(emu *e, emu_ev *ev, nosv_state *st)
{
    if (ev->v != 'c' && ev->v != 'C')
        return task_transition(e, ev, st);
    int ok = 1, dup;
    uint32_t id = (uint32_t)emu_ev_int(ev, 0, &ok);
    uint32_t type_id = (uint32_t)emu_ev_int(ev, 1, &ok);
    emu_task_info *ti = &st->tasks[e->th->proc->gindex];
    emu_task_type *type = ok ? emu_task_type_find(ti, type_id) : NULL;
    if (!type)
        return fail(e, "the task's type was not declared");
    unsigned flags = ev->v == 'C' ? EMU_TASK_PARALLEL : EMU_TASK_RESURRECT | EMU_TASK_PAUSE;
    if (!emu_task_add(ti, id, (uint32_t)(type - ti->types), flags, &dup))
        return fail(e, dup ? "the task id already exists" : "a task id must be non-zero");
    return 0;
}

static int nosv_event(emu *e, emu_ev *ev)
{
    nosv_state *st = e->model_state[SLOT_NOSV];
    if (!e->th->is_active)
        return fail(e, "the thread is not active");
    switch (ev->c) {
    case 'T':
        return task_event(e, ev, st);
    case 'Y':
        return emu_task_type_event(e, ev, &st->tasks[e->th->proc->gindex], 11);
    case 'W':
        return emu_nosv_hwc_event(e, ev, &st->hwc);
    }
    return simple(e, ev);
}

static int nosv_create(emu *e)
{
    nosv_state *st = calloc(1, sizeof *st);
    if (!st)
        return -1;
    e->model_state[SLOT_NOSV] = st;
    size_t np = e->sys.n_procs ? e->sys.n_procs : 1, nt = e->sys.n_threads ? e->sys.n_threads : 1;
    st->tasks = calloc(np, sizeof *st->tasks);
    st->bodies = calloc(np, sizeof *st->bodies);
    st->stacks = calloc(nt, sizeof *st->stacks);
    if (!st->tasks || !st->bodies || !st->stacks ||
        emu_tracks_create(e, SLOT_NOSV, nosv_chans, CH_MAX) != 0)
        return -1;
    /* Threads start Progressing; a CPU that runs none shows Resting. */
    for (uint32_t i = 0; i < e->sys.n_threads; i++)
        emu_chan_set(&e->bay, emu_tracks_chan(&e->sys.threads[i], SLOT_NOSV, CH_IDLE),
                     emu_int(ST_PROGRESSING));
    for (uint32_t i = 0; i < e->sys.n_cpus; i++)
        ((emu_tracks *)e->sys.cpus[i].model[SLOT_NOSV])->mux[CH_IDLE].def = emu_int(ST_RESTING);
    return emu_nosv_hwc_create(e, &st->hwc);
}

static void nosv_destroy(emu *e)
{
    nosv_state *st = e->model_state[SLOT_NOSV];
    if (!st)
        return;
    for (uint32_t i = 0; st->tasks && i < e->sys.n_procs; i++) {
        emu_task_info_free(&st->tasks[i]);
        emu_body_table_free(&st->bodies[i]);
    }
    for (uint32_t i = 0; st->stacks && i < e->sys.n_threads; i++)
        emu_body_stack_free(&st->stacks[i]);
    emu_nosv_hwc_destroy(e, &st->hwc);
    free(st->tasks);
    free(st->bodies);
    free(st->stacks);
    free(st);
    e->model_state[SLOT_NOSV] = NULL;
    emu_tracks_destroy(e, SLOT_NOSV);
}

const emu_model emu_model_nosv = {'V', "nosv", SLOT_NOSV, nosv_create, nosv_event, nosv_destroy};
