/* emu_thread.h — the thread states of the ovni model and the system
 * channels every thread has (ovni src/emu/thread.c). */
#ifndef PW_EMU_THREAD_H
#define PW_EMU_THREAD_H
#include "analysis/ovniemu/emu_chan.h"

enum emu_thread_state {
    EMU_TH_UNKNOWN = 0,
    EMU_TH_RUNNING = 1,
    EMU_TH_PAUSED = 2,
    EMU_TH_DEAD = 3,
    EMU_TH_COOLING = 4,
    EMU_TH_WARMING = 5
};

/* The thread's own channels and their Paraver event types. */
enum { EMU_TH_CHAN_CPU, EMU_TH_CHAN_TID, EMU_TH_CHAN_STATE, EMU_TH_CHANS };
#define EMU_PRV_THREAD_CPU 6
#define EMU_PRV_THREAD_TID 2
#define EMU_PRV_THREAD_STATE 4

/* The models' slots: each model's file numbers its own (SLOT_OVNI 0 to
 * SLOT_KERNEL 9); threads, CPUs and the emulator keep per-slot state. */
enum { EMU_MODEL_SLOTS = 12 };

struct emu_cpu;
struct emu_proc;
struct emu_bay;

typedef struct emu_thread {
    int64_t tid;
    uint32_t gindex;      /* row in thread.prv */
    uint32_t loc;         /* the dataset location of its stream */
    struct emu_proc *proc;
    struct emu_cpu *cpu;  /* NULL while it has none */
    struct emu_thread *cpu_prev, *cpu_next; /* the CPU's list of threads */
    int state;
    int is_running, is_active;
    int finished;         /* its metadata says it ended cleanly */
    int is_out_of_cpu;    /* switched out by the kernel (kernel model) */
    /* Per model slot: the channels its events set (emu_tracks_chan), next
     * to what every event reads of the thread, where going through the
     * model's emu_tracks cost a cache line per event. */
    emu_chan *track_ch[EMU_MODEL_SLOTS];
    emu_chan chan[EMU_TH_CHANS];
    void *model[EMU_MODEL_SLOTS]; /* per-model state, by emu_model slot */
} emu_thread;

void emu_thread_init_chans(emu_thread *th);
/* The state transitions (ovni src/emu/thread.c); -1 with bay->fault. */
int emu_thread_set_state(struct emu_bay *bay, emu_thread *th, int state);
int emu_thread_set_cpu(struct emu_bay *bay, emu_thread *th, struct emu_cpu *cpu);
int emu_thread_unset_cpu(struct emu_bay *bay, emu_thread *th);
int emu_thread_migrate_cpu(struct emu_bay *bay, emu_thread *th, struct emu_cpu *cpu);
#endif
