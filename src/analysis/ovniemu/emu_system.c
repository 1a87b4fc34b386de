/* emu_system.c — looms, processes, threads and CPUs from the dataset's
 * locations and properties, in ovniemu's order (ovni src/emu/system.c):
 * looms by lowest rank when every loom has ranks, else by name; processes
 * by rank or pid; threads by TID; each loom's CPUs by physical id, then its
 * virtual CPU.  The global indexes are the Paraver rows. */
#include "analysis/ovniemu/emu_system.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *loc_prop(const pw_dataset *ds, const pw_location *l, const char *key)
{
    char k[1024];
    snprintf(k, sizeof k, "%s:%s", l->path, key);
    return pw_dataset_prop_get(ds, k);
}

static int64_t prop_int(const pw_dataset *ds, const pw_location *l, const char *key, int64_t def)
{
    const char *v = loc_prop(ds, l, key);
    return v && *v ? strtoll(v, NULL, 10) : def;
}

static int cmp_loom(const void *a, const void *b)
{
    const emu_loom *x = a, *y = b;
    if (x->rank_min != y->rank_min && x->rank_min != INT64_MAX && y->rank_min != INT64_MAX)
        return x->rank_min < y->rank_min ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int cmp_proc(const void *a, const void *b)
{
    const emu_proc *x = a, *y = b;
    if (x->loom != y->loom)
        return x->loom->gindex < y->loom->gindex ? -1 : 1;
    int64_t kx = x->loom->rank_min != INT64_MAX ? x->rank : x->pid;
    int64_t ky = y->loom->rank_min != INT64_MAX ? y->rank : y->pid;
    return kx < ky ? -1 : kx > ky;
}

static int cmp_thread(const void *a, const void *b)
{
    const emu_thread *x = a, *y = b;
    if (x->proc != y->proc)
        return x->proc->gindex < y->proc->gindex ? -1 : 1;
    return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int cmp_cpu(const void *a, const void *b)
{
    const emu_cpu *x = a, *y = b;
    if (x->loom != y->loom)
        return x->loom->gindex < y->loom->gindex ? -1 : 1;
    if (x->is_virtual != y->is_virtual)
        return x->is_virtual ? 1 : -1;
    return x->phyid < y->phyid ? -1 : x->phyid > y->phyid;
}

static int32_t ancestor_of_kind(const pw_dataset *ds, int32_t i, pw_location_kind k)
{
    while (i >= 0 && ds->locs[i].kind != k)
        i = ds->locs[i].parent;
    return i;
}

/* Counts the CPUs a loom's "index:phyid,..." list holds (distinct indexes). */
static uint32_t parse_cpus(const char *list, int32_t *index, int32_t *phyid, uint32_t cap)
{
    uint32_t n = 0;
    while (list && *list) {
        char *end;
        long i = strtol(list, &end, 10);
        if (*end != ':')
            break;
        long p = strtol(end + 1, &end, 10);
        int dup = 0;
        for (uint32_t k = 0; k < n; k++)
            dup |= index[k] == i;
        /* The reader refuses negative indexes; the guard keeps the
         * index table safe whatever wrote the property. */
        if (!dup && n < cap && i >= 0 && i <= INT32_MAX) {
            index[n] = (int32_t)i;
            phyid[n] = (int32_t)p;
            n++;
        }
        list = *end == ',' ? end + 1 : end + strlen(end);
    }
    return n;
}

static pw_status nomem(pw_error *err, const pw_dataset *ds)
{
    return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
}

/* Looms with their ranks; processes and threads unsorted. */
static pw_status collect(emu_system *sys, pw_dataset *ds, int32_t *loom_of, int32_t *proc_of,
                         pw_error *err)
{
    for (size_t i = 0; i < ds->n_locs; i++) {
        const pw_location *l = &ds->locs[i];
        if (l->kind == PW_LOC_NODE) {
            emu_loom *lm = &sys->looms[sys->n_looms];
            lm->name = l->name;
            lm->loc = (int32_t)i;
            lm->rank_min = INT64_MAX;
            loom_of[i] = (int32_t)sys->n_looms++;
        } else if (l->kind == PW_LOC_PROCESS) {
            int32_t lo = ancestor_of_kind(ds, l->parent, PW_LOC_NODE);
            if (lo < 0)
                return pw_fail(err, PW_E_DATA, ds->path, PW_NO_OFFSET, "%s: no loom", l->path);
            emu_proc *p = &sys->procs[sys->n_procs];
            p->pid = l->id;
            p->appid = prop_int(ds, l, "app_id", 0);
            p->rank = prop_int(ds, l, "rank", -1);
            p->loom = &sys->looms[loom_of[lo]];
            if (p->rank >= 0 && p->rank < p->loom->rank_min)
                p->loom->rank_min = p->rank;
            proc_of[i] = (int32_t)sys->n_procs++;
        } else if (l->kind == PW_LOC_THREAD && l->has_records) {
            int32_t po = ancestor_of_kind(ds, l->parent, PW_LOC_PROCESS);
            if (po < 0)
                return pw_fail(err, PW_E_DATA, ds->path, PW_NO_OFFSET, "%s: no process", l->path);
            /* Threads with metadata of their own (v2, v3) say when they
             * finished; v1 streams have none. */
            const char *fin = loc_prop(ds, l, "finished");
            if (loc_prop(ds, l, "lib.version") && (!fin || strcmp(fin, "1")))
                return pw_fail(err, PW_E_DATA, l->file, PW_NO_OFFSET,
                               "missing ovni.finished: %s (ovniemu refuses a thread that did "
                               "not end cleanly)",
                               l->path);
            emu_thread *th = &sys->threads[sys->n_threads++];
            th->tid = l->id;
            th->loc = (uint32_t)i;
            th->proc = &sys->procs[proc_of[po]];
            th->finished = 1;
        }
    }
    return PW_OK;
}

/* Every loom's CPUs from its list, and its virtual CPU. */
static pw_status make_cpus(emu_system *sys, pw_dataset *ds, pw_error *err)
{
    size_t cap = 0;
    for (uint32_t i = 0; i < sys->n_looms; i++) {
        const char *list = loc_prop(ds, &ds->locs[sys->looms[i].loc], "cpus");
        cap += 1 + (list ? strlen(list) / 4 + 1 : 0);
    }
    sys->cpus = emu_chan_alloc(cap, sizeof *sys->cpus);
    int32_t *idx = malloc((cap + 1) * sizeof *idx), *phy = malloc((cap + 1) * sizeof *phy);
    if (!sys->cpus || !idx || !phy) {
        free(idx);
        free(phy);
        return nomem(err, ds);
    }
    for (uint32_t i = 0; i < sys->n_looms; i++) {
        emu_loom *lm = &sys->looms[i];
        uint32_t n = parse_cpus(loc_prop(ds, &ds->locs[lm->loc], "cpus"), idx, phy, (uint32_t)cap);
        lm->n_cpus = 0;
        for (uint32_t k = 0; k < n; k++) {
            if (idx[k] >= 0 && (uint32_t)idx[k] + 1 > lm->n_cpus)
                lm->n_cpus = (uint32_t)idx[k] + 1;
            emu_cpu *c = &sys->cpus[sys->n_cpus++];
            c->index = idx[k];
            c->phyid = phy[k];
            c->loom = lm;
        }
        emu_cpu *v = &sys->cpus[sys->n_cpus++];
        v->index = -1;
        v->phyid = -1;
        v->is_virtual = 1;
        v->loom = lm;
    }
    free(idx);
    free(phy);
    return PW_OK;
}

/* Index tables once the arrays are in their final order. */
static pw_status link_system(emu_system *sys, pw_dataset *ds, pw_error *err)
{
    for (uint32_t i = 0; i < sys->n_looms; i++) {
        emu_loom *lm = &sys->looms[i];
        lm->cpus_by_index = calloc(lm->n_cpus ? lm->n_cpus : 1, sizeof *lm->cpus_by_index);
        if (!lm->cpus_by_index)
            return nomem(err, ds);
    }
    for (uint32_t i = 0; i < sys->n_cpus; i++) {
        emu_cpu *c = &sys->cpus[i];
        c->gindex = i;
        if (c->is_virtual) {
            c->loom->vcpu = c;
            snprintf(c->name, sizeof c->name, "vCPU %u.*", c->loom->gindex);
        } else {
            c->loom->cpus_by_index[c->index] = c;
            snprintf(c->name, sizeof c->name, " CPU %u.%d", c->loom->gindex, c->phyid);
        }
    }
    sys->thread_of_loc = calloc(ds->n_locs ? ds->n_locs : 1, sizeof *sys->thread_of_loc);
    if (!sys->thread_of_loc)
        return nomem(err, ds);
    for (uint32_t i = 0; i < sys->n_threads; i++) {
        sys->threads[i].gindex = i;
        sys->thread_of_loc[sys->threads[i].loc] = &sys->threads[i];
    }
    return PW_OK;
}

/* Sorting moves processes, so threads find theirs again by pid and loom. */
static void resort(emu_system *sys)
{
    int all_ranked = sys->n_looms > 0;
    for (uint32_t i = 0; i < sys->n_looms; i++)
        all_ranked &= sys->looms[i].rank_min != INT64_MAX;
    if (!all_ranked)
        for (uint32_t i = 0; i < sys->n_looms; i++)
            sys->looms[i].rank_min = INT64_MAX;
    /* Processes and threads point at looms by address: remember by loc. */
    int32_t *proc_loom = malloc((sys->n_procs + 1) * sizeof *proc_loom);
    for (uint32_t i = 0; proc_loom && i < sys->n_procs; i++)
        proc_loom[i] = sys->procs[i].loom->loc;
    qsort(sys->looms, sys->n_looms, sizeof *sys->looms, cmp_loom);
    for (uint32_t i = 0; i < sys->n_looms; i++)
        sys->looms[i].gindex = i;
    for (uint32_t i = 0; proc_loom && i < sys->n_procs; i++)
        for (uint32_t k = 0; k < sys->n_looms; k++)
            if (sys->looms[k].loc == proc_loom[i])
                sys->procs[i].loom = &sys->looms[k];
    free(proc_loom);
}

static void sort_procs_threads(emu_system *sys)
{
    int64_t *tpid = malloc((sys->n_threads + 1) * sizeof *tpid);
    const emu_loom **tloom = malloc((sys->n_threads + 1) * sizeof *tloom);
    for (uint32_t i = 0; tpid && tloom && i < sys->n_threads; i++) {
        tpid[i] = sys->threads[i].proc->pid;
        tloom[i] = sys->threads[i].proc->loom;
    }
    qsort(sys->procs, sys->n_procs, sizeof *sys->procs, cmp_proc);
    for (uint32_t i = 0; i < sys->n_procs; i++)
        sys->procs[i].gindex = i;
    for (uint32_t i = 0; tpid && tloom && i < sys->n_threads; i++)
        for (uint32_t k = 0; k < sys->n_procs; k++)
            if (sys->procs[k].pid == tpid[i] && sys->procs[k].loom == tloom[i])
                sys->threads[i].proc = &sys->procs[k];
    free(tpid);
    free(tloom);
    qsort(sys->threads, sys->n_threads, sizeof *sys->threads, cmp_thread);
}

pw_status emu_system_build(emu_system *sys, pw_dataset *ds, pw_error *err)
{
    memset(sys, 0, sizeof *sys);
    size_t n = ds->n_locs ? ds->n_locs : 1;
    int32_t *loom_of = malloc(n * sizeof *loom_of), *proc_of = malloc(n * sizeof *proc_of);
    sys->looms = calloc(n, sizeof *sys->looms);
    sys->procs = calloc(n, sizeof *sys->procs);
    sys->threads = emu_chan_alloc(n, sizeof *sys->threads);
    pw_status s = loom_of && proc_of && sys->looms && sys->procs && sys->threads ? PW_OK : nomem(err, ds);
    if (s == PW_OK)
        s = collect(sys, ds, loom_of, proc_of, err);
    free(loom_of);
    free(proc_of);
    if (s == PW_OK && !sys->n_threads)
        s = pw_fail(err, PW_E_DATA, ds->path, PW_NO_OFFSET, "no thread streams to emulate");
    if (s != PW_OK)
        return s;
    resort(sys);
    sort_procs_threads(sys);
    s = make_cpus(sys, ds, err);
    if (s == PW_OK) {
        qsort(sys->cpus, sys->n_cpus, sizeof *sys->cpus, cmp_cpu);
        s = link_system(sys, ds, err);
    }
    return s;
}

void emu_system_free(emu_system *sys)
{
    for (uint32_t i = 0; i < sys->n_threads; i++)
        for (int k = 0; k < EMU_TH_CHANS; k++)
            emu_chan_free(&sys->threads[i].chan[k]);
    for (uint32_t i = 0; i < sys->n_cpus; i++)
        for (int k = 0; k < EMU_CPU_CHANS; k++)
            emu_chan_free(&sys->cpus[i].chan[k]);
    for (uint32_t i = 0; i < sys->n_looms; i++)
        free(sys->looms[i].cpus_by_index);
    free(sys->looms);
    free(sys->procs);
    free(sys->threads);
    free(sys->cpus);
    free(sys->thread_of_loc);
    memset(sys, 0, sizeof *sys);
}

emu_cpu *emu_loom_cpu(const emu_loom *l, int64_t index)
{
    if (index == -1)
        return l->vcpu;
    if (index < 0 || (uint64_t)index >= l->n_cpus)
        return NULL;
    return l->cpus_by_index[index];
}

emu_thread *emu_loom_thread(const emu_system *sys, const emu_loom *l, int64_t tid)
{
    for (uint32_t i = 0; i < sys->n_threads; i++)
        if (sys->threads[i].tid == tid && sys->threads[i].proc->loom == l)
            return &sys->threads[i];
    return NULL;
}
