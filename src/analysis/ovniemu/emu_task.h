/* emu_task.h — task types and tasks of one process, as the task-based
 * models (nOS-V, Nanos6, OpenMP) declare them (ovni src/emu/task.c). */
#ifndef PW_EMU_TASK_H
#define PW_EMU_TASK_H
#include <stddef.h>
#include <stdint.h>

#include "analysis/ovniemu/emu_task_ended.h"

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
    uint8_t flags;
} emu_task;

/* The tasks in flight in an open-addressing table keyed by id, and the
 * ones that ended (and OpenMP's, which have no bodies) as runs of ids
 * (emu_task_ended.h): ovniemu keeps every task to the end (ovni
 * src/emu/task.c has no removal), and so does this, at the cost of a run
 * for an ended task instead of its 16 bytes (and its body's 12) in the
 * tables.  Parallel nOS-V tasks (VTC) may start a body at any time and
 * stay in the table whole. */
typedef struct emu_task_info {
    emu_task_type *types;
    size_t n_types, cap_types;
    emu_task *tasks;
    size_t n_tasks, cap_tasks; /* cap is a power of two */
    emu_task_ended ended;
} emu_task_info;

/* The Paraver value of a task type with this label (task_get_type_gid). */
uint32_t emu_task_type_gid(const char *label);
/* Declares a type; NULL when its id exists or memory runs out (*dup set
 * in the first case). */
emu_task_type *emu_task_type_add(emu_task_info *ti, uint32_t id, const char *label, size_t n,
                                 int *dup);
emu_task_type *emu_task_type_find(const emu_task_info *ti, uint32_t id);
/* Declares a task (bodiless ones among the ended); 0, or -1 when its id
 * is known (*dup) or zero, or memory runs out. */
int emu_task_add(emu_task_info *ti, uint32_t id, uint32_t type_index, unsigned flags, int *dup);
/* A task in flight, or NULL. */
emu_task *emu_task_find(const emu_task_info *ti, uint32_t id);
/* Takes a task out of the table (into the ended runs when `ended`); -1
 * when memory runs out. */
int emu_task_remove(emu_task_info *ti, uint32_t id, int ended);
/* Where a task id starts its search in an open-addressing table. */
uint32_t emu_task_home(uint32_t id);
void emu_task_info_free(emu_task_info *ti);
#endif
