/* otf2_unify.c — every process's definitions, numbered as one writer
 * over every location would number them (see otf2_unify.h). */
#ifdef PW_HAVE_OTF2
#include "sinks/otf2/otf2_unify.h"

#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "model/part.h"

/* What a process's definitions begin with: how many of each follow. */
enum { H_NAMES, H_REGIONS, H_TRACKS, H_LOCS, H_METRICS, H_CALL_METRICS, H_COMMS, H_RANKS, H_ANY_TIME, H_T_MIN,
       H_T_MAX, H_TRACKERS, H_N };

/* n bytes as words: their count, then the bytes and a NUL, padded. */
static void put_bytes(pw_part_writer *b, const char *s, size_t n)
{
    pw_part_put_word(b, n);
    for (size_t at = 0; at <= n; at += 8) {
        uint64_t word = 0;
        memcpy(&word, s + at, n + 1 - at < 8 ? n + 1 - at : 8);
        pw_part_put_word(b, word);
    }
}

/* Bytes put by put_bytes, in place (NUL-terminated); "" and bad set when
 * they do not fit. */
static const char *take_bytes(pw_part_reader *r, size_t *n)
{
    uint64_t len = pw_part_next(r);
    if (r->bad || len / 8 + 1 > r->n - r->pos) {
        r->bad = 1;
        *n = 0;
        return "";
    }
    const char *s = (const char *)(r->words + r->pos);
    r->pos += len / 8 + 1;
    *n = (size_t)len;
    if (s[len]) {
        r->bad = 1;
        *n = 0;
        return "";
    }
    return s;
}

/* The creations of the ranks this process drew (every rank is drawn by
 * one share): what resolving the communicators needs of them. */
static void put_trackers(pw_part_writer *b, const pw_comm_replay *r)
{
    for (size_t i = 0; r->live && i < r->n_ranks; i++) {
        const pw_mpi_tracker *t = &r->live[i];
        if (!t->n_created)
            continue;
        uint64_t head[3] = {i, t->n_inst, t->n_created};
        pw_part_put(b, head, sizeof head);
        for (size_t k = 0; k < t->n_created; k++) {
            const pw_mpi_creation *c = &t->created[k];
            uint64_t e[5] = {c->old_inst, c->new_inst, (uint64_t)c->split, (uint64_t)c->color, (uint64_t)c->key};
            pw_part_put(b, e, sizeof e);
        }
    }
}

/* This process's definitions as words, in the order its refs number them. */
static int local_definitions(const ot_writer *w, const pw_names *nm, pw_part_writer *b)
{
    const ot_mpi *m = &w->mpi;
    uint64_t trackers = 0;
    for (size_t i = 0; m->replay.live && i < m->replay.n_ranks; i++)
        trackers += m->replay.live[i].n_created > 0;
    uint64_t head[H_N] = {nm->n_items, w->n_regions, w->n_tracks_seen, w->n_locs, w->n_metrics, w->call_metrics.n,
                          m->n_comms, m->n_ranks, (uint64_t)w->any_time, (uint64_t)w->t_min, (uint64_t)w->t_max,
                          trackers};
    pw_part_put(b, head, sizeof head);
    put_trackers(b, &m->replay); /* first: the communicators are resolved before the rest is read */
    for (uint32_t id = 1; id <= nm->n_items; id++) {
        size_t n;
        const char *s = pw_names_str(nm, id, &n);
        put_bytes(b, s, n);
    }
    for (uint32_t i = 0; i < w->n_regions; i++) {
        uint64_t r[3] = {w->region_names[i], w->region_kinds[i].paradigm, w->region_kinds[i].role};
        pw_part_put(b, r, sizeof r);
    }
    for (uint32_t id = 1; id <= w->n_tracks_seen; id++) {
        const struct ot_track *t = &w->tracks[id];
        uint64_t r[4] = {t->kind, t->name, t->loc, t->owner};
        pw_part_put(b, r, sizeof r);
        put_bytes(b, t->unit ? t->unit : "", t->unit ? strlen(t->unit) : 0);
    }
    for (uint32_t i = 0; i < w->n_locs; i++) {
        uint64_t r[4] = {w->locs[i].track, w->locs[i].events, w->locs[i].group, w->locs[i].ds_loc};
        pw_part_put(b, r, sizeof r);
    }
    for (uint32_t i = 0; i < w->call_metrics.n; i++) {
        const struct ot_call_metric *cm = &w->call_metrics.m[i];
        uint64_t r[2] = {cm->ref, (uint64_t)cm->papi};
        pw_part_put(b, r, sizeof r);
        put_bytes(b, cm->name, strlen(cm->name));
    }
    for (uint32_t i = 0; i < m->n_comms; i++) {
        uint64_t r[3] = {(uint64_t)m->comm_values[i].handle, (uint64_t)m->comm_values[i].rank, m->comm_values[i].inst};
        pw_part_put(b, r, sizeof r);
    }
    for (uint32_t r = 0; r < m->n_ranks; r++)
        pw_part_put_word(b, r < m->cap_ranks ? m->rank_loc[r] : 0);
    return !b->nomem;
}

/* Every process's definitions, in share order, on every process. */
static int gather(const pw_collectives *c, const pw_part_writer *mine, void **all, size_t **bytes, uint64_t *processes)
{
    *processes = 1;
    c->sum(c->ctx, processes, 1);
    size_t size = mine->n * sizeof *mine->words, p = (size_t)*processes;
    size_t *send_bytes = calloc(p, sizeof *send_bytes);
    *bytes = calloc(p, sizeof **bytes);
    char *send = malloc(size && p ? size * p : 1);
    int ok = send_bytes && *bytes && send && !mine->nomem;
    for (size_t i = 0; ok && i < p; i++) {
        memcpy(send + i * size, mine->words, size);
        send_bytes[i] = size;
    }
    /* a process that could not build its copies takes part with nothing */
    int got = c->alltoallv(c->ctx, ok ? send : "", ok ? send_bytes : *bytes, all, *bytes ? *bytes : send_bytes);
    free(send);
    free(send_bytes);
    uint64_t failed = !ok || !got;
    c->sum(c->ctx, &failed, 1);
    return !failed;
}

/* The building of the whole numbering, share after share. */
typedef struct ot_build {
    ot_unified *u;
    uint32_t *region_of;  /* per archive name id: region ref + 1 */
    uint32_t cap_region_of;
    pw_mpi_tracker *trackers; /* per world rank */
    size_t n_trackers;
    struct ot_empty {
        uint32_t ds_loc;
        uint64_t events;
        uint64_t *ref; /* where its archive ref goes (this process's map), or NULL */
    } *empties;           /* locations without a track, numbered after every drawn one */
    size_t n_empties, cap_empties;
    int nomem;
} ot_build;

/* One share's maps while it is read: its refs -> the archive's. */
typedef struct ot_share_maps {
    uint32_t *names, *regions, *metrics, *comms;
    uint64_t *locs;
} ot_share_maps;

static void share_maps_free(ot_share_maps *m)
{
    free(m->names);
    free(m->regions);
    free(m->metrics);
    free(m->comms);
    free(m->locs);
}

/* A share's creations into the trackers of its ranks. */
static void take_trackers(ot_build *b, pw_part_reader *r, uint64_t n)
{
    for (uint64_t i = 0; i < n && !r->bad; i++) {
        uint64_t rank = pw_part_next(r), n_inst = pw_part_next(r), n_created = pw_part_next(r);
        if (rank >= b->n_trackers || n_created > r->n - r->pos) {
            r->bad = 1;
            return;
        }
        pw_mpi_tracker *t = &b->trackers[rank];
        free(t->created);
        t->created = malloc((n_created ? n_created : 1) * sizeof *t->created);
        t->n_created = t->cap_created = t->created ? (size_t)n_created : 0;
        t->n_inst = (uint32_t)n_inst;
        b->nomem |= !t->created;
        for (uint64_t k = 0; k < n_created && t->created; k++) {
            uint64_t e[5];
            pw_part_take(r, e, sizeof e);
            t->created[k] = (pw_mpi_creation){(uint32_t)e[0], (uint32_t)e[1], (int)e[2], (int64_t)e[3], (int64_t)e[4]};
        }
    }
}

/* Past a share's creations (read by the first pass). */
static void skip_trackers(pw_part_reader *r, uint64_t n)
{
    for (uint64_t i = 0; i < n && !r->bad; i++) {
        pw_part_next(r);
        pw_part_next(r);
        uint64_t n_created = pw_part_next(r);
        if (n_created > (r->n - r->pos) / 5) {
            r->bad = 1;
            return;
        }
        r->pos += (size_t)n_created * 5;
    }
}

/* The archive's ref of a region named `name` (an archive name id). */
static uint32_t region_of(ot_build *b, uint32_t name, uint64_t paradigm, uint64_t role)
{
    ot_writer *g = &b->u->g;
    if (!pw_grow_zeroed((void **)&b->region_of, &b->cap_region_of, name, sizeof *b->region_of) ||
        !pw_grow_zeroed((void **)&g->region_names, &g->cap_region_names, g->n_regions, sizeof *g->region_names) ||
        !pw_grow_zeroed((void **)&g->region_kinds, &g->cap_region_kinds, g->n_regions, sizeof *g->region_kinds)) {
        b->nomem = 1;
        return 0;
    }
    if (!b->region_of[name]) {
        g->region_names[g->n_regions] = name;
        g->region_kinds[g->n_regions] = (struct ot_region_kind){(OTF2_Paradigm)paradigm, (OTF2_RegionRole)role};
        b->region_of[name] = ++g->n_regions;
    }
    return b->region_of[name] - 1;
}

/* The archive's ref of a communicator a share named (handle, rank,
 * instance): as the serial writer keys it, by the resolved communicator
 * when there is one, else by the handle. */
static uint32_t comm_of(ot_build *b, int64_t handle, int64_t rank, uint32_t inst)
{
    ot_mpi *m = &b->u->g.mpi;
    uint32_t resolved = inst != PW_MPI_UNKNOWN && rank >= 0 ? pw_mpi_comm_of(&m->replay.comms, (size_t)rank, inst)
                                                           : PW_MPI_UNKNOWN;
    pw_key k = {{resolved != PW_MPI_UNKNOWN, resolved != PW_MPI_UNKNOWN ? resolved : (uint64_t)handle, 0, 0}};
    int added;
    uint64_t *v = pw_keymap_get(&m->comms, &k, m->n_comms, &added);
    if (!v || (added && !pw_grow_zeroed((void **)&m->comm_values, &m->cap_comms, m->n_comms, sizeof *m->comm_values))) {
        b->nomem = 1;
        return 0;
    }
    if (added)
        m->comm_values[m->n_comms++] = (struct ot_comm){handle, resolved, rank, inst};
    return (uint32_t)*v;
}

/* The tracks of a share after the archive's tracks; a thread's location
 * after the archive's drawn ones, a counter's metric noted for
 * take_metrics. */
static void take_tracks(ot_build *b, pw_part_reader *r, const uint64_t *h, ot_share_maps *sm, uint32_t **metric_track)
{
    ot_writer *g = &b->u->g;
    uint32_t base = g->n_tracks_seen, n = (uint32_t)h[H_TRACKS], drawn = g->n_locs, groups = g->n_groups;
    *metric_track = calloc(h[H_METRICS] ? h[H_METRICS] : 1, sizeof **metric_track);
    if (!*metric_track || !pw_grow_zeroed((void **)&g->tracks, &g->cap_tracks, base + n, sizeof *g->tracks)) {
        b->nomem = 1;
        return;
    }
    for (uint32_t id = 1; id <= n && !r->bad; id++) {
        uint64_t t[4];
        size_t len;
        pw_part_take(r, t, sizeof t);
        if (t[3] > n || (t[0] != PW_TL_PROCESS && t[0] != PW_TL_COUNTER_TRACK && t[2] > h[H_LOCS])) {
            r->bad = 1; /* refs past the share's own */
            return;
        }
        struct ot_track *gt = &g->tracks[base + id];
        gt->unit = take_bytes(r, &len);
        gt->kind = (pw_tl_track_kind)t[0];
        gt->name = t[1] && t[1] <= h[H_NAMES] ? sm->names[t[1]] : 0;
        gt->owner = base + (uint32_t)t[3];
        gt->loc = (uint32_t)t[2]; /* a thread's and a counter's, mapped below */
        if (gt->kind == PW_TL_PROCESS)
            gt->loc = groups + (uint32_t)t[2], g->n_groups++;
        else if (gt->kind == PW_TL_COUNTER_TRACK && t[2] && t[2] <= h[H_METRICS])
            (*metric_track)[t[2] - 1] = id;
        else if (gt->kind != PW_TL_COUNTER_TRACK)
            gt->loc = drawn + (uint32_t)t[2];
    }
    g->n_tracks_seen = base + n;
}

/* A share's locations after the archive's drawn ones (track ids after
 * track_base); those without a track wait in empties. */
static void take_locs(ot_build *b, pw_part_reader *r, const uint64_t *h, ot_share_maps *sm, uint32_t base, int mine)
{
    ot_writer *g = &b->u->g;
    for (uint64_t i = 0; i < h[H_LOCS] && !r->bad && !b->nomem; i++) {
        uint64_t l[4];
        pw_part_take(r, l, sizeof l);
        if (l[0] > h[H_TRACKS] || l[2] > h[H_TRACKS] || l[3] >= g->ds->n_locs) { /* refs past the share's own */
            r->bad = 1;
            return;
        }
        uint64_t *ref = mine ? &sm->locs[i] : NULL;
        if (!l[0]) { /* no track: numbered after every share's drawn locations */
            if (!pw_grow((void **)&b->empties, b->n_empties, &b->cap_empties, sizeof *b->empties))
                b->nomem = 1;
            else
                b->empties[b->n_empties++] = (struct ot_empty){(uint32_t)l[3], l[1], ref};
            continue;
        }
        if (!pw_grow_zeroed((void **)&g->locs, &g->cap_locs, g->n_locs, sizeof *g->locs)) {
            b->nomem = 1;
            return;
        }
        ot_loc *gl = &g->locs[g->n_locs];
        gl->track = base + (uint32_t)l[0];
        gl->events = l[1];
        gl->group = base + (uint32_t)l[2];
        gl->ds_loc = (uint32_t)l[3];
        sm->locs[i] = g->n_locs++;
    }
}

/* A share's metrics in its ref order: counter tracks are new, call
 * metrics kept at their first share. */
static void take_metrics(ot_build *b, pw_part_reader *r, const uint64_t *h, ot_share_maps *sm,
                         const uint32_t *metric_track, uint32_t track_base)
{
    ot_writer *g = &b->u->g;
    struct ot_named {
        const char *name;
        int papi;
    } *call = calloc(h[H_METRICS] ? h[H_METRICS] : 1, sizeof *call);
    if (!call) {
        b->nomem = 1;
        return;
    }
    for (uint64_t i = 0; i < h[H_CALL_METRICS] && !r->bad; i++) {
        uint64_t ref = pw_part_next(r), papi = pw_part_next(r);
        size_t len;
        const char *name = take_bytes(r, &len);
        if (ref < h[H_METRICS])
            call[ref] = (struct ot_named){name, papi != 0};
    }
    for (uint64_t ref = 0; ref < h[H_METRICS] && !r->bad && !b->nomem; ref++) {
        if (metric_track[ref]) {
            sm->metrics[ref] = g->n_metrics++;
            g->tracks[track_base + metric_track[ref]].loc = sm->metrics[ref] + 1;
        } else if (call[ref].name) {
            sm->metrics[ref] = ot_call_metrics_ref(&g->call_metrics, call[ref].name, call[ref].papi, &g->n_metrics);
            b->nomem |= sm->metrics[ref] == UINT32_MAX;
        } else {
            r->bad = 1;
        }
    }
    free(call);
}

/* Names, regions and communicators of a share: kept at their first share. */
static void take_names(ot_build *b, pw_part_reader *r, const uint64_t *h, ot_share_maps *sm)
{
    for (uint64_t id = 1; id <= h[H_NAMES] && !r->bad && !b->nomem; id++) {
        size_t len;
        const char *s = take_bytes(r, &len);
        sm->names[id] = pw_names_intern(&b->u->names, s, len);
        b->nomem |= !sm->names[id];
    }
    for (uint64_t i = 0; i < h[H_REGIONS] && !r->bad && !b->nomem; i++) {
        uint64_t g[3];
        pw_part_take(r, g, sizeof g);
        if (!g[0] || g[0] > h[H_NAMES])
            r->bad = 1;
        else
            sm->regions[i] = region_of(b, sm->names[g[0]], g[1], g[2]);
    }
}

/* A share's communicators, its ranks' first locations and its times. */
static void take_mpi(ot_build *b, pw_part_reader *r, const uint64_t *h, ot_share_maps *sm)
{
    ot_writer *g = &b->u->g;
    for (uint64_t i = 0; i < h[H_COMMS] && !r->bad && !b->nomem; i++) {
        uint64_t c[3];
        pw_part_take(r, c, sizeof c);
        sm->comms[i] = comm_of(b, (int64_t)c[0], (int64_t)c[1], (uint32_t)c[2]);
    }
    ot_mpi *m = &g->mpi;
    for (uint32_t rank = 0; rank < h[H_RANKS] && !r->bad && !b->nomem; rank++) {
        uint64_t loc = pw_part_next(r);
        if (!loc || loc > h[H_LOCS])
            continue;
        if (!pw_grow_zeroed((void **)&m->rank_loc, &m->cap_ranks, rank, sizeof *m->rank_loc))
            b->nomem = 1;
        else if (!m->rank_loc[rank])
            m->rank_loc[rank] = (uint32_t)sm->locs[loc - 1] + 1;
    }
    if (h[H_RANKS] > m->n_ranks)
        m->n_ranks = (uint32_t)h[H_RANKS];
    if (h[H_ANY_TIME]) {
        int64_t t_min = (int64_t)h[H_T_MIN], t_max = (int64_t)h[H_T_MAX];
        g->t_min = !g->any_time || t_min < g->t_min ? t_min : g->t_min;
        g->t_max = !g->any_time || t_max > g->t_max ? t_max : g->t_max;
        g->any_time = 1;
    }
}

/* Counts no share could hold in its words (each item takes a word or more). */
static int counts_fit(const pw_part_reader *r, const uint64_t *h)
{
    size_t left = r->n - r->pos;
    for (int i = H_NAMES; i <= H_RANKS; i++)
        if (h[i] > left)
            return 0;
    return 1;
}

/* One share's definitions into the whole numbering; its maps kept when
 * they are this process's. */
static void take_share(ot_build *b, pw_part_reader *r, int mine)
{
    uint64_t h[H_N];
    pw_part_take(r, h, sizeof h);
    skip_trackers(r, h[H_TRACKERS]);
    if (r->bad || !counts_fit(r, h)) {
        r->bad = 1;
        return;
    }
    ot_share_maps sm = {calloc(h[H_NAMES] + 1, sizeof *sm.names), calloc(h[H_REGIONS] + 1, sizeof *sm.regions),
                        calloc(h[H_METRICS] + 1, sizeof *sm.metrics), calloc(h[H_COMMS] + 1, sizeof *sm.comms),
                        calloc(h[H_LOCS] + 1, sizeof *sm.locs)};
    uint32_t *metric_track = NULL, track_base = b->u->g.n_tracks_seen;
    b->nomem |= !sm.names || !sm.regions || !sm.metrics || !sm.comms || !sm.locs;
    if (!b->nomem)
        take_names(b, r, h, &sm);
    if (!b->nomem && !r->bad)
        take_tracks(b, r, h, &sm, &metric_track);
    if (!b->nomem && !r->bad)
        take_locs(b, r, h, &sm, track_base, mine);
    if (!b->nomem && !r->bad)
        take_metrics(b, r, h, &sm, metric_track, track_base);
    if (!b->nomem && !r->bad)
        take_mpi(b, r, h, &sm);
    free(metric_track);
    if (mine) { /* this process's refs -> the archive's */
        ot_unified *u = b->u;
        u->regions = sm.regions, u->metrics = sm.metrics, u->comms = sm.comms, u->locs = sm.locs;
        sm.regions = sm.metrics = sm.comms = NULL;
        sm.locs = NULL;
    }
    share_maps_free(&sm);
}

/* Every rank's creations (from the share that drew it), resolved into the
 * archive's communicators as the serial writer's census resolves them. */
static void resolve(ot_build *b, const ot_writer *w, const void *all, const size_t *bytes, uint64_t processes)
{
    const pw_comm_replay *rp = &w->mpi.replay;
    b->n_trackers = rp->live ? rp->n_ranks : 0;
    b->trackers = calloc(b->n_trackers ? b->n_trackers : 1, sizeof *b->trackers);
    pw_mpi_tracker **ptrs = calloc(b->n_trackers ? b->n_trackers : 1, sizeof *ptrs);
    if (!b->trackers || !ptrs) {
        free(ptrs);
        b->nomem = 1;
        return;
    }
    for (size_t i = 0; i < b->n_trackers; i++) {
        pw_mpi_tracker_init(&b->trackers[i], rp->world, rp->self, rp->null, rp->undefined_color);
        ptrs[i] = &b->trackers[i];
    }
    size_t at = 0;
    for (uint64_t p = 0; p < processes && !b->nomem; p++) {
        pw_part_reader r = pw_part_reader_of((const char *)all + at, bytes[p]);
        uint64_t h[H_N];
        pw_part_take(&r, h, sizeof h);
        take_trackers(b, &r, h[H_TRACKERS]);
        b->nomem |= r.bad;
        at += bytes[p];
    }
    if (!b->nomem && b->n_trackers && pw_mpi_comms_resolve(&b->u->g.mpi.replay.comms, ptrs, b->n_trackers) != 0)
        b->nomem = 1;
    free(ptrs);
}

/* The whole numbering from every share's definitions; 0 when memory ran
 * out or a share's words were not whole. */
static int build(ot_build *b, const ot_writer *w, const size_t *bytes, uint64_t processes)
{
    ot_unified *u = b->u;
    resolve(b, w, u->all, bytes, processes);
    size_t at = 0;
    int bad = 0;
    for (uint64_t p = 0; p < processes && !b->nomem && !bad; p++) {
        pw_part_reader r = pw_part_reader_of((const char *)u->all + at, bytes[p]);
        take_share(b, &r, p == w->ds->share_index);
        bad = r.bad;
        at += bytes[p];
    }
    ot_writer *g = &u->g;
    for (size_t i = 0; i < b->n_empties && !b->nomem && !bad; i++) {
        if (!pw_grow_zeroed((void **)&g->locs, &g->cap_locs, g->n_locs, sizeof *g->locs)) {
            b->nomem = 1;
            break;
        }
        g->locs[g->n_locs] = (ot_loc){.ds_loc = b->empties[i].ds_loc, .events = b->empties[i].events};
        if (b->empties[i].ref)
            *b->empties[i].ref = g->n_locs;
        g->n_locs++;
    }
    for (size_t i = 0; i < b->n_trackers; i++)
        pw_mpi_tracker_free(&b->trackers[i]);
    free(b->trackers);
    free(b->region_of);
    free(b->empties);
    return !b->nomem && !bad && u->locs;
}

int ot_unify(ot_writer *w, const pw_names *nm, ot_unified *u)
{
    memset(u, 0, sizeof *u);
    pw_names_init(&u->names);
    u->g.ds = w->ds;
    u->g.archive = w->archive; /* share 0 writes the global definitions through it */
    u->g.path = w->path;
    pw_part_writer mine = {0};
    local_definitions(w, nm, &mine);
    size_t *bytes = NULL;
    uint64_t processes = 0;
    int gathered = gather(w->together, &mine, &u->all, &bytes, &processes);
    free(mine.words);
    ot_build b = {.u = u};
    uint64_t failed = !gathered || !build(&b, w, bytes, processes);
    free(bytes);
    w->together->sum(w->together->ctx, &failed, 1);
    if (failed)
        ot_unified_free(u);
    return !failed;
}

void ot_unified_free(ot_unified *u)
{
    ot_writer *g = &u->g;
    ot_call_metrics_free(&g->call_metrics);
    ot_mpi_free(&g->mpi);
    free(g->tracks);
    free(g->locs);
    free(g->region_names);
    free(g->region_kinds);
    pw_names_free(&u->names);
    free(u->regions);
    free(u->metrics);
    free(u->comms);
    free(u->locs);
    free(u->all);
    memset(u, 0, sizeof *u);
}
#endif
