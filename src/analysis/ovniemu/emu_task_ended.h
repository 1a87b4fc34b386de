/* emu_task_ended.h — the tasks of a process that ended (or, for OpenMP,
 * that have no bodies), as runs of consecutive ids of one type and kind.
 * ovniemu keeps every task to the end and refuses a second task with a
 * known id; nOS-V and OpenMP tasks may run again after they end.  What
 * such a task needs then is its type and kind alone, and runtimes number
 * tasks in order, so an ended task costs nothing more than the run it
 * extends: memory grows with the runs (the interleaving of task types in
 * id order and the tasks still in flight), not with the tasks created. */
#ifndef PW_EMU_TASK_ENDED_H
#define PW_EMU_TASK_ENDED_H
#include <stddef.h>
#include <stdint.h>

typedef struct emu_task_run {
    uint32_t lo, hi;  /* ids lo..hi */
    uint32_t type;    /* index into the process's types */
    uint8_t flags;    /* the tasks' EMU_TASK_* flags */
} emu_task_run;

typedef struct emu_task_ended {
    emu_task_run *runs; /* by id, apart and not adjacent with the same type and flags */
    size_t n, cap;
} emu_task_ended;

/* The run holding id, or NULL. */
const emu_task_run *emu_task_ended_find(const emu_task_ended *s, uint32_t id);
/* Adds id, which it does not hold; -1 when memory runs out. */
int emu_task_ended_add(emu_task_ended *s, uint32_t id, uint32_t type, uint8_t flags);
/* Takes out id, which it holds; -1 when memory runs out. */
int emu_task_ended_remove(emu_task_ended *s, uint32_t id);
void emu_task_ended_free(emu_task_ended *s);
#endif
