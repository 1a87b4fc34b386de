/* emu_task.h — task types and tasks of one process, as the task-based
 * models (nOS-V, Nanos6, OpenMP) declare them (ovni src/emu/task.c). */
#ifndef PW_EMU_TASK_H
#define PW_EMU_TASK_H
#include <stddef.h>
#include <stdint.h>

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
    EMU_TASK_RELAX_NESTING = 8 /* another task may start over it running */
};

typedef struct emu_task {
    uint32_t id;       /* 0: a free slot */
    uint32_t type;     /* index into the process's types */
    uint32_t n_bodies;
    uint8_t flags;
} emu_task;

/* Open-addressing tables keyed by id.  Memory grows with the tasks a
 * process creates, and must: ovniemu keeps every task it was told of until
 * the end (ovni src/emu/task.c has no removal) and refuses a second task
 * with a known id, so at least every id must stay known; nOS-V's tasks
 * (VTc) and OpenMP's may run again after they end and a parallel task
 * (VTC) may start a new body at any time, so theirs must stay whole (type,
 * flags, bodies).  Only a Nanos6 task whose body ended can do nothing
 * more, and its id must still be kept.  37 to 75 bytes per task with its
 * body (16 + 12 bytes, in tables kept 3/8 to 3/4 full). */
typedef struct emu_task_info {
    emu_task_type *types;
    size_t n_types, cap_types;
    emu_task *tasks;
    size_t n_tasks, cap_tasks; /* cap is a power of two */
} emu_task_info;

/* The Paraver value of a task type with this label (task_get_type_gid). */
uint32_t emu_task_type_gid(const char *label);
/* Declares a type; NULL when its id exists or memory runs out (*dup set
 * in the first case). */
emu_task_type *emu_task_type_add(emu_task_info *ti, uint32_t id, const char *label, size_t n,
                                 int *dup);
emu_task_type *emu_task_type_find(const emu_task_info *ti, uint32_t id);
/* Declares a task; NULL when its id exists (*dup) or memory runs out. */
emu_task *emu_task_add(emu_task_info *ti, uint32_t id, uint32_t type_index, unsigned flags,
                       int *dup);
emu_task *emu_task_find(const emu_task_info *ti, uint32_t id);
/* Where a task id starts its search in an open-addressing table. */
uint32_t emu_task_home(uint32_t id);
void emu_task_info_free(emu_task_info *ti);
#endif
