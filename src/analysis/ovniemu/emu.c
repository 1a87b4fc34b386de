/* emu.c — the emulation loop: the system from the dataset, the enabled
 * models, then every record in time order through its model, each event
 * ending with a propagation of the channels it changed (ovni
 * src/emu/emu.c, model.c, player.c).  Times are relative to the first
 * event, as ovniemu writes them.  Where ovniemu would stop, a finding is
 * recorded and the emulation goes on. */
#include "analysis/ovniemu/emu.h"
#include "views/state_window.h"
#include "core/compiler.h"

#include <stdlib.h>
#include <string.h>

/* In ovniemu's order (by model letter), which is the order their channels
 * subscribe to the thread states: the order of lines within one time. */
static const emu_model *const models[] = {&emu_model_nanos6, &emu_model_nodes, &emu_model_kernel,
                                          &emu_model_mpi,    &emu_model_ovni,  &emu_model_openmp,
                                          &emu_model_tampi,  &emu_model_nosv};
#define N_MODELS (sizeof models / sizeof *models)

static const emu_label thread_states[] = {
    {EMU_TH_UNKNOWN, "Unknown"}, {EMU_TH_RUNNING, "Running"}, {EMU_TH_PAUSED, "Paused"},
    {EMU_TH_DEAD, "Dead"},       {EMU_TH_COOLING, "Cooling"}, {EMU_TH_WARMING, "Warming"},
    {0, NULL}};

/* The fields of the event's record, decoded on first use. */
static const pw_value *emu_ev_fields(emu_ev *ev)
{
    if (!ev->fields)
        ev->fields = pw_record_fields(ev->rec);
    return ev->fields;
}

/* k is checked against the schema first: a field the schema lacks costs
 * no decoding of the record. */
const pw_value *emu_ev_field(emu_ev *ev, int k)
{
    if (k < 0 || (size_t)k >= ev->rec->cursor->ds->schemas[ev->rec->schema]->n_fields)
        return NULL;
    const pw_value *all = emu_ev_fields(ev);
    return all[k].present ? &all[k] : NULL;
}

int64_t emu_ev_int(emu_ev *ev, int k, int *ok)
{
    const pw_value *v = emu_ev_field(ev, k + 1);
    if (!v || (v->type != PW_T_U64 && v->type != PW_T_I64)) {
        *ok = 0;
        return 0;
    }
    return v->type == PW_T_U64 ? (int64_t)v->v.u : v->v.i;
}

/* The system's own channels and types (ovni src/emu/thread.c, cpu.c,
 * system.c): the thread's CPU, active TID and state; the CPU's running
 * TID, PID and count. */
static void system_channels(emu *e)
{
    for (uint32_t i = 0; i < e->sys.n_threads; i++)
        emu_thread_init_chans(&e->sys.threads[i]);
    static const char *const names[EMU_CPU_CHANS] = {"nrunning", "pid_running", "tid_running",
                                                     "th_running", "th_active"};
    for (uint32_t i = 0; i < e->sys.n_cpus; i++) {
        emu_cpu *c = &e->sys.cpus[i];
        for (int k = 0; k < EMU_CPU_CHANS; k++) {
            emu_chan_init(&c->chan[k], names[k], 0);
            c->chan[k].ignore_dup = 1;
        }
        emu_chan_bind(&c->chan[EMU_CPU_CHAN_PID], EMU_VIEW_CPU, c->gindex, EMU_PRV_CPU_PID, 0);
        emu_chan_bind(&c->chan[EMU_CPU_CHAN_TID], EMU_VIEW_CPU, c->gindex, EMU_PRV_CPU_TID, 0);
        emu_chan_bind(&c->chan[EMU_CPU_CHAN_NRUN], EMU_VIEW_CPU, c->gindex, EMU_PRV_CPU_NRUN,
                      EMU_PRV_ZERO);
    }
    emu_pcf *p = &e->pcf[EMU_VIEW_THREAD];
    long cpu_type = emu_pcf_add_type(p, EMU_PRV_THREAD_CPU, "Thread: CPU affinity");
    emu_pcf_add_type(p, EMU_PRV_THREAD_TID, "Thread: TID of the ACTIVE thread");
    emu_pcf_add_values(p, emu_pcf_add_type(p, EMU_PRV_THREAD_STATE, "Thread: thread state"),
                       thread_states);
    for (uint32_t i = 0; i < e->sys.n_cpus; i++)
        emu_pcf_add_value(p, cpu_type, (int64_t)e->sys.cpus[i].gindex + 1, e->sys.cpus[i].name);
}

/* A model is enabled when a thread requires it; ovni always is, and every
 * model is when no thread says what it requires (older traces: ovniemu's
 * compatibility mode). */
static int model_required(const pw_dataset *ds, const emu_system *sys, const emu_model *m)
{
    int any = 0;
    size_t n = strlen(m->name);
    for (uint32_t i = 0; i < sys->n_threads; i++) {
        char key[1024];
        snprintf(key, sizeof key, "%s:require", ds->locs[sys->threads[i].loc].path);
        const char *req = pw_dataset_prop_get(ds, key);
        any |= req != NULL;
        for (const char *p = req; p && (p = strstr(p, m->name)); p += n)
            if ((p == req || p[-1] == ' ') && p[n] == ' ')
                return 1;
    }
    return m->letter == 'O' || !any;
}

/* The MCV as text, bytes outside printable ASCII as '?'. */
static void mcv_text(const emu_ev *ev, char out[4])
{
    const char in[3] = {ev->m, ev->c, ev->v};
    for (int i = 0; i < 3; i++)
        out[i] = in[i] >= 0x20 && in[i] < 0x7f ? in[i] : '?';
    out[3] = '\0';
}

/* The code of each kind of finding, and what the count of those not
 * listed says. */
static const struct {
    const char *code, *counted;
} kinds[EMU_FINDING_KINDS] = {
    [EMU_BAD_TRANSITION] = {"ovniemu.bad-transition", "events make a transition the model forbids"},
    [EMU_CLOCK_BACKWARDS] = {"ovniemu.clock-backwards", "events have a clock earlier than the previous event's"},
    [EMU_MODEL_NOT_ENABLED] = {"ovniemu.model-not-enabled", "models are not enabled"},
    [EMU_UNKNOWN_MODEL] = {"ovniemu.unknown-model", "model letters are not registered"},
    [EMU_THREAD_NOT_DEAD] = {"ovniemu.thread-not-dead", "threads are not dead at the end of the trace"},
};
/* Whatever the kinds, the emulation's findings fill at most half of the
 * dataset's: the damage met by the reads always has the other half. */
_Static_assert(EMU_FINDING_KINDS * (EMU_FINDINGS_PER_KIND + 1) <= PW_MAX_DIAGS / 2,
               "the emulation's findings leave room for the damage findings");

/* Counts a finding of the kind; 1 when it is to be listed. */
static int listed(emu *e, int kind) { return e->found[kind]++ < EMU_FINDINGS_PER_KIND; }

static void finding(emu *e, const emu_ev *ev, int kind, const char *what, const char *chan)
{
    if (!listed(e, kind))
        return;
    char mcv[4];
    mcv_text(ev, mcv);
    const pw_location *l = &e->ds->locs[ev->rec->location];
    pw_ds_diag(e->ds, PW_SEV_ERROR, kinds[kind].code, l->file, (int64_t)ev->rec->offset,
               "%s: clock %lld: event %s: %s%s%s", l->path, (long long)ev->rec->t, mcv, what,
               chan ? ": channel " : "", chan ? chan : "");
}

/* After the emulation: how many findings of each kind were only counted. */
static void note_counted(emu *e)
{
    for (int k = 0; k < EMU_FINDING_KINDS; k++)
        if (e->found[k] > EMU_FINDINGS_PER_KIND)
            pw_ds_diag(e->ds, k == EMU_UNKNOWN_MODEL ? PW_SEV_WARNING : PW_SEV_ERROR, kinds[k].code,
                       e->ds->path, PW_NO_OFFSET, "%llu %s in all (the first %d listed)",
                       (unsigned long long)e->found[k], kinds[k].counted, EMU_FINDINGS_PER_KIND);
}

/* An event of a model that is not registered, or not enabled: ovniemu
 * stops at the first; one finding per model letter says why. */
static PW_NOINLINE void inactive_model(emu *e, const emu_ev *ev)
{
    unsigned char letter = (unsigned char)ev->m;
    if (e->by_letter[letter]) {
        if (!e->unknown_seen[letter])
            finding(e, ev, EMU_MODEL_NOT_ENABLED, "model not enabled (no thread requires it)", NULL);
        e->unknown_seen[letter] = 1;
        return;
    }
    if (e->unknown_seen[letter])
        return;
    e->unknown_seen[letter] = 1;
    if (!listed(e, EMU_UNKNOWN_MODEL))
        return;
    char mcv[4];
    mcv_text(ev, mcv);
    pw_ds_diag(e->ds, PW_SEV_WARNING, kinds[EMU_UNKNOWN_MODEL].code,
               e->ds->locs[ev->rec->location].file, (int64_t)ev->rec->offset,
               "%s: clock %lld: event %s: model not registered: ovniemu 1.14 stops here; "
               "perfweave emulates the other models",
               e->ds->locs[ev->rec->location].path, (long long)ev->rec->t, mcv);
}

static void step(emu *e, emu_ev *ev)
{
    const emu_model *m = e->active[(unsigned char)ev->m];
    e->bay.fault = e->fault = NULL;
    e->bay.fault_chan = NULL;
    e->bay.time = ev->t;
    if (!m) {
        inactive_model(e, ev);
        return;
    }
    if (m->event(e, ev) != 0)
        finding(e, ev, EMU_BAD_TRANSITION, e->fault ? e->fault : e->bay.fault,
                e->fault ? NULL : e->bay.fault_chan);
    e->bay.fault = NULL;
    if (emu_bay_propagate(&e->bay) != 0)
        finding(e, ev, EMU_BAD_TRANSITION, e->bay.fault, e->bay.fault_chan);
}

/* The MCV a type name spells, the name kept to recognise it. */
static emu_mcv mcv_of_name(const char *name)
{
    char c = name[0] ? name[1] : 0, v = c ? name[2] : 0;
    return (emu_mcv){name, name[0], c, v};
}

static pw_status setup(emu *e, pw_error *err)
{
    e->mcv_of = malloc((e->ds->n_schemas ? e->ds->n_schemas : 1) * sizeof *e->mcv_of);
    if (!e->mcv_of)
        return pw_fail(err, PW_E_NOMEM, e->ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < e->ds->n_schemas; i++)
        e->mcv_of[i] = mcv_of_name(e->ds->schemas[i]->name);
    system_channels(e);
    for (size_t i = 0; i < N_MODELS; i++) {
        const emu_model *m = models[i];
        e->by_letter[(unsigned char)m->letter] = m;
        if (!model_required(e->ds, &e->sys, m))
            continue;
        e->active[(unsigned char)m->letter] = m;
        if (m->create(e) != 0)
            return pw_fail(err, PW_E_NOMEM, e->ds->path, PW_NO_OFFSET,
                           "out of memory setting up the %s model", m->name);
    }
    if (e->pcf[0].failed || e->pcf[1].failed)
        return pw_fail(err, PW_E_NOMEM, e->ds->path, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}

/* ovniemu ends with every thread dead (src/emu/ovni/setup.c); then the
 * counts of the findings not listed. */
static void finish(emu *e)
{
    /* A history cut at the window's end is no end of the trace. */
    for (uint32_t i = 0; i < e->sys.n_threads; i++) {
        const emu_thread *th = &e->sys.threads[i];
        if (th->state == EMU_TH_DEAD || e->cut)
            continue;
        if (!listed(e, EMU_THREAD_NOT_DEAD))
            continue;
        const pw_location *l = &e->ds->locs[th->loc];
        pw_ds_diag(e->ds, PW_SEV_ERROR, kinds[EMU_THREAD_NOT_DEAD].code, l->file, PW_NO_OFFSET,
                   "%s: the thread is not dead at the end of the trace", l->path);
    }
    note_counted(e);
}

pw_status emu_start(emu *e, pw_dataset *ds, emu_emit_fn emit, void *ctx, pw_error *err)
{
    memset(e, 0, sizeof *e);
    e->ds = ds;
    e->bay.emit = emit;
    e->bay.emit_ctx = ctx;
    pw_status s = emu_system_build(&e->sys, ds, err);
    if (s == PW_OK)
        s = setup(e, err);
    if (s == PW_OK)
        emu_bay_propagate(&e->bay);
    return s;
}

/* One record, in time order, through its model. */
static void play_record(emu *e, const pw_record *rec)
{
    /* The MCV, the time since the first. */
    emu_mcv k = e->mcv_of[rec->schema];
    if (k.name != rec->type) /* a type of its own (an unknown MCV) */
        k = mcv_of_name(rec->type);
    emu_ev ev = {k.m, k.c, k.v, (int64_t)((uint64_t)rec->t - (uint64_t)e->first_clock), rec, NULL};
    /* ovniemu refuses time going back; the output stays in order. */
    if (ev.t < e->last_time) {
        finding(e, &ev, EMU_CLOCK_BACKWARDS, "the clock goes back: emulated at the time "
                "of the previous event", NULL);
        ev.t = e->last_time;
    }
    e->th = e->sys.thread_of_loc[rec->location];
    e->last_time = ev.t;
    e->events++;
    if (e->th)
        step(e, &ev);
}

pw_status emu_play(emu *e, pw_error *err)
{
    pw_merge *m = NULL;
    /* The whole history up to the report window's end (model/filter.h), of
     * the locations of the system (a location filter still leaves threads
     * out of it: docs/filters.md). */
    size_t n;
    const uint32_t *locs = pw_ds_record_locations(e->ds, &n);
    pw_status s = locs ? pw_merge_open_history(e->ds, locs, n, &m, err)
                       : pw_fail(err, PW_E_NOMEM, e->ds->path, PW_NO_OFFSET, "out of memory");
    const pw_record *rec;
    /* Times count from the first record's. */
    if (s == PW_OK && (s = pw_merge_next(m, &rec, err)) == PW_OK) {
        e->first_clock = rec->t;
        if (e->window)
            pw_state_window_place(e->window, e->first_clock);
        do
            play_record(e, rec);
        while ((s = pw_merge_next(m, &rec, err)) == PW_OK);
    }
    e->cut = m && pw_merge_past_end(m);
    pw_merge_close(m);
    if (s == PW_END) {
        s = PW_OK;
        finish(e);
    }
    return s;
}

void emu_free(emu *e)
{
    for (size_t i = 0; i < N_MODELS; i++)
        if (e->active[(unsigned char)models[i]->letter] && models[i]->destroy)
            models[i]->destroy(e);
    for (size_t i = 0; i < sizeof e->dispatch / sizeof *e->dispatch; i++)
        free(e->dispatch[i]);
    emu_system_free(&e->sys);
    emu_bay_free(&e->bay);
    emu_pcf_free(&e->pcf[0]);
    emu_pcf_free(&e->pcf[1]);
    free(e->mcv_of);
}
