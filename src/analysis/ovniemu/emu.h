/* emu.h — the ovni emulator: records in time order through the models of
 * the runtimes, giving each thread's and CPU's channels over time, as
 * ovniemu 1.14 does (bsc-pm/ovni src/emu/emu.c).  Format-independent: it
 * reads locations, properties and records (types are the MCV codes). */
#ifndef PW_EMU_H
#define PW_EMU_H
#include "analysis/ovniemu/emu_dispatch.h"
#include "analysis/ovniemu/emu_pcf.h"
#include "analysis/ovniemu/emu_system.h"

typedef struct emu emu;

/* The event being emulated. */
typedef struct emu_ev {
    char m, c, v;               /* the MCV */
    int64_t t;                  /* ns since the first event */
    const pw_record *rec;
    const pw_value *fields;     /* decoded on demand: emu_ev_field */
} emu_ev;

/* A model: its letter, and what it adds to the system and does per event.
 * event() returns 0, or -1 with emu->bay.fault (or emu->fault) set. */
typedef struct emu_model {
    char letter;
    const char *name;     /* as "require" names it */
    int slot;             /* index into thread/cpu model[] */
    int (*create)(emu *e);
    int (*event)(emu *e, emu_ev *ev);
    void (*destroy)(emu *e);
} emu_model;

/* A schema's name and the MCV it spells (shorter names end early). */
typedef struct emu_mcv {
    const char *name;
    char m, c, v;
} emu_mcv;

/* The kinds of finding the emulation makes (emu.c names their codes).
 * Of each kind the first EMU_FINDINGS_PER_KIND are listed and the rest
 * counted, as the ovni cursor does per stream (OVNI_DIAGS_PER_KIND): a
 * trace with millions of forbidden transitions must leave the dataset's
 * findings (at most PW_MAX_DIAGS) room for the damage its reads meet. */
enum { EMU_BAD_TRANSITION, EMU_CLOCK_BACKWARDS, EMU_MODEL_NOT_ENABLED, EMU_UNKNOWN_MODEL,
       EMU_THREAD_NOT_DEAD, EMU_FINDING_KINDS };
enum { EMU_FINDINGS_PER_KIND = 64 };

struct emu {
    pw_dataset *ds;
    /* Per schema of ds: records whose type is their schema's name (every
     * known event) take their MCV here, from a table that stays in the
     * cache, rather than from the name's own bytes. */
    emu_mcv *mcv_of;
    emu_system sys;
    emu_bay bay;
    emu_pcf pcf[EMU_VIEWS];
    emu_thread *th;            /* the thread of the current event */
    const emu_model *by_letter[256];
    const emu_model *active[256]; /* by letter: the model when it is enabled, else NULL */
    uint8_t unknown_seen[256]; /* letters of unknown or disabled models met */
    void *model_state[EMU_MODEL_SLOTS]; /* per-model global state, by slot */
    emu_dispatch *dispatch[EMU_MODEL_SLOTS]; /* each model's event table by MCV, made at its first event */
    const char *fault;         /* a model's own fault text for this event */
    int64_t first_clock;
    int64_t last_time;         /* of the last event, since the first */
    /* The report window the changes are clipped to (NULL: none), placed
     * at the first event; cut: the history read stopped at its end. */
    struct pw_state_window *window;
    int cut;
    uint64_t events;
    uint64_t found[EMU_FINDING_KINDS]; /* findings met, by kind (emu.c lists the first few) */
};

/* The row of the event in the table of the model in `slot` (the square
 * made by fill at the model's first event), or -1 with e->fault set.
 * Inline: every event of a table-driven model asks, and a made square
 * answers with one load. */
static inline int emu_dispatch_event(emu *e, const emu_ev *ev, int slot, emu_dispatch_fill fill,
                                     const void *table, size_t n)
{
    const emu_dispatch *d = e->dispatch[slot];
    int row = d ? emu_dispatch_row(d, ev->c, ev->v) : -1;
    return row >= 0 ? row : emu_dispatch_slow(e, ev, slot, fill, table, n);
}

/* Field k of the event's record (0: the payload), or NULL when its schema
 * has no such field or the record does not carry it. */
const pw_value *emu_ev_field(emu_ev *ev, int k);
/* Signature field k (0-based, after the payload) as an integer; 0 when the
 * record lacks it, with *ok cleared. */
int64_t emu_ev_int(emu_ev *ev, int k, int *ok);

/* Builds the system and the enabled models of ds; each channel change
 * will go to emit (NULL: check runs it for the findings alone).  e holds
 * the system and the Paraver types; release it with emu_free, even when
 * this fails. */
pw_status emu_start(emu *e, pw_dataset *ds, emu_emit_fn emit, void *ctx, pw_error *err);
/* Emulates every record in time order.  Faults become findings of ds and
 * the emulation goes on. */
pw_status emu_play(emu *e, pw_error *err);
void emu_free(emu *e);

/* The models, in the order their types are declared. */
extern const emu_model emu_model_ovni;
extern const emu_model emu_model_mpi;
extern const emu_model emu_model_tampi;
extern const emu_model emu_model_openmp;
extern const emu_model emu_model_nosv;
extern const emu_model emu_model_nanos6;
extern const emu_model emu_model_nodes;
extern const emu_model emu_model_kernel;
#endif
