/* timeline_share.c — a share drawn alone (see timeline_share.h): who owns
 * each rank, the message ends that cross processes, and the merge of the
 * share's cursors. */
#include "views/timeline_share.h"

#include <stdlib.h>
#include <string.h>

#include "views/timeline.h"
#include "core/grow.h"

pw_diag_mark tl_diag_mark(const pw_dataset *ds)
{
    return (pw_diag_mark){ds->n_diags, ds->diags_dropped, ds->worst, ds->system_fault};
}

void tl_diag_restore(pw_dataset *ds, const pw_diag_mark *m)
{
    for (size_t i = m->n; i < ds->n_diags; i++) {
        free((void *)ds->diags[i].file);
        free((void *)ds->diags[i].message);
    }
    ds->n_diags = m->n;
    ds->diags_dropped = m->dropped;
    ds->worst = m->worst;
    ds->system_fault = m->system_fault;
}

/* Does any cursor of the share yield records of locations outside its
 * subtree?  The format says it never does (own_subtree: a rank's cursor
 * yields its threads' records), or the first record of each tells (as
 * tl_probe_foreign in timeline.c). */
static int share_yields_foreign(pw_dataset *ds, const uint32_t *locs, size_t first, size_t end)
{
    if (ds->own_subtree)
        return 0;
    pw_diag_mark mark = tl_diag_mark(ds); /* the drawing finds what opening finds */
    int foreign = 0;
    for (size_t i = first; i < end && !foreign; i++) {
        pw_cursor *c;
        pw_error e;
        if (pw_cursor_open(ds, locs[i], &c, &e) != PW_OK)
            continue; /* unreadable: the drawing notes it */
        const pw_record *rec;
        foreign = pw_cursor_next(c, &rec, &e) == PW_OK && rec->location != locs[i];
        pw_cursor_close(c);
    }
    tl_diag_restore(ds, &mark);
    return foreign;
}

/* rank -> owner for every location with records; 0 when a rank's
 * locations are drawn by two processes (or memory runs out: -1). */
static int map_ranks(tl_share *sh, const pw_dataset *ds)
{
    for (size_t i = 0; i < ds->n_locs; i++) {
        if (!sh->owner[i])
            continue;
        int64_t rank = pw_tl_rank_of(ds, (uint32_t)i);
        pw_key k = {{(uint64_t)rank, 0, 0, 0}};
        int added;
        uint64_t *v = pw_keymap_get(&sh->rank_owner, &k, sh->owner[i], &added);
        if (!v)
            return -1;
        if (*v != sh->owner[i])
            return 0;
    }
    return 1;
}

#define AGREE_CHUNK 4096

/* The owner of every location and the number of processes, summed over
 * the processes (each adds its own) in chunks of a fixed size (so a
 * process short of memory still takes part), with the count of shares
 * whose cursors yield foreign records and of those short of memory;
 * 1: the share can be drawn alone. */
static int agree(tl_share *sh, pw_dataset *ds)
{
    const pw_collectives *c = ds->run->collectives;
    size_t n = 0, first = 0, end = 0, total = ds->n_locs + 3;
    uint32_t *locs = pw_ds_record_locations(ds, &n);
    uint8_t *mine = calloc(ds->n_locs ? ds->n_locs : 1, 1);
    sh->owner = calloc(ds->n_locs ? ds->n_locs : 1, sizeof *sh->owner);
    int ok = locs && mine && sh->owner;
    if (locs)
        pw_ds_share(ds, n, &first, &end);
    for (size_t i = first; mine && i < end; i++)
        mine[locs[i]] = 1;
    uint64_t tail[3] = {1, ok && share_yields_foreign(ds, locs, first, end), !ok}; /* processes, foreign, no memory */
    for (size_t at = 0; at < total; at += AGREE_CHUNK) {
        uint64_t v[AGREE_CHUNK];
        size_t k = total - at < AGREE_CHUNK ? total - at : AGREE_CHUNK;
        for (size_t j = 0; j < k; j++)
            v[j] = at + j >= ds->n_locs ? tail[at + j - ds->n_locs] : mine && mine[at + j] ? ds->run->share_index + 1 : 0;
        c->sum(c->ctx, v, k);
        for (size_t j = 0; j < k; j++)
            if (at + j >= ds->n_locs)
                tail[at + j - ds->n_locs] = v[j];
            else if (sh->owner)
                sh->owner[at + j] = (uint32_t)v[j];
    }
    free(mine);
    sh->processes = (unsigned)tail[0];
    sh->me = ds->run->share_index;
    /* one process draws every location: nothing to split */
    return tail[2] ? -1 : tail[1] || tail[0] < 2 ? 0 : 1;
}

int tl_share_begin(tl_share *sh, pw_dataset *ds)
{
    memset(sh, 0, sizeof *sh);
    const pw_collectives *c = ds->run->collectives;
    if (!c || !c->alltoallv || pw_ds_option(ds, "waits"))
        return 0;
    int answer = agree(sh, ds);
    if (answer == 1) /* the same owners everywhere: every process maps alike, unless memory runs out */
        answer = map_ranks(sh, ds);
    if (answer != 0) {
        sh->out = calloc(sh->processes ? sh->processes : 1, sizeof *sh->out);
        sh->n_out = calloc(sh->processes ? sh->processes : 1, sizeof *sh->n_out);
        sh->cap_out = calloc(sh->processes ? sh->processes : 1, sizeof *sh->cap_out);
        uint64_t failed = answer < 0 || !sh->out || !sh->n_out || !sh->cap_out;
        c->sum(c->ctx, &failed, 1);
        answer = failed ? -1 : 1;
    }
    if (answer != 1)
        tl_share_free(sh);
    return answer;
}

void tl_share_free(tl_share *sh)
{
    for (unsigned p = 0; sh->out && p < sh->processes; p++)
        free(sh->out[p]);
    for (size_t i = 0; i < sh->n_chans; i++) {
        free(sh->chans[i].pos);
        free(sh->chans[i].known);
    }
    free(sh->chans);
    free(sh->out);
    free(sh->n_out);
    free(sh->cap_out);
    free(sh->owner);
    pw_keymap_free(&sh->rank_owner);
    pw_keymap_free(&sh->channels);
    memset(sh, 0, sizeof *sh);
}

int pw_dataset_drew_share_alone(const pw_dataset *ds) { return ds->run->timeline_alone; }

unsigned tl_share_owner_of_rank(const tl_share *sh, int64_t rank)
{
    pw_key k = {{(uint64_t)rank, 0, 0, 0}};
    const uint64_t *v = pw_keymap_find(&sh->rank_owner, &k);
    return v ? (unsigned)*v : 0;
}

void tl_share_note(tl_share *sh, const pw_msg *m, uint64_t seq, int is_send, const tl_pos *pos)
{
    unsigned to = tl_share_owner_of_rank(sh, is_send ? m->dest : m->source);
    if (!to || to - 1 == sh->me)
        return; /* drawn here, or by no process */
    to--;
    if (!pw_grow((void **)&sh->out[to], sh->n_out[to], &sh->cap_out[to], sizeof *sh->out[to])) {
        sh->nomem = 1;
        return;
    }
    sh->out[to][sh->n_out[to]++] = (tl_end_msg){m->comm, m->source, m->dest, m->tag, seq, *pos};
}

static pw_key channel_key(const pw_msg *m)
{
    return (pw_key){{(uint64_t)m->comm, (uint64_t)m->source, (uint64_t)m->dest, (uint64_t)m->tag}};
}

/* The channel of an end that arrived, made on first sight; NULL when
 * memory runs out. */
static struct tl_channel *channel_of(tl_share *sh, const tl_end_msg *e)
{
    pw_msg m = {e->comm, e->source, e->dest, e->tag};
    pw_key k = channel_key(&m);
    int added;
    uint64_t *v = pw_keymap_get(&sh->channels, &k, sh->n_chans, &added);
    if (!v)
        return NULL;
    if (added) {
        if (!pw_grow((void **)&sh->chans, sh->n_chans, &sh->cap_chans, sizeof *sh->chans))
            return NULL;
        memset(&sh->chans[sh->n_chans++], 0, sizeof *sh->chans);
    }
    return &sh->chans[*v];
}

/* Files an end that arrived under its channel and sequence number. */
static int keep_end(tl_share *sh, const tl_end_msg *e)
{
    struct tl_channel *ch = channel_of(sh, e);
    if (!ch)
        return 0;
    if (e->seq >= ch->cap) {
        uint64_t cap = ch->cap ? ch->cap : 16;
        while (cap <= e->seq)
            cap *= 2;
        tl_pos *p = realloc(ch->pos, cap * sizeof *p);
        if (p)
            ch->pos = p;
        uint8_t *known = p ? realloc(ch->known, cap) : NULL;
        if (!known)
            return 0;
        memset(known + ch->cap, 0, cap - ch->cap);
        ch->known = known;
        ch->cap = cap;
    }
    ch->n_known += !ch->known[e->seq];
    ch->known[e->seq] = 1;
    ch->pos[e->seq] = e->pos;
    return 1;
}

/* Files a channel's count of ends that arrived (seq holds it). */
static int keep_count(tl_share *sh, const tl_end_msg *e)
{
    struct tl_channel *ch = channel_of(sh, e);
    if (ch)
        ch->n_known = e->seq;
    return ch != NULL;
}

/* The recorded ends to their processes, each received one filed by keep. */
static int exchange(tl_share *sh, const pw_collectives *c, int ok_here, int (*keep)(tl_share *, const tl_end_msg *))
{
    size_t total = 0, *bytes = calloc(sh->processes, sizeof *bytes), *got = calloc(sh->processes, sizeof *got);
    for (unsigned p = 0; bytes && p < sh->processes; p++)
        total += sh->n_out[p];
    tl_end_msg *send = bytes && got && !sh->nomem && ok_here ? malloc(total ? total * sizeof *send : 1) : NULL;
    size_t at = 0;
    for (unsigned p = 0; send && p < sh->processes; p++) {
        if (sh->n_out[p]) /* out[p] is NULL while empty */
            memcpy(send + at, sh->out[p], sh->n_out[p] * sizeof *send);
        at += sh->n_out[p];
        bytes[p] = sh->n_out[p] * sizeof *send;
        free(sh->out[p]);
        sh->out[p] = NULL;
        sh->n_out[p] = sh->cap_out[p] = 0;
    }
    /* a process without memory still takes part, sending nothing: the
     * exchange then fails everywhere (it allocates; else see below) */
    for (unsigned p = 0; !send && bytes && p < sh->processes; p++)
        bytes[p] = 0;
    void *recv = NULL;
    int ok = bytes && got && c->alltoallv(c->ctx, send ? (const void *)send : "", bytes ? bytes : got, &recv, got);
    free(send);
    uint64_t failed = !ok || !send;
    size_t n = 0;
    for (unsigned p = 0; ok && p < sh->processes; p++)
        n += got[p] / sizeof(tl_end_msg);
    const tl_end_msg *ends = recv;
    for (size_t i = 0; !failed && i < n; i++)
        failed = !keep(sh, &ends[i]);
    free(recv);
    free(bytes);
    free(got);
    c->sum(c->ctx, &failed, 1);
    return !failed;
}

int tl_share_exchange(tl_share *sh, const pw_collectives *c, int ok_here) { return exchange(sh, c, ok_here, keep_end); }

int tl_share_exchange_counts(tl_share *sh, const pw_collectives *c, const pw_msgmatch *mm, int ok_here)
{
    for (uint64_t i = 0; i < mm->n_keys; i++) {
        const struct pw_msg_counts *k = &mm->counts[i];
        int is_send = k->sends > 0; /* sent here: its receives are counted where dest is drawn */
        tl_pos none = {0, 0, {0}};
        tl_share_note(sh, &k->key, is_send ? k->sends : k->recvs, is_send, &none);
    }
    return exchange(sh, c, ok_here, keep_count);
}

const tl_pos *tl_share_other_end(const tl_share *sh, const pw_msg *m, uint64_t seq)
{
    pw_key k = channel_key(m);
    const uint64_t *v = pw_keymap_find(&sh->channels, &k);
    if (!v)
        return NULL;
    const struct tl_channel *ch = &sh->chans[*v];
    return seq < ch->cap && ch->known[seq] ? &ch->pos[seq] : NULL;
}

uint64_t tl_share_other_ends(const tl_share *sh, const pw_msg *m)
{
    pw_key k = channel_key(m);
    const uint64_t *v = pw_keymap_find(&sh->channels, &k);
    return v ? sh->chans[*v].n_known : 0;
}

int tl_pos_before(const tl_pos *s, const tl_pos *r)
{
    if (r->is_end) /* an end at t is popped before the records at t */
        return s->t < r->t;
    return pw_sort_key_before(&s->key, &r->key);
}

/* The merge of the share's cursors (merge.c over the share's locations). */
pw_status tl_share_merge_open(pw_dataset *ds, pw_merge **out, pw_error *err)
{
    size_t n, first, end;
    uint32_t *locs = pw_ds_record_locations(ds, &n);
    *out = NULL;
    if (!locs)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    pw_ds_share(ds, n, &first, &end);
    return pw_merge_open_locations(ds, locs + first, end - first, out, err);
}
