/* emu_tracks.c — a model's channels for every thread and CPU, their muxes
 * and their Paraver rows and types, from the model's table. */
#include "analysis/ovniemu/emu_tracks.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const track_suffix[] = {"", "of the RUNNING thread", "of the ACTIVE thread"};

/* The channel a CPU's mux shows for the thread of global index i. */
static emu_chan *thread_chan(const emu_mux *m, int64_t i)
{
    const emu *e = m->ctx;
    if (i < 0 || (uint64_t)i >= e->sys.n_threads)
        return NULL;
    emu_tracks *t = e->sys.threads[i].model[m->slot];
    return t ? &t->ch[m->chan] : NULL;
}

static emu_tracks *tracks_new(const emu_chan_spec *spec, int n, int with_ch)
{
    emu_tracks *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->spec = spec;
    t->n = n;
    t->out = emu_chan_alloc((size_t)n, sizeof *t->out);
    t->mux = calloc((size_t)n, sizeof *t->mux);
    t->ch = with_ch ? emu_chan_alloc((size_t)n, sizeof *t->ch) : NULL;
    if (!t->out || !t->mux || (with_ch && !t->ch)) {
        free(t->out);
        free(t->mux);
        free(t->ch);
        free(t);
        return NULL;
    }
    return t;
}

static int thread_tracks(emu *e, emu_thread *th, int slot, const emu_chan_spec *spec, int n)
{
    emu_tracks *t = tracks_new(spec, n, 1);
    if (!t)
        return -1;
    th->model[slot] = t;
    th->track_ch[slot] = t->ch;
    for (int i = 0; i < n; i++) {
        emu_chan_init(&t->ch[i], spec[i].name, spec[i].is_stack);
        t->ch[i].allow_dup = (uint8_t)spec[i].allow_dup;
        emu_chan *out = &t->ch[i];
        if (spec[i].th_track != EMU_TRACK_ANY) {
            out = &t->out[i];
            emu_chan_init(out, spec[i].name, 0);
            emu_mux *m = &t->mux[i];
            m->input = &t->ch[i];
            m->ctx = e;
            if (emu_mux_init(m, &th->chan[EMU_TH_CHAN_STATE], out,
                             spec[i].th_track == EMU_TRACK_RUN ? emu_select_running
                                                                : emu_select_active) != 0)
                return -1;
        }
        emu_chan_bind(out, EMU_VIEW_THREAD, th->gindex, spec[i].prv_type, spec[i].prv_flags);
    }
    return 0;
}

static int cpu_tracks(emu *e, emu_cpu *cpu, int slot, const emu_chan_spec *spec, int n)
{
    emu_tracks *t = tracks_new(spec, n, 0);
    if (!t)
        return -1;
    cpu->model[slot] = t;
    for (int i = 0; i < n; i++) {
        emu_chan_init(&t->out[i], spec[i].name, 0);
        emu_mux *m = &t->mux[i];
        m->ctx = e;
        m->slot = slot;
        m->chan = i;
        m->chan_of = thread_chan;
        if (emu_mux_init(m, &cpu->chan[EMU_CPU_CHAN_THRUN], &t->out[i], emu_select_index) != 0)
            return -1;
        emu_chan_bind(&t->out[i], EMU_VIEW_CPU, cpu->gindex, spec[i].prv_type, spec[i].prv_flags);
    }
    return 0;
}

static void declare_types(emu *e, const emu_chan_spec *spec, int n)
{
    for (int i = 0; i < n; i++) {
        for (int view = 0; view < EMU_VIEWS; view++) {
            int track = view == EMU_VIEW_THREAD ? spec[i].th_track : spec[i].cpu_track;
            char label[512];
            if (spec[i].plain_label)
                snprintf(label, sizeof label, "%s", spec[i].prefix);
            else
                snprintf(label, sizeof label, "%s %s", spec[i].prefix, track_suffix[track]);
            long t = emu_pcf_add_type(&e->pcf[view], spec[i].prv_type, label);
            emu_pcf_add_values(&e->pcf[view], t, spec[i].labels);
        }
    }
}

int emu_tracks_create(emu *e, int slot, const emu_chan_spec *spec, int n)
{
    for (uint32_t i = 0; i < e->sys.n_threads; i++)
        if (thread_tracks(e, &e->sys.threads[i], slot, spec, n) != 0)
            return -1;
    for (uint32_t i = 0; i < e->sys.n_cpus; i++)
        if (cpu_tracks(e, &e->sys.cpus[i], slot, spec, n) != 0)
            return -1;
    declare_types(e, spec, n);
    return 0;
}

static void tracks_free(emu_tracks *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->n; i++) {
        if (t->ch)
            emu_chan_free(&t->ch[i]);
        emu_chan_free(&t->out[i]);
    }
    free(t->ch);
    free(t->out);
    free(t->mux);
    free(t);
}

void emu_tracks_destroy(emu *e, int slot)
{
    for (uint32_t i = 0; i < e->sys.n_threads; i++) {
        tracks_free(e->sys.threads[i].model[slot]);
        e->sys.threads[i].model[slot] = NULL;
        e->sys.threads[i].track_ch[slot] = NULL;
    }
    for (uint32_t i = 0; i < e->sys.n_cpus; i++) {
        tracks_free(e->sys.cpus[i].model[slot]);
        e->sys.cpus[i].model[slot] = NULL;
    }
}
