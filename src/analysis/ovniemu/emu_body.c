/* emu_body.c — body states: Created -> Running <-> Paused, Running ->
 * Dead, and Dead -> Running again for tasks that may resurrect.  Only the
 * body on top of a thread's stack may pause, resume or end; a body may
 * start over a running one only when that one's task relaxes nesting.
 *
 * A parallel task may start a body at any time (ovni src/emu/task.c keeps
 * them all), but the bodies of one that may not run again only change
 * while they live: once bodies 1..k are dead, k says it all, so they
 * leave the table and the task keeps k (emu_task.dead_bodies).  nOS-V
 * numbers a parallel task's bodies from 1, so the table holds only the
 * bodies running, paused, or dead above one that still lives. */
#include "analysis/ovniemu/emu_body.h"

#include <stdlib.h>
#include <string.h>

static uint64_t key_of(uint32_t task, uint32_t id) { return (uint64_t)task << 32 | id; }

/* By task as the task table does; a parallel task's bodies follow. */
static size_t home_of(uint32_t task, uint32_t id) { return emu_task_home(task) + id * 0x9E3779B1u; }

static size_t slot_of(const emu_body_table *t, uint32_t task, uint32_t id)
{
    size_t mask = t->cap - 1;
    size_t i = home_of(task, id) & mask;
    while (t->b[i].task && (t->b[i].task != task || t->b[i].id != id))
        i = (i + 1) & mask;
    return i;
}

emu_body *emu_body_find(const emu_body_table *t, uint32_t task, uint32_t id)
{
    if (!t->cap)
        return NULL;
    emu_body *b = &t->b[slot_of(t, task, id)];
    return b->task ? b : NULL;
}

static emu_body *create(emu_body_table *t, const emu_task *task, uint32_t id)
{
    if ((t->n + 1) * 4 > t->cap * 3) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        emu_body_table g = {calloc(cap, sizeof *g.b), t->n, cap};
        if (!g.b)
            return NULL;
        for (size_t i = 0; i < t->cap; i++)
            if (t->b[i].task)
                g.b[slot_of(&g, t->b[i].task, t->b[i].id)] = t->b[i];
        free(t->b);
        *t = g;
    }
    emu_body *b = &t->b[slot_of(t, task->id, id)];
    *b = (emu_body){task->id, id, EMU_BODY_CREATED, task->flags, 0};
    t->n++;
    return b;
}

/* Body `id` of a task, in the table or, dead, in its ended prefix (held
 * in `scratch`: every transition refuses it before changing it). */
static emu_body *lookup(const emu_body_table *t, const emu_task *task, uint32_t id, emu_body *scratch)
{
    if (id && id <= task->dead_bodies) {
        *scratch = (emu_body){task->id, id, EMU_BODY_DEAD, task->flags, 0};
        return scratch;
    }
    return emu_body_find(t, task->id, id);
}

/* The dead bodies just above a parallel task's ended prefix join it. */
static void sweep(emu_body_table *t, emu_task *task)
{
    if (!(task->flags & EMU_TASK_PARALLEL) || (task->flags & EMU_TASK_RESURRECT))
        return;
    for (;;) {
        uint32_t next = task->dead_bodies + 1;
        const emu_body *b = next ? emu_body_find(t, task->id, next) : NULL;
        if (!b || b->state != EMU_BODY_DEAD)
            return;
        emu_body_remove(t, task->id, next);
        task->dead_bodies = next;
    }
}

emu_body *emu_body_running(const emu_body_table *t, const emu_body_stack *s)
{
    if (!s->n)
        return NULL;
    uint64_t k = s->keys[s->n - 1];
    emu_body *b = emu_body_find(t, (uint32_t)(k >> 32), (uint32_t)k);
    return b && b->state == EMU_BODY_RUNNING ? b : NULL;
}

const char *emu_body_execute(emu_body_table *t, emu_body_stack *s, emu_task *task, uint32_t id)
{
    if (!id)
        return "a body id must be non-zero";
    emu_body scratch;
    emu_body *b = lookup(t, task, id, &scratch);
    if (!b) {
        if (!(task->flags & EMU_TASK_PARALLEL) && task->n_bodies > 0)
            return "a task that is not parallel has only one body";
        if (!(b = create(t, task, id)))
            return "out of memory";
        task->n_bodies++;
    }
    if (b->state == EMU_BODY_DEAD) {
        if (!(b->flags & EMU_TASK_RESURRECT))
            return "the task body is not allowed to run again";
        b->state = EMU_BODY_CREATED;
    }
    if (b->state == EMU_BODY_PAUSED)
        return "a paused task body must be resumed, not executed";
    if (b->state != EMU_BODY_CREATED || b->on_stack)
        return "the task body is already running";
    const emu_body *top = emu_body_running(t, s);
    if (top && !(top->flags & EMU_TASK_RELAX_NESTING))
        return "cannot nest a task body over one that is running";
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        uint64_t *k = realloc(s->keys, cap * sizeof *k);
        if (!k)
            return "out of memory";
        s->keys = k;
        s->cap = cap;
    }
    s->keys[s->n++] = key_of(task->id, id);
    b->on_stack = 1;
    b->state = EMU_BODY_RUNNING;
    return NULL;
}

/* The body, which must be on top of this thread's stack in state `from`. */
static const char *top_in(emu_body_table *t, emu_body_stack *s, const emu_task *task, uint32_t id,
                          int from, emu_body **out)
{
    emu_body scratch;
    emu_body *b = lookup(t, task, id, &scratch);
    if (!b)
        return "the task body does not exist";
    if (b->state != from)
        return from == EMU_BODY_RUNNING ? "the task body is not running" : "the task body is not paused";
    if (!s->n || s->keys[s->n - 1] != key_of(task->id, id))
        return "the task body is not on top of this thread's stack";
    *out = b;
    return NULL;
}

const char *emu_body_pause(emu_body_table *t, emu_body_stack *s, const emu_task *task, uint32_t id)
{
    emu_body *b, scratch;
    const emu_body *found = lookup(t, task, id, &scratch);
    if (found && !(found->flags & EMU_TASK_PAUSE))
        return "the task body is not allowed to pause";
    const char *why = top_in(t, s, task, id, EMU_BODY_RUNNING, &b);
    if (!why)
        b->state = EMU_BODY_PAUSED;
    return why;
}

const char *emu_body_resume(emu_body_table *t, emu_body_stack *s, const emu_task *task, uint32_t id)
{
    emu_body *b;
    const char *why = top_in(t, s, task, id, EMU_BODY_PAUSED, &b);
    if (!why)
        b->state = EMU_BODY_RUNNING;
    return why;
}

const char *emu_body_end(emu_body_table *t, emu_body_stack *s, emu_task *task, uint32_t id)
{
    emu_body *b;
    const char *why = top_in(t, s, task, id, EMU_BODY_RUNNING, &b);
    if (why)
        return why;
    b->state = EMU_BODY_DEAD;
    b->on_stack = 0;
    s->n--;
    sweep(t, task);
    return NULL;
}

void emu_body_remove(emu_body_table *t, uint32_t task, uint32_t id)
{
    size_t mask = t->cap - 1, hole = slot_of(t, task, id);
    /* Linear probing's deletion, as the task table's. */
    for (size_t i = (hole + 1) & mask; t->b[i].task; i = (i + 1) & mask) {
        size_t home = home_of(t->b[i].task, t->b[i].id) & mask;
        if (((i - home) & mask) < ((i - hole) & mask))
            continue;
        t->b[hole] = t->b[i];
        hole = i;
    }
    t->b[hole].task = 0;
    t->n--;
}

/* A body that ended, for a task brought back from the ended ones. */
int emu_body_add_dead(emu_body_table *t, const emu_task *task, uint32_t id)
{
    emu_body *b = create(t, task, id);
    if (!b)
        return -1;
    b->state = EMU_BODY_DEAD;
    return 0;
}

void emu_body_table_free(emu_body_table *t)
{
    free(t->b);
    memset(t, 0, sizeof *t);
}

void emu_body_stack_free(emu_body_stack *s)
{
    free(s->keys);
    memset(s, 0, sizeof *s);
}
