/* emu_task.h — task types and tasks of one process, as the task-based
 * models (nOS-V, Nanos6, OpenMP) declare them (ovni src/emu/task.c). */
#ifndef PW_EMU_TASK_H
#define PW_EMU_TASK_H
#include <stddef.h>
#include <stdint.h>

#include "analysis/ovniemu/emu_task_map.h"

typedef struct emu_task_type {
    uint32_t id;
    uint32_t gid;      /* the value written for the type: from its label */
    char *label;
} emu_task_type;

/* What a task's bodies may do (ovni src/emu/task.h). */
enum {
    EMU_TASK_PARALLEL = 1,     /* several bodies */
    EMU_TASK_RESURRECT = 2,    /* runs again after it ended */
    EMU_TASK_PAUSE = 4,        /* its bodies may pause */
    EMU_TASK_RELAX_NESTING = 8, /* another task may start over it running */
    EMU_TASK_BODILESS = 16      /* no bodies (OpenMP): only its type is ever needed */
};

typedef struct emu_task {
    uint32_t id;       /* 0: a free slot */
    uint32_t type;     /* index into the process's types */
    uint32_t n_bodies;
    uint32_t dead_bodies; /* parallel tasks: bodies 1..dead_bodies ended and left the body table */
    uint8_t flags;
} emu_task;

/* The tasks of a process.  ovniemu keeps every task and body to the end
 * (ovni src/emu/task.c has no removal) and refuses a second task with a
 * known id; so does this, in memory that does not grow with the tasks
 * created (emu_task_map.h):
 *   - `kinds` holds each task's type and flags from its creation on: a
 *     task is known when it has one;
 *   - the open-addressing table holds the tasks in flight, from their
 *     creation until their bodies ended (OpenMP's, which have no bodies,
 *     never enter it): a known task that is not there has ended;
 *   - `parallel_ended` holds, for a parallel task (nOS-V VTC) that left
 *     the table, how many bodies it had, all ended: enough to refuse a
 *     body run again or to start a new one as ovniemu does. */
typedef struct emu_task_info {
    emu_task_type *types;
    size_t n_types, cap_types;
    emu_task *tasks;
    size_t n_tasks, cap_tasks; /* cap is a power of two */
    emu_task_map kinds;          /* id -> emu_task_kind() */
    emu_task_map parallel_ended; /* id -> bodies, for parallel tasks out of the table */
} emu_task_info;

/* The Paraver value of a task type with this label (task_get_type_gid). */
uint32_t emu_task_type_gid(const char *label);
/* Declares a type; NULL when its id exists or memory runs out (*dup set
 * in the first case). */
emu_task_type *emu_task_type_add(emu_task_info *ti, uint32_t id, const char *label, size_t n,
                                 int *dup);
emu_task_type *emu_task_type_find(const emu_task_info *ti, uint32_t id);
/* Declares a task (bodiless ones never enter the table); 0, or -1 when
 * its id is known (*dup) or zero, or memory runs out. */
int emu_task_add(emu_task_info *ti, uint32_t id, uint32_t type_index, unsigned flags, int *dup);
/* A task in flight, or NULL. */
emu_task *emu_task_find(const emu_task_info *ti, uint32_t id);
/* A known task that is not in flight (ended, or bodiless): 1 with its
 * type index and flags, else 0. */
int emu_task_ended(const emu_task_info *ti, uint32_t id, uint32_t *type_index, unsigned *flags);
/* Takes a task whose bodies all ended out of the table; -1 when memory
 * runs out. */
int emu_task_retire(emu_task_info *ti, uint32_t id);
/* Brings an ended task back into the table with its bodies as they were
 * (a parallel one's bodies 1..n ended; the caller adds the others' one
 * dead body); NULL when memory runs out. */
emu_task *emu_task_revive(emu_task_info *ti, uint32_t id, uint32_t type_index, unsigned flags);
/* Where a task id starts its search in an open-addressing table. */
uint32_t emu_task_home(uint32_t id);
void emu_task_info_free(emu_task_info *ti);
#endif
