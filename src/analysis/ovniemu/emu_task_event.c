/* emu_task_event.c — task type declarations shared by the task models. */
#include "analysis/ovniemu/emu_task_event.h"

#include <stdlib.h>

#include "analysis/ovniemu/emu_tracks.h"

int emu_task_type_event(emu *e, emu_ev *ev, emu_task_info *ti, int32_t prv_type)
{
    const pw_value *label = emu_ev_field(ev, 2);
    int ok = 1;
    uint32_t id = (uint32_t)emu_ev_int(ev, 0, &ok);
    if (ev->v != 'c' || !ok || !label || label->type != PW_T_STR) {
        e->fault = "a type event without a type id and label";
        return -1;
    }
    int dup;
    emu_task_type *t = emu_task_type_add(ti, id, label->v.s.p, label->v.s.n, &dup);
    if (!t) {
        e->fault = dup ? "the type id already exists" : "out of memory";
        return -1;
    }
    for (int view = 0; view < EMU_VIEWS; view++)
        for (size_t i = 0; i < e->pcf[view].n_types; i++)
            if (e->pcf[view].types[i].id == prv_type)
                emu_pcf_add_value(&e->pcf[view], (long)i, t->gid, t->label);
    return 0;
}

static int set_chan(emu *e, int slot, int ch, emu_value v)
{
    return ch < 0 ? 0 : emu_chan_set(&e->bay, emu_tracks_chan(e->th, slot, ch), v);
}

/* The task channels while body b runs, or null while none does. */
static int show_body(emu *e, const emu_task_chans *c, const emu_task_info *ti, const emu_body *b)
{
    const emu_proc *p = e->th->proc;
    emu_value body = emu_null(), task = emu_null(), type = emu_null(), app = emu_null();
    if (b) {
        const emu_task *t = emu_task_find(ti, b->task);
        body = emu_int(b->id);
        task = emu_int(b->task);
        type = emu_int(ti->types[t->type].gid);
        app = emu_int(p->appid);
    }
    if (set_chan(e, c->slot, c->bodyid, body) || set_chan(e, c->slot, c->taskid, task) ||
        set_chan(e, c->slot, c->type, type) || set_chan(e, c->slot, c->appid, app))
        return -1;
    if (p->rank >= 0)
        return set_chan(e, c->slot, c->rank, b ? emu_int(p->rank + 1) : emu_null());
    return 0;
}

static int transition(emu *e, emu_ev *ev, const emu_task_chans *c, emu_task_info *ti,
                      emu_body_table *bt, emu_body_stack *bs, emu_task *task, uint32_t body_id)
{
    const emu_body *prev = emu_body_running(bt, bs);
    const char *why = ev->v == 'x'   ? emu_body_execute(bt, bs, task, body_id)
                      : ev->v == 'e' ? emu_body_end(bt, bs, task, body_id)
                      : ev->v == 'p' ? emu_body_pause(bt, bs, task, body_id)
                      : ev->v == 'r' ? emu_body_resume(bt, bs, task, body_id)
                                     : "unknown task event";
    if (why) {
        e->fault = why;
        return -1;
    }
    const emu_body *next = emu_body_running(bt, bs);
    emu_chan *ss = emu_tracks_chan(e->th, c->slot, c->subsystem);
    if (ev->v == 'x' && emu_chan_push(&e->bay, ss, emu_int(c->body_subsystem)))
        return -1;
    if (ev->v == 'e' && emu_chan_pop(&e->bay, ss, emu_int(c->body_subsystem)))
        return -1;
    /* A nested start or end switches to the other body. */
    int nested = (ev->v == 'x' && prev) || (ev->v == 'e' && next);
    int runs = ev->v == 'x' || ev->v == 'r' || nested;
    if (show_body(e, c, ti, runs ? next : NULL))
        return -1;
    emu_value top = emu_chan_read(ss);
    if (ev->v == 'x' && !top.null && top.i != c->body_subsystem) {
        e->fault = "a task started outside the task body subsystem";
        return -1;
    }
    return 0;
}

/* A task whose bodies all ended leaves the table (emu_task.h): a parallel
 * one once its bodies' ids are all in its ended prefix, another once its
 * one body is dead. */
static int retire(emu *e, emu_task_info *ti, emu_body_table *bt, const emu_task *task)
{
    uint32_t id = task->id;
    if (task->flags & EMU_TASK_PARALLEL) {
        if (!task->n_bodies || task->dead_bodies != task->n_bodies)
            return 0;
    } else {
        const emu_body *b = emu_body_find(bt, id, 1);
        if (!b || b->state != EMU_BODY_DEAD)
            return 0;
        emu_body_remove(bt, id, 1);
    }
    if (emu_task_retire(ti, id) != 0) {
        e->fault = "out of memory";
        return -1;
    }
    return 0;
}

int emu_task_transition(emu *e, emu_ev *ev, const emu_task_chans *c, emu_task_info *ti,
                        emu_body_table *bt, emu_body_stack *bs, emu_task *task, uint32_t body_id)
{
    int rc = transition(e, ev, c, ti, bt, bs, task, body_id);
    return retire(e, ti, bt, task) != 0 ? -1 : rc;
}

emu_task *emu_task_lookup(emu *e, emu_task_info *ti, emu_body_table *bt, uint32_t id)
{
    emu_task *t = emu_task_find(ti, id);
    uint32_t type;
    unsigned flags;
    if (t)
        return t;
    if (!emu_task_ended(ti, id, &type, &flags)) {
        e->fault = "the task was not created";
        return NULL;
    }
    /* Brought back as it ended: a parallel one with its bodies ended, any
     * other with its one body dead. */
    t = emu_task_revive(ti, id, type, flags);
    if (t && !(flags & EMU_TASK_PARALLEL)) {
        if (emu_body_add_dead(bt, t, 1) != 0)
            t = NULL;
        else
            t->n_bodies = 1;
    }
    if (!t)
        e->fault = "out of memory";
    return t;
}

int emu_task_state_init(emu_task_state *ts, const emu *e)
{
    size_t np = e->sys.n_procs ? e->sys.n_procs : 1, nt = e->sys.n_threads ? e->sys.n_threads : 1;
    ts->tasks = calloc(np, sizeof *ts->tasks);
    ts->bodies = calloc(np, sizeof *ts->bodies);
    ts->stacks = calloc(nt, sizeof *ts->stacks);
    return ts->tasks && ts->bodies && ts->stacks ? 0 : -1;
}

void emu_task_state_free(emu_task_state *ts, const emu *e)
{
    for (uint32_t i = 0; ts->tasks && ts->bodies && i < e->sys.n_procs; i++) {
        emu_task_info_free(&ts->tasks[i]);
        emu_body_table_free(&ts->bodies[i]);
    }
    for (uint32_t i = 0; ts->stacks && i < e->sys.n_threads; i++)
        emu_body_stack_free(&ts->stacks[i]);
    free(ts->tasks);
    free(ts->bodies);
    free(ts->stacks);
    ts->tasks = NULL;
    ts->bodies = NULL;
    ts->stacks = NULL;
}

int emu_task_create_event(emu *e, emu_ev *ev, emu_task_info *ti, unsigned flags)
{
    int ok = 1, dup;
    uint32_t id = (uint32_t)emu_ev_int(ev, 0, &ok);
    emu_task_type *type = emu_task_type_find(ti, (uint32_t)emu_ev_int(ev, 1, &ok));
    if (!ok || !type) {
        e->fault = "the task's type was not declared";
        return -1;
    }
    if (emu_task_add(ti, id, (uint32_t)(type - ti->types), flags, &dup) != 0) {
        e->fault = dup ? "the task id already exists" : "a task id must be non-zero";
        return -1;
    }
    return 0;
}

const emu_label emu_idle_labels[] = {
    {100, "Progressing"}, {101, "Resting"}, {102, "Absorbing noise"}, {0, NULL}};

void emu_idle_init(emu *e, int slot, int ch)
{
    for (uint32_t i = 0; i < e->sys.n_threads; i++)
        emu_chan_set(&e->bay, emu_tracks_chan(&e->sys.threads[i], slot, ch), emu_int(100));
    for (uint32_t i = 0; i < e->sys.n_cpus; i++)
        ((emu_tracks *)e->sys.cpus[i].model[slot])->mux[ch].def = emu_int(101);
}
