/* emu_task_map.h — a value for each task id of a process (0: none), in
 * memory that does not grow with the tasks of a realistic trace.
 *
 * Runtimes number a process's tasks in order, but threads create and end
 * them a few ids apart, task types alternate in the order a program's
 * loop creates them, and a map of one kind of task (the parallel ones)
 * has holes where the other kinds are.
 * So the newest EMU_TASK_MAP_WINDOW ids are held one value each, where
 * any order costs nothing, and the ids below that low-water mark as runs
 * whose values repeat with a period of up to EMU_TASK_MAP_PERIOD ids.
 *
 * The bound: one window, plus one run per change of the repeating pattern
 * in id order (a new loop of the program, a period longer than
 * EMU_TASK_MAP_PERIOD), plus at most two per id set after it fell below
 * the window (a task created or ended EMU_TASK_MAP_WINDOW ids after its
 * neighbours).  The tasks created, however many, do not add to it. */
#ifndef PW_EMU_TASK_MAP_H
#define PW_EMU_TASK_MAP_H
#include <stddef.h>
#include <stdint.h>

enum { EMU_TASK_MAP_WINDOW = 256, EMU_TASK_MAP_PERIOD = 12 };

/* Ids lo..hi: id's value is values[(id - lo) % period]. */
typedef struct emu_task_map_run {
    uint32_t lo, hi, period;
    uint32_t values[EMU_TASK_MAP_PERIOD];
} emu_task_map_run;

typedef struct emu_task_map {
    emu_task_map_run *runs; /* by id, apart, all below base */
    size_t n, cap;
    uint32_t *window;       /* ids base..base+WINDOW-1, at index id % WINDOW; NULL until used */
    uint32_t base;
} emu_task_map;

/* The value of id, 0 when none was set. */
uint32_t emu_task_map_get(const emu_task_map *m, uint32_t id);
/* Sets a non-zero value for id; -1 when memory runs out. */
int emu_task_map_set(emu_task_map *m, uint32_t id, uint32_t value);
void emu_task_map_free(emu_task_map *m);
#endif
