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

/* The creations of the ranks this process drew (every rank is drawn by
 * one share): what resolving the communicators needs of them. */
static void put_trackers(pw_part_writer *b, const pw_comm_replay *r)
{
    for (size_t i = 0; r->live && i < r->n_ranks; i++) {
        const pw_mpi_tracker *t = &r->live[i];
        if (!t->n_created)
            continue;
        pw_part_put_word(b, i);
        pw_mpi_tracker_put(b, t);
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
        pw_part_put_str(b, s, n);
    }
    for (uint32_t i = 0; i < w->n_regions; i++) {
        uint64_t r[3] = {w->region_names[i], w->region_kinds[i].paradigm, w->region_kinds[i].role};
        pw_part_put(b, r, sizeof r);
    }
    for (uint32_t id = 1; id <= w->n_tracks_seen; id++) {
        const struct ot_track *t = &w->tracks[id];
        uint64_t r[4] = {t->kind, t->name, t->loc, t->owner};
        pw_part_put(b, r, sizeof r);
        pw_part_put_str(b, t->unit, t->unit ? strlen(t->unit) : 0); /* NULL: no unit */
    }
    for (uint32_t i = 0; i < w->n_locs; i++) {
        uint64_t r[4] = {w->locs[i].track, w->locs[i].events, w->locs[i].group, w->locs[i].ds_loc};
        pw_part_put(b, r, sizeof r);
    }
    for (uint32_t i = 0; i < w->call_metrics.n; i++) {
        const struct ot_call_metric *cm = &w->call_metrics.m[i];
        uint64_t r[2] = {cm->ref, (uint64_t)cm->papi};
        pw_part_put(b, r, sizeof r);
        pw_part_put_str(b, cm->name, strlen(cm->name));
    }
    for (uint32_t i = 0; i < m->n_comms; i++) {
        uint64_t r[3] = {(uint64_t)m->comm_values[i].handle, (uint64_t)m->comm_values[i].rank, m->comm_values[i].inst};
        pw_part_put(b, r, sizeof r);
    }
    for (uint32_t r = 0; r < m->n_ranks; r++)
        pw_part_put_word(b, r < m->cap_ranks ? m->rank_loc[r] : 0);
    return !b->nomem;
}

/* Every process's definitions, in share order, on process 0 (bytes[p]:
 * process p's); 1 on every process when each took part whole. */
static int gather(const pw_collectives *c, const pw_part_writer *mine, void **all, size_t **bytes, uint64_t *processes)
{
    *processes = 1;
    c->sum(c->ctx, processes, 1);
    /* a process that could not build its words takes part with none */
    int got = c->gatherv(c->ctx, mine->nomem ? "" : (const void *)mine->words,
                         mine->nomem ? 0 : mine->n * sizeof *mine->words, all, bytes);
    uint64_t failed = mine->nomem || !got;
    c->sum(c->ctx, &failed, 1);
    return !failed;
}

/* One share's maps: its refs -> the archive's (names only while its
 * definitions are read). */
typedef struct ot_share_maps {
    uint32_t *names, *regions, *metrics, *comms;
    uint64_t *locs;
    uint64_t n_regions, n_metrics, n_comms, n_locs;
} ot_share_maps;

/* The building of the whole numbering, share after share (process 0). */
typedef struct ot_build {
    ot_unified *u;
    ot_share_maps *shares; /* per process */
    uint32_t *region_of;  /* per archive name id: region ref + 1 */
    uint32_t cap_region_of;
    pw_mpi_tracker *trackers; /* per world rank */
    size_t n_trackers;
    struct ot_empty {
        uint32_t ds_loc;
        uint64_t events;
        uint64_t *ref; /* where its archive ref goes (its share's map) */
    } *empties;           /* locations without a track, numbered after every drawn one */
    size_t n_empties, cap_empties;
    int nomem;
} ot_build;

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
    for (uint64_t i = 0; i < n && !r->bad && !b->nomem; i++) {
        uint64_t rank = pw_part_next(r);
        if (rank >= b->n_trackers) {
            r->bad = 1;
            return;
        }
        b->nomem |= !pw_mpi_tracker_take(r, &b->trackers[rank]) && !r->bad;
    }
}

/* Past a share's creations (read by the first pass, checked as read). */
static void skip_trackers(pw_part_reader *r, uint64_t n)
{
    for (uint64_t i = 0; i < n && !r->bad; i++) {
        pw_mpi_tracker scratch = {0};
        pw_part_next(r);
        if (!pw_mpi_tracker_take(r, &scratch))
            r->bad = 1;
        pw_mpi_tracker_free(&scratch);
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
        pw_part_take(r, t, sizeof t);
        if (t[3] > n || (t[0] != PW_TL_PROCESS && t[0] != PW_TL_COUNTER_TRACK && t[2] > h[H_LOCS])) {
            r->bad = 1; /* refs past the share's own */
            return;
        }
        struct ot_track *gt = &g->tracks[base + id];
        gt->unit = pw_part_take_str(r, NULL);
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
static void take_locs(ot_build *b, pw_part_reader *r, const uint64_t *h, ot_share_maps *sm, uint32_t base)
{
    ot_writer *g = &b->u->g;
    for (uint64_t i = 0; i < h[H_LOCS] && !r->bad && !b->nomem; i++) {
        uint64_t l[4];
        pw_part_take(r, l, sizeof l);
        if (l[0] > h[H_TRACKS] || l[2] > h[H_TRACKS] || l[3] >= g->ds->n_locs) { /* refs past the share's own */
            r->bad = 1;
            return;
        }
        if (!l[0]) { /* no track: numbered after every share's drawn locations */
            if (!pw_grow((void **)&b->empties, b->n_empties, &b->cap_empties, sizeof *b->empties))
                b->nomem = 1;
            else
                b->empties[b->n_empties++] = (struct ot_empty){(uint32_t)l[3], l[1], &sm->locs[i]};
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
        const char *name = pw_part_take_str(r, NULL);
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
        const char *s = pw_part_take_str(r, &len);
        if (!s)
            break; /* damaged: r->bad is set */
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

/* One share's definitions into the whole numbering; its maps kept in sm
 * (freed by the caller). */
static void take_share(ot_build *b, pw_part_reader *r, ot_share_maps *sm)
{
    uint64_t h[H_N];
    pw_part_take(r, h, sizeof h);
    skip_trackers(r, h[H_TRACKERS]);
    if (r->bad || !counts_fit(r, h)) {
        r->bad = 1;
        return;
    }
    *sm = (ot_share_maps){calloc(h[H_NAMES] + 1, sizeof *sm->names), calloc(h[H_REGIONS] + 1, sizeof *sm->regions),
                          calloc(h[H_METRICS] + 1, sizeof *sm->metrics), calloc(h[H_COMMS] + 1, sizeof *sm->comms),
                          calloc(h[H_LOCS] + 1, sizeof *sm->locs), h[H_REGIONS], h[H_METRICS], h[H_COMMS], h[H_LOCS]};
    uint32_t *metric_track = NULL, track_base = b->u->g.n_tracks_seen;
    b->nomem |= !sm->names || !sm->regions || !sm->metrics || !sm->comms || !sm->locs;
    if (!b->nomem)
        take_names(b, r, h, sm);
    if (!b->nomem && !r->bad)
        take_tracks(b, r, h, sm, &metric_track);
    if (!b->nomem && !r->bad)
        take_locs(b, r, h, sm, track_base);
    if (!b->nomem && !r->bad)
        take_metrics(b, r, h, sm, metric_track, track_base);
    if (!b->nomem && !r->bad)
        take_mpi(b, r, h, sm);
    free(metric_track);
    free(sm->names);
    sm->names = NULL;
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

/* The whole numbering from every share's definitions (process 0), each
 * share's maps in b->shares; 0 when memory ran out or a share's words
 * were not whole. */
static int build(ot_build *b, const ot_writer *w, const size_t *bytes, uint64_t processes)
{
    ot_unified *u = b->u;
    b->shares = calloc(processes ? processes : 1, sizeof *b->shares);
    b->nomem |= !b->shares;
    if (!b->nomem)
        resolve(b, w, u->all, bytes, processes);
    size_t at = 0;
    int bad = 0;
    for (uint64_t p = 0; p < processes && !b->nomem && !bad; p++) {
        pw_part_reader r = pw_part_reader_of((const char *)u->all + at, bytes[p]);
        take_share(b, &r, &b->shares[p]);
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
        *b->empties[i].ref = g->n_locs++;
    }
    for (size_t i = 0; i < b->n_trackers; i++)
        pw_mpi_tracker_free(&b->trackers[i]);
    free(b->trackers);
    free(b->region_of);
    free(b->empties);
    return !b->nomem && !bad;
}

/* n refs as words. */
static void put_refs(pw_part_writer *out, const uint32_t *refs, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        pw_part_put_word(out, refs[i]);
}

/* Every share's maps as words, share after share (bytes[p]: share p's):
 * its counts, then its location, region, metric and communicator maps. */
static int put_maps(const ot_build *b, uint64_t processes, pw_part_writer *out, size_t *bytes)
{
    for (uint64_t p = 0; p < processes; p++) {
        const ot_share_maps *sm = &b->shares[p];
        size_t from = out->n;
        uint64_t head[4] = {sm->n_locs, sm->n_regions, sm->n_metrics, sm->n_comms};
        pw_part_put(out, head, sizeof head);
        pw_part_put(out, sm->locs, sm->n_locs * sizeof *sm->locs);
        put_refs(out, sm->regions, sm->n_regions);
        put_refs(out, sm->metrics, sm->n_metrics);
        put_refs(out, sm->comms, sm->n_comms);
        bytes[p] = (out->n - from) * sizeof *out->words;
    }
    return !out->nomem;
}

/* n refs from words into a new array (NULL when memory runs out). */
static uint32_t *take_refs(pw_part_reader *r, uint64_t n)
{
    uint32_t *refs = malloc((n ? n : 1) * sizeof *refs);
    for (uint64_t i = 0; refs && i < n; i++)
        refs[i] = (uint32_t)pw_part_next(r);
    return refs;
}

/* This process's maps as process 0 put them; 0 when they are not whole or
 * not as many as its refs. */
static int take_maps(ot_unified *u, const ot_writer *w, const void *part, size_t n)
{
    pw_part_reader r = pw_part_reader_of(part, n);
    uint64_t head[4];
    pw_part_take(&r, head, sizeof head);
    if (r.bad || head[0] != w->n_locs || head[1] != w->n_regions || head[2] != w->n_metrics ||
        head[3] != w->mpi.n_comms || r.n - r.pos != head[0] + head[1] + head[2] + head[3])
        return 0;
    u->locs = malloc((head[0] ? head[0] : 1) * sizeof *u->locs);
    if (!u->locs)
        return 0;
    pw_part_take(&r, u->locs, head[0] * sizeof *u->locs);
    u->regions = take_refs(&r, head[1]);
    u->metrics = take_refs(&r, head[2]);
    u->comms = take_refs(&r, head[3]);
    return u->regions && u->metrics && u->comms && !r.bad;
}

/* Process 0: the whole numbering into u, and every share's maps into
 * maps (map_bytes[p]: share p's). */
static int number(const ot_writer *w, ot_unified *u, const size_t *bytes, uint64_t processes, pw_part_writer *maps,
                  size_t **map_bytes)
{
    ot_build b = {.u = u};
    int ok = build(&b, w, bytes, processes);
    *map_bytes = calloc(processes ? processes : 1, sizeof **map_bytes);
    ok = ok && *map_bytes && put_maps(&b, processes, maps, *map_bytes);
    for (uint64_t p = 0; b.shares && p < processes; p++)
        share_maps_free(&b.shares[p]);
    free(b.shares);
    return ok;
}

/* Each process's maps from process 0, in one scatter. */
static int hand_back(const pw_collectives *c, const ot_writer *w, ot_unified *u, const pw_part_writer *maps,
                     const size_t *map_bytes)
{
    void *part = NULL;
    size_t n = 0;
    int ok = c->scatterv(c->ctx, maps->words, map_bytes, &part, &n) && take_maps(u, w, part, n);
    free(part);
    return ok;
}

int ot_unify(ot_writer *w, const pw_names *nm, ot_unified *u)
{
    memset(u, 0, sizeof *u);
    const pw_collectives *c = w->together;
    if (!c->gatherv || !c->scatterv) /* the program's collectives, alike on every process */
        return 0;
    pw_names_init(&u->names);
    u->g.ds = w->ds;
    u->g.archive = w->archive; /* share 0 writes the global definitions through it */
    u->g.path = w->path;
    pw_part_writer mine = {0}, maps = {0};
    local_definitions(w, nm, &mine);
    size_t *bytes = NULL, *map_bytes = NULL;
    uint64_t processes = 0;
    int gathered = gather(c, &mine, &u->all, &bytes, &processes);
    free(mine.words);
    uint64_t failed = !gathered || (w->ds->run->share_index == 0 && !number(w, u, bytes, processes, &maps, &map_bytes));
    free(bytes);
    c->sum(c->ctx, &failed, 1); /* process 0's numbering, known to all */
    if (!failed)
        failed = !hand_back(c, w, u, &maps, map_bytes);
    free(maps.words);
    free(map_bytes);
    c->sum(c->ctx, &failed, 1);
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
