/* emu_tracks.h — a model's channels as data (ovni src/emu/model_thread.c,
 * model_cpu.c, model_pvt.c): per thread one channel per entry, shown in
 * the thread's view always, while running or while active; per CPU the
 * same entry of the thread running on it. */
#ifndef PW_EMU_TRACKS_H
#define PW_EMU_TRACKS_H
#include "analysis/ovniemu/emu.h"
#include "analysis/ovniemu/emu_mux.h"

enum { EMU_TRACK_ANY, EMU_TRACK_RUN, EMU_TRACK_ACT };

typedef struct emu_chan_spec {
    const char *name;        /* "subsystem" */
    int is_stack;
    int allow_dup;
    int32_t prv_type;        /* Paraver event type */
    const char *prefix;      /* "nOS-V subsystem" */
    const emu_label *labels; /* NULL-label-ended, or NULL */
    unsigned prv_flags;
    int th_track, cpu_track;
    int plain_label;         /* the label is the prefix alone (marks) */
} emu_chan_spec;

/* A thread's or CPU's channels of one model. */
typedef struct emu_tracks {
    const emu_chan_spec *spec;
    int n;
    emu_chan *ch;    /* threads: what the model sets; NULL for CPUs */
    emu_chan *out;   /* what the row shows: a mux output, or ch itself */
    emu_mux *mux;
} emu_tracks;

/* Creates the channels of n specs for every thread and CPU of e, in the
 * model's slot, binds them to their rows and declares their types. */
int emu_tracks_create(emu *e, int slot, const emu_chan_spec *spec, int n);
void emu_tracks_destroy(emu *e, int slot);
/* The thread's channel i of the model in slot. */
static inline emu_chan *emu_tracks_chan(emu_thread *th, int slot, int i)
{
    return &th->track_ch[slot][i];
}
#endif
