/* emu_body.h — task bodies: one run of a task (or one of the runs of a
 * parallel task) and its states, and each thread's stack of the bodies it
 * has started (ovni src/emu/body.c). */
#ifndef PW_EMU_BODY_H
#define PW_EMU_BODY_H
#include "analysis/ovniemu/emu_task.h"

enum { EMU_BODY_CREATED, EMU_BODY_RUNNING, EMU_BODY_PAUSED, EMU_BODY_DEAD };

typedef struct emu_body {
    uint32_t task, id;    /* task 0: a free slot */
    uint8_t state, flags; /* flags: the task's */
    uint8_t on_stack;
} emu_body;

/* A process's bodies by (task, body) id. */
typedef struct emu_body_table {
    emu_body *b;
    size_t n, cap;
} emu_body_table;

/* A thread's started bodies, the last one on top. */
typedef struct emu_body_stack {
    uint64_t *keys;
    size_t n, cap;
} emu_body_stack;

/* The transitions; each returns NULL or the reason it is refused. */
const char *emu_body_execute(emu_body_table *t, emu_body_stack *s, emu_task *task, uint32_t id);
const char *emu_body_pause(emu_body_table *t, emu_body_stack *s, const emu_task *task, uint32_t id);
const char *emu_body_resume(emu_body_table *t, emu_body_stack *s, const emu_task *task, uint32_t id);
const char *emu_body_end(emu_body_table *t, emu_body_stack *s, emu_task *task, uint32_t id);
/* The body on top of the stack when it is running, or NULL. */
emu_body *emu_body_running(const emu_body_table *t, const emu_body_stack *s);
/* Body `id` of a task in the table, or NULL (a parallel task's ended
 * prefix is not there: emu_body.c). */
emu_body *emu_body_find(const emu_body_table *t, uint32_t task, uint32_t id);
/* Takes out body `id` of a task, which the table holds. */
void emu_body_remove(emu_body_table *t, uint32_t task, uint32_t id);
/* Adds body `id` of a task that ended to the table; -1 when memory runs out. */
int emu_body_add_dead(emu_body_table *t, const emu_task *task, uint32_t id);
void emu_body_table_free(emu_body_table *t);
void emu_body_stack_free(emu_body_stack *s);
#endif
