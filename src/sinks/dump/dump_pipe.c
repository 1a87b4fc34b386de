/* dump_pipe.c — pw_dump_pipelined: the dump of a merge on two threads.
 *
 * This thread merges the cursors, decodes each record and copies it (its
 * time, location, type and decoded values, with the strings, bytes and
 * nested items they point to) into a ring of blocks; a second thread
 * formats the copies in order and writes them.  The order is the merge's,
 * so the output is that of the serial dump byte for byte, at the cost of
 * one copy per record instead of the epoch mode's copy and second merge
 * per line.  Blocks change hands under a mutex, a block at a time; the
 * ring bounds memory to PIPE_BLOCKS blocks (a block grows only for a
 * record larger than it). */
#include <pthread.h>
#include <stdlib.h>

#include "model/dataset.h"
#include "sinks/dump/dump.h"
#include "sinks/dump/dump_pipe.h"

#define PIPE_BLOCKS 16
#define PIPE_BLOCK_BYTES (128 * 1024)

/* One copied record; its values follow it, then the bytes they point to. */
typedef struct pipe_rec {
    const pw_schema *sc;
    const char *type;
    int64_t t;
    double vt;
    uint32_t location;
    pw_clock clock;
    size_t size; /* of the whole entry */
} pipe_rec;

/* Each block on its own cache lines: the two threads work on different
 * blocks, and sharing a line between them would cost a transfer on
 * every access. */
typedef struct pipe_block {
    _Alignas(64) unsigned char *buf;
    size_t cap, len;
    int full; /* 1: the formatting thread's, 0: this thread's */
} pipe_block;

typedef struct dump_pipe {
    _Alignas(64) pw_dump *d; /* alone on its line: read by both threads */
    pipe_block blocks[PIPE_BLOCKS];
    _Alignas(64) pthread_mutex_t mu;
    pthread_cond_t cv;
    int finished; /* no block will be filled any more */
    int stop;     /* the output failed: filling is pointless */
    pw_value *spill; /* the widest schema's values, while changing block */
} dump_pipe;

static size_t align8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

/* Bytes the values' pointers reach (strings, bytes, nested items). */
static size_t values_extra(const pw_value *v, size_t n)
{
    size_t extra = 0;
    for (size_t i = 0; i < n; i++) {
        if (!v[i].present)
            continue;
        if (v[i].type == PW_T_STR)
            extra += align8(v[i].v.s.n);
        else if (v[i].type == PW_T_BYTES)
            extra += align8(v[i].v.bytes.n);
        else if (v[i].type == PW_T_LIST || v[i].type == PW_T_OBJECT)
            extra += v[i].v.list.n * sizeof(pw_value) + values_extra(v[i].v.list.items, v[i].v.list.n);
    }
    return extra;
}

/* Copies what n values point to (strings, bytes, nested items) to heap and
 * points the values there; returns the end of what was copied. */
static unsigned char *copy_pointees(pw_value *v, size_t n, unsigned char *heap)
{
    for (size_t i = 0; i < n; i++) {
        if (!v[i].present)
            continue;
        if (v[i].type == PW_T_STR) {
            if (v[i].v.s.n)
                memcpy(heap, v[i].v.s.p, v[i].v.s.n);
            v[i].v.s.p = (const char *)heap;
            heap += align8(v[i].v.s.n);
        } else if (v[i].type == PW_T_BYTES) {
            if (v[i].v.bytes.n)
                memcpy(heap, v[i].v.bytes.p, v[i].v.bytes.n);
            v[i].v.bytes.p = heap;
            heap += align8(v[i].v.bytes.n);
        } else if (v[i].type == PW_T_LIST || v[i].type == PW_T_OBJECT) {
            pw_value *items = (pw_value *)(void *)heap;
            size_t k = v[i].v.list.n;
            if (k)
                memcpy(items, v[i].v.list.items, k * sizeof *items);
            heap = copy_pointees(items, k, heap + k * sizeof *items);
            v[i].v.list.items = items;
        }
    }
    return heap;
}

/* Gives block i to the formatting thread. */
static void pipe_hand_over(dump_pipe *p, size_t i)
{
    pthread_mutex_lock(&p->mu);
    p->blocks[i].full = 1;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

/* Room for `need` bytes in the block being filled (*cur), moving to the
 * next block (once the formatter has emptied it) when the current one is
 * short; NULL when the output failed or memory ran out. */
static unsigned char *pipe_reserve(dump_pipe *p, size_t *cur, size_t need)
{
    pipe_block *b = &p->blocks[*cur];
    if (b->cap - b->len >= need)
        return b->buf + b->len;
    if (b->len) {
        pipe_hand_over(p, *cur);
        *cur = (*cur + 1) % PIPE_BLOCKS;
        b = &p->blocks[*cur];
        pthread_mutex_lock(&p->mu);
        while (b->full && !p->stop)
            pthread_cond_wait(&p->cv, &p->mu);
        int stop = p->stop;
        pthread_mutex_unlock(&p->mu);
        if (stop)
            return NULL;
    }
    if (b->cap < need) { /* a record larger than a block: grow this one */
        unsigned char *nb = realloc(b->buf, need);
        if (!nb)
            return NULL;
        b->buf = nb;
        b->cap = need;
    }
    return b->buf;
}

/* Copies one merged record into the ring; 0 when it cannot.  The values
 * are decoded straight into the block; when what they point to does not
 * fit after them, they move (through `spill`) to the next block. */
static int pipe_put(dump_pipe *p, size_t *cur, const pw_record *rec)
{
    const pw_schema *sc = p->d->ds->schemas[rec->schema];
    /* The schema's name lives as long as the dataset; another type name
     * (an unknown ovni model's MCV) may live only as long as the record. */
    size_t type_len = rec->type == sc->name ? 0 : strlen(rec->type) + 1;
    size_t head = align8(sizeof(pipe_rec)) + sc->n_fields * sizeof(pw_value);
    unsigned char *at = pipe_reserve(p, cur, head);
    if (!at)
        return 0;
    pw_value *vals = (pw_value *)(void *)(at + align8(sizeof(pipe_rec)));
    pw_record_decode_into(rec, vals);
    size_t need = head + values_extra(vals, sc->n_fields) + align8(type_len);
    pipe_block *b = &p->blocks[*cur];
    if (b->cap - b->len < need) {
        memcpy(p->spill, vals, sc->n_fields * sizeof *vals);
        if (!(at = pipe_reserve(p, cur, need)))
            return 0;
        vals = (pw_value *)(void *)(at + align8(sizeof(pipe_rec)));
        memcpy(vals, p->spill, sc->n_fields * sizeof *vals);
    }
    unsigned char *heap = copy_pointees(vals, sc->n_fields, at + head);
    const char *type = sc->name;
    if (type_len) {
        memcpy(heap, rec->type, type_len);
        type = (const char *)heap;
    }
    *(pipe_rec *)(void *)at = (pipe_rec){sc, type, rec->t, rec->vt, rec->location, rec->clock, need};
    p->blocks[*cur].len += need;
    return 1;
}

/* Formats every record of a full block into out. */
static void pipe_format_block(const pw_dump *d, pw_outbuf *out, const pipe_block *b)
{
    pw_record rec = {0};
    for (size_t off = 0; off < b->len;) {
        const pipe_rec *r = (const pipe_rec *)(const void *)(b->buf + off);
        rec.location = r->location;
        rec.type = r->type;
        rec.clock = r->clock;
        rec.t = r->t;
        rec.vt = r->vt;
        const pw_value *vals = (const pw_value *)(const void *)(b->buf + off + align8(sizeof(pipe_rec)));
        pw_dump_format_values(d, out, &rec, r->sc, vals);
        off += r->size;
    }
}

/* The formatting thread: blocks in ring order until the filler finishes
 * or the output fails.  It writes through a copy of the output buffer on
 * its own stack (given back at the end): the buffer's length changes at
 * every record, and the pw_dump it lives in may share a cache line with
 * the cursors the other thread reads. */
static void *pipe_formatter(void *arg)
{
    dump_pipe *p = arg;
    pw_outbuf out = p->d->out;
    for (size_t i = 0;; i = (i + 1) % PIPE_BLOCKS) {
        pipe_block *b = &p->blocks[i];
        pthread_mutex_lock(&p->mu);
        while (!b->full && !p->finished)
            pthread_cond_wait(&p->cv, &p->mu);
        int have = b->full;
        pthread_mutex_unlock(&p->mu);
        if (!have)
            break;
        pipe_format_block(p->d, &out, b);
        b->len = 0;
        pthread_mutex_lock(&p->mu);
        b->full = 0;
        p->stop = out.failed;
        pthread_cond_signal(&p->cv);
        pthread_mutex_unlock(&p->mu);
        if (out.failed)
            break;
    }
    p->d->out = out;
    return NULL;
}

/* This thread's side: merge, decode, copy; then tell the formatter. */
static int pipe_fill(dump_pipe *p, pw_merge *m, pw_error *err)
{
    size_t cur = 0;
    const pw_record *rec;
    int ok = 1;
    while (ok && pw_merge_next(m, &rec, err) == PW_OK)
        ok = pipe_put(p, &cur, rec);
    if (ok && p->blocks[cur].len)
        pipe_hand_over(p, cur);
    pthread_mutex_lock(&p->mu);
    p->finished = 1;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    return ok;
}

static void pipe_free(dump_pipe *p)
{
    for (size_t i = 0; i < PIPE_BLOCKS; i++)
        free(p->blocks[i].buf);
    free(p->spill);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
}

pw_status pw_dump_pipelined(pw_dataset *ds, pw_dump *d, pw_error *err)
{
    dump_pipe p = {.d = d};
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    p.spill = malloc((ds->max_fields ? ds->max_fields : 1) * sizeof *p.spill);
    if (!p.spill) {
        pipe_free(&p);
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    }
    for (size_t i = 0; i < PIPE_BLOCKS; i++) {
        p.blocks[i].buf = malloc(PIPE_BLOCK_BYTES);
        if (!p.blocks[i].buf) {
            pipe_free(&p);
            return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
        }
        p.blocks[i].cap = PIPE_BLOCK_BYTES;
    }
    pw_merge *m;
    pw_status s = pw_merge_open(ds, &m, err);
    pthread_t th;
    if (s == PW_OK && pthread_create(&th, NULL, pipe_formatter, &p) != 0) {
        pw_merge_close(m);
        s = pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "cannot start a thread");
    }
    if (s == PW_OK) {
        int ok = pipe_fill(&p, m, err);
        pthread_join(th, NULL);
        pw_merge_close(m);
        if (d->out.failed)
            s = pw_fail(err, PW_E_IO, "<output>", PW_NO_OFFSET, "write failed");
        else if (!ok)
            s = pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    }
    pipe_free(&p);
    return s;
}
