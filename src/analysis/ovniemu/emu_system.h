/* emu_system.h — the emulated machine: looms, processes, threads and CPUs
 * with the global indexes (Paraver rows) ovniemu gives them
 * (ovni src/emu/system.c, loom.c, proc.c, cpu.c). */
#ifndef PW_EMU_SYSTEM_H
#define PW_EMU_SYSTEM_H
#include "analysis/ovniemu/emu_thread.h"
#include "model/dataset.h"

/* The CPU's own channels; TID, PID and the running count are written. */
enum { EMU_CPU_CHAN_NRUN, EMU_CPU_CHAN_PID, EMU_CPU_CHAN_TID, EMU_CPU_CHAN_THRUN,
       EMU_CPU_CHAN_THACT, EMU_CPU_CHANS };
#define EMU_PRV_CPU_PID 1
#define EMU_PRV_CPU_TID 2
#define EMU_PRV_CPU_NRUN 3

struct emu_loom;

typedef struct emu_cpu {
    int32_t index, phyid;
    int is_virtual;
    uint32_t gindex;         /* row in cpu.prv */
    struct emu_loom *loom;
    char name[48];           /* " CPU 0.3", "vCPU 0.*" */
    emu_thread *threads;     /* assigned to it */
    int nth_running, nth_active;
    emu_chan chan[EMU_CPU_CHANS];
    void *model[EMU_MODEL_SLOTS];
} emu_cpu;

typedef struct emu_proc {
    int64_t pid;
    int64_t appid, rank;
    struct emu_loom *loom;
    uint32_t gindex;
} emu_proc;

typedef struct emu_loom {
    const char *name;
    int32_t loc;
    uint32_t gindex;
    int64_t rank_min;        /* INT64_MAX when its processes have no rank */
    emu_cpu **cpus_by_index; /* by the index of its CPU list */
    uint32_t n_cpus;
    emu_cpu *vcpu;
} emu_loom;

typedef struct emu_system {
    emu_loom *looms;
    uint32_t n_looms;
    emu_proc *procs;
    uint32_t n_procs;
    emu_thread *threads;     /* by gindex */
    uint32_t n_threads;
    emu_cpu *cpus;           /* by gindex */
    uint32_t n_cpus;
    emu_thread **thread_of_loc; /* by dataset location */
} emu_system;

/* Builds the system from the dataset's locations and properties.  Returns
 * PW_OK, or an error naming what ovniemu would refuse. */
pw_status emu_system_build(emu_system *sys, pw_dataset *ds, pw_error *err);
void emu_system_free(emu_system *sys);
/* A loom's CPU by its index (-1: the virtual CPU), or NULL. */
emu_cpu *emu_loom_cpu(const emu_loom *l, int64_t index);
/* A thread of the loom by TID, or NULL. */
emu_thread *emu_loom_thread(const emu_system *sys, const emu_loom *l, int64_t tid);

/* The CPU's view of its threads (ovni src/emu/cpu.c). */
int emu_cpu_update(emu_bay *bay, emu_cpu *cpu);
int emu_cpu_add_thread(emu_bay *bay, emu_cpu *cpu, emu_thread *th);
int emu_cpu_remove_thread(emu_bay *bay, emu_cpu *cpu, emu_thread *th);
#endif
