/* msgmatch.c — per-key send and receive counters; flow id = (key number,
 * sequence number on the key), the same on both sides of a match. */
#include "views/msgmatch.h"

#include <stdlib.h>
#include <string.h>

void pw_msgmatch_init(pw_msgmatch *mm) { memset(mm, 0, sizeof *mm); }

void pw_msgmatch_free(pw_msgmatch *mm)
{
    pw_keymap_free(&mm->keys);
    pw_keymap_free(&mm->requests);
    pw_keymap_free(&mm->send_requests);
    free(mm->counts);
    free(mm->wild);
    free(mm->wild_free);
    memset(mm, 0, sizeof *mm);
}

static int same_msg(const pw_msg *a, const pw_msg *b)
{
    return a->comm == b->comm && a->source == b->source && a->dest == b->dest && a->tag == b->tag;
}

/* The counters of m's key, created on first use. */
static struct pw_msg_counts *msg_counts(pw_msgmatch *mm, const pw_msg *m, uint64_t *key_no)
{
    uint64_t h = ((uint64_t)m->comm * 31 + (uint64_t)m->source * 7 + (uint64_t)m->dest * 3 + (uint64_t)m->tag) & 63;
    uint64_t r = mm->recent[h];
    if (r && same_msg(&mm->counts[r - 1].key, m)) {
        *key_no = r - 1;
        return &mm->counts[r - 1];
    }
    pw_key k = {{(uint64_t)m->comm, (uint64_t)m->source, (uint64_t)m->dest, (uint64_t)m->tag}};
    int added;
    uint64_t *v = pw_keymap_get(&mm->keys, &k, mm->n_keys, &added);
    if (!v)
        return NULL;
    if (added) {
        if (mm->n_keys == mm->cap_keys) {
            uint64_t cap = mm->cap_keys ? mm->cap_keys * 2 : 64;
            struct pw_msg_counts *c = realloc(mm->counts, cap * sizeof *c);
            if (!c) {
                pw_keymap_remove(&mm->keys, &k);
                return NULL;
            }
            mm->counts = c;
            mm->cap_keys = cap;
        }
        mm->counts[mm->n_keys++] = (struct pw_msg_counts){*m, 0, 0};
    }
    *key_no = *v;
    mm->recent[h] = *v + 1;
    return &mm->counts[*v];
}

/* Key numbers take the high 24 bits, sequence numbers the low 40. */
static uint64_t flow_id(uint64_t key_no, uint64_t seq) { return ((key_no + 1) << 40) | (seq & 0xffffffffffull); }

uint64_t pw_msgmatch_send(pw_msgmatch *mm, const pw_msg *m)
{
    uint64_t key_no;
    struct pw_msg_counts *c = msg_counts(mm, m, &key_no);
    return c ? flow_id(key_no, c->sends++) : 0;
}

uint64_t pw_msgmatch_recv(pw_msgmatch *mm, const pw_msg *m)
{
    uint64_t key_no;
    struct pw_msg_counts *c = msg_counts(mm, m, &key_no);
    return c ? flow_id(key_no, c->recvs++) : 0;
}

/* A slot of wild holding m; UINT64_MAX when memory runs out. */
static uint64_t wild_slot(pw_msgmatch *mm, const pw_msg *m)
{
    uint64_t i;
    if (mm->n_free) {
        i = mm->wild_free[--mm->n_free];
    } else {
        if (mm->n_wild == mm->cap_wild) {
            uint64_t cap = mm->cap_wild ? mm->cap_wild * 2 : 16;
            pw_msg *w = realloc(mm->wild, cap * sizeof *w);
            uint64_t *f = w ? realloc(mm->wild_free, cap * sizeof *f) : NULL;
            if (w)
                mm->wild = w;
            if (!f)
                return UINT64_MAX;
            mm->wild_free = f;
            mm->cap_wild = cap;
        }
        i = mm->n_wild++;
    }
    mm->wild[i] = *m;
    return i;
}

uint64_t pw_msgmatch_post_recv(pw_msgmatch *mm, const pw_msg *m, int64_t rank, int64_t request)
{
    int wildcard = m->source < 0 || m->tag < 0;
    uint64_t id = wildcard ? wild_slot(mm, m) : pw_msgmatch_recv(mm, m);
    if (wildcard ? id == UINT64_MAX : id == 0) /* memory ran out (slot 0 is a slot) */
        return 0;
    if (wildcard)
        id |= PW_MSG_WILD;
    pw_key k = {{(uint64_t)rank, (uint64_t)request, 0, 0}};
    int added;
    uint64_t *v = pw_keymap_get(&mm->requests, &k, id, &added);
    mm->replaced = 0;
    if (v && !added) { /* a reused request handle names the newest receive */
        if (*v & PW_MSG_WILD)
            mm->wild_free[mm->n_free++] = *v & ~PW_MSG_WILD;
        else
            mm->replaced = *v;
        *v = id;
    }
    return v ? id : 0;
}

uint64_t pw_msgmatch_complete(pw_msgmatch *mm, int64_t rank, int64_t request, const pw_msg *status)
{
    pw_key k = {{(uint64_t)rank, (uint64_t)request, 0, 0}};
    uint64_t id;
    if (!pw_keymap_take(&mm->requests, &k, &id))
        return 0;
    if (!(id & PW_MSG_WILD))
        return id;
    uint64_t slot = id & ~PW_MSG_WILD;
    pw_msg m = mm->wild[slot];
    mm->wild_free[mm->n_free++] = slot;
    if (m.source < 0 && status)
        m.source = status->source;
    if (m.tag < 0 && status)
        m.tag = status->tag;
    return m.source < 0 || m.tag < 0 ? 0 : pw_msgmatch_recv(mm, &m);
}

int pw_msgmatch_post_send(pw_msgmatch *mm, int64_t rank, int64_t request)
{
    pw_key k = {{(uint64_t)rank, (uint64_t)request, 0, 0}};
    int added;
    return pw_keymap_get(&mm->send_requests, &k, 1, &added) != NULL;
}

int pw_msgmatch_complete_send(pw_msgmatch *mm, int64_t rank, int64_t request)
{
    pw_key k = {{(uint64_t)rank, (uint64_t)request, 0, 0}};
    uint64_t one;
    return pw_keymap_take(&mm->send_requests, &k, &one);
}

const pw_msg *pw_msgmatch_key(const pw_msgmatch *mm, uint64_t flow_id)
{
    return &mm->counts[(flow_id >> 40) - 1].key;
}

int pw_msgmatch_sent(const pw_msgmatch *mm, uint64_t flow_id)
{
    return mm->counts[(flow_id >> 40) - 1].sends > (flow_id & 0xffffffffffull);
}

void pw_msgmatch_unmatched(const pw_msgmatch *mm, uint64_t *sends, uint64_t *recvs)
{
    *sends = *recvs = 0;
    for (uint64_t i = 0; i < mm->n_keys; i++) {
        const struct pw_msg_counts *c = &mm->counts[i];
        if (c->sends > c->recvs)
            *sends += c->sends - c->recvs;
        else
            *recvs += c->recvs - c->sends;
    }
}
