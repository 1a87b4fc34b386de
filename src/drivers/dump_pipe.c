/* dump_pipe.c — pw_dump_pipelined: the dump of a merge on two threads.
 *
 * This thread merges the cursors and puts each record into a ring of
 * blocks: where its bytes are in its file (formats with
 * pw_cursor_ops.reread, while there are few files: the formatting side
 * reads them again itself, so 16 bytes per record cross between the cores),
 * or its time, location and type followed by a snapshot of its bytes
 * (pw_cursor_ops.snapshot) or by its decoded values with the strings, bytes
 * and items they point to.  A second thread
 * takes the filled blocks in order, decodes and formats each into the
 * block's own text, and writes the texts out in ring order.  When the ring
 * is full this thread formats a block too rather than wait, so the two
 * cores share the work however it divides between merging and formatting;
 * whichever thread completes the oldest unwritten block writes it.  The
 * order is the merge's: the output is the serial dump's byte for byte.
 * Memory: PIPE_BLOCKS blocks and their texts (a block grows only for a
 * record larger than it). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/window.h"
#include "model/dataset.h"
#include "sinks/dump/dump.h"
#include "drivers/dump_pipe.h"

#define PIPE_BLOCKS 16
#define PIPE_BLOCK_BYTES (128 * 1024)
/* Records a block takes at most: its text stays some hundreds of KiB
 * however small the entries are. */
#define PIPE_BLOCK_RECORDS 2048
/* Pauses a waiter spins through before it sleeps: some tens of
 * microseconds, under the time one block takes. */
#define PIPE_SPINS 4000

/* One copied record, 32 bytes (every byte of a block crosses to the other
 * core's cache): its snapshot or its values follow it, then the bytes
 * they point to, then its type name when that is not its schema's. */
typedef struct pipe_rec {
    uint32_t size;     /* of the whole entry (PIPE_REF clear) */
    uint32_t location;
    uint32_t snap;     /* bytes of snapshot; 0: decoded values follow */
    uint32_t schema;
    uint32_t type_off; /* offset of its own type name, or 0: the schema's */
    uint8_t clock;
    union {
        int64_t t;     /* PW_CLOCK_NS */
        double vt;     /* PW_CLOCK_VIRTUAL */
    } time;
} pipe_rec;
_Static_assert(sizeof(pipe_rec) % 8 == 0, "what follows a pipe_rec stays 8-aligned");

/* A record by its place: rec->size bytes at rec->offset of the location's
 * file, read again by the formatter (pw_cursor_ops.reread). */
typedef struct pipe_ref {
    uint32_t size;     /* sizeof(pipe_ref) | PIPE_REF */
    uint32_t location;
    uint64_t place;    /* offset << 24 | bytes */
} pipe_ref;
#define PIPE_REF 0x80000000u
/* Records by place only up to this many files (each formatter keeps a
 * window of PIPE_REF_WINDOW bytes open on every one), and only records of
 * up to PIPE_REF_BYTES (larger ones go as snapshots, so the windows never
 * grow): memory stays under 2 x 64 x 64 KiB. */
#define PIPE_REF_FILES 64
#define PIPE_REF_WINDOW (64 * 1024)
#define PIPE_REF_BYTES (16 * 1024)

enum { BLOCK_FREE, BLOCK_FILLED, BLOCK_FORMATTING, BLOCK_FORMATTED };

/* Each block on its own cache lines: the threads work on different blocks,
 * and a shared line would move between cores at every access. */
typedef struct pipe_block {
    _Alignas(64) unsigned char *buf;
    size_t cap, len;
    size_t n; /* records */
    pw_outbuf text;
    int state; /* BLOCK_*, under the mutex */
} pipe_block;

/* What each formatting thread has of its own, on its own cache line: a
 * line shared with the other thread's hot data would cross between the
 * cores at every record. */
typedef struct pipe_worker {
    _Alignas(64) pw_value *values;
    pw_arena scratch;
    pw_window *files; /* per location, for records by place (path NULL: not open) */
} pipe_worker;

typedef struct dump_pipe {
    _Alignas(64) pw_dump *d;
    pipe_block blocks[PIPE_BLOCKS];
    _Alignas(64) pthread_mutex_t mu;
    pthread_cond_t cv;
    /* Blocks by sequence number (ring slot = number % PIPE_BLOCKS). */
    uint64_t filled;  /* handed over by the merge */
    uint64_t claimed; /* of those, taken by a formatter */
    uint64_t written; /* of those, written out */
    int writing;      /* a thread is writing a block out */
    int finished;     /* the merge is over */
    int nomem;        /* formatting ran out of memory */
    int unreadable;   /* a record could not be read again */
    int failed;       /* the output failed or memory ran out: stop */
    pw_value *spill;  /* the widest schema's values, while changing block */
    _Atomic uint64_t changes; /* counts pipe_changed calls: what spinning waiters watch */
    pw_schema *const *schemas;
    const pw_cursor_ops *ops; /* the cursors' (snapshots of others are not taken) */
    int by_place;     /* records go by place (ops has reread, few files) */
    pipe_worker workers[2]; /* [0] this thread, [1] the formatting thread */
} dump_pipe;

/* Tells waiters that some block changed hands.  Mutex held. */
static void pipe_changed(dump_pipe *p)
{
    atomic_fetch_add_explicit(&p->changes, 1, memory_order_release);
    pthread_cond_broadcast(&p->cv);
}

/* Waits until some block changes hands.  Mutex held, and held again on
 * return.  A sleeping thread takes long to wake on a virtual machine (its
 * core has gone idle), longer than a block takes to format: so spin on the
 * change counter for a while first, and sleep only when nothing happens. */
static void pipe_wait(dump_pipe *p)
{
    uint64_t seen = atomic_load_explicit(&p->changes, memory_order_acquire);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < PIPE_SPINS && atomic_load_explicit(&p->changes, memory_order_acquire) == seen; i++) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    pthread_mutex_lock(&p->mu);
    if (atomic_load_explicit(&p->changes, memory_order_relaxed) == seen)
        pthread_cond_wait(&p->cv, &p->mu);
}

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

/* Reads a record given by place again and rebuilds it: its bytes (in the
 * worker's window on the file), or NULL when that fails. */
static const uint8_t *pipe_reread(const dump_pipe *p, const pipe_ref *ref, pipe_worker *w,
                                  pw_record *rec)
{
    const pw_dataset *ds = p->d->ds;
    pw_window *win = &w->files[ref->location];
    pw_error err;
    if (!win->path && pw_window_open(win, ds->locs[ref->location].file, PIPE_REF_WINDOW,
                                     PIPE_REF_WINDOW, &err) != PW_OK) {
        win->path = NULL;
        return NULL;
    }
    const uint8_t *bytes;
    rec->location = ref->location;
    rec->offset = ref->place >> 24;
    rec->size = ref->place & 0xffffff;
    rec->vt = 0.0;
    if (pw_window_need(win, rec->offset, rec->size, &bytes, &err) != PW_OK ||
        !p->ops->reread(ds, bytes, rec->size, rec, &w->scratch))
        return NULL;
    return bytes;
}

/* Decodes (snapshots, records by place) and formats every record of a
 * block into its text; 0 when a record could not be read again. */
static int pipe_format_block(const dump_pipe *p, pipe_block *b, pipe_worker *w)
{
    const pw_dataset *ds = p->d->ds;
    pw_schema *const *schemas = p->schemas;
    const pw_cursor_ops *ops = p->ops;
    pw_record rec = {0};
    for (size_t off = 0; off < b->len;) {
        /* The block was written on the other core: ask for what comes next
         * early (the hardware's prefetch stops at every page). */
        __builtin_prefetch(b->buf + off + 1024);
        __builtin_prefetch(b->buf + off + 1024 + 64);
        pw_arena_reset(&w->scratch);
        if (*(const uint32_t *)(const void *)(b->buf + off) & PIPE_REF) {
            const pipe_ref *ref = (const pipe_ref *)(const void *)(b->buf + off);
            const uint8_t *bytes = pipe_reread(p, ref, w, &rec);
            if (!bytes)
                return 0;
            const pw_schema *sc = schemas[rec.schema];
            pw_snapshot_decode(ds, ops, sc, &rec, bytes, rec.size, &w->scratch, w->values);
            pw_dump_format_values(p->d, &b->text, &rec, sc, w->values);
            off += sizeof(pipe_ref);
            continue;
        }
        const pipe_rec *r = (const pipe_rec *)(const void *)(b->buf + off);
        const unsigned char *body = b->buf + off + sizeof(pipe_rec);
        const pw_schema *sc = schemas[r->schema];
        rec.schema = r->schema;
        rec.location = r->location;
        rec.type = r->type_off ? (const char *)b->buf + off + r->type_off : sc->name;
        rec.clock = (pw_clock)r->clock;
        rec.t = r->clock == PW_CLOCK_NS ? r->time.t : 0;
        rec.vt = r->clock == PW_CLOCK_VIRTUAL ? r->time.vt : 0.0;
        const pw_value *vals = (const pw_value *)(const void *)body;
        if (r->snap) {
            pw_snapshot_decode(ds, ops, sc, &rec, body, r->snap, &w->scratch, w->values);
            vals = w->values;
        }
        pw_dump_format_values(p->d, &b->text, &rec, sc, vals);
        off += r->size;
    }
    return 1;
}

/* Writes out formatted blocks in order, as long as the oldest unwritten
 * one is ready and no other thread is writing.  Called and returns with
 * the mutex held; drops it around the write. */
static void pipe_write_ready(dump_pipe *p)
{
    while (!p->writing && p->written < p->claimed &&
           p->blocks[p->written % PIPE_BLOCKS].state == BLOCK_FORMATTED) {
        pipe_block *b = &p->blocks[p->written % PIPE_BLOCKS];
        p->writing = 1;
        pthread_mutex_unlock(&p->mu);
        pw_out_write_through(&p->d->out, b->text.buf, b->text.len);
        int failed = p->d->out.failed;
        b->text.len = 0;
        b->len = 0;
        b->n = 0;
        pthread_mutex_lock(&p->mu);
        b->state = BLOCK_FREE;
        p->written++;
        p->writing = 0;
        p->failed |= failed;
        pipe_changed(p);
    }
}

/* Formats the oldest filled block nobody has taken, if there is one, and
 * writes what is ready; 0 when there was none.  Mutex held. */
static int pipe_work(dump_pipe *p, pipe_worker *w)
{
    if (p->failed || p->claimed == p->filled)
        return 0;
    pipe_block *b = &p->blocks[p->claimed % PIPE_BLOCKS];
    p->claimed++;
    b->state = BLOCK_FORMATTING;
    pthread_mutex_unlock(&p->mu);
    int unreadable = !pipe_format_block(p, b, w);
    int nomem = b->text.failed;
    pthread_mutex_lock(&p->mu);
    b->state = BLOCK_FORMATTED;
    p->nomem |= nomem;
    p->unreadable |= unreadable;
    p->failed |= nomem | unreadable;
    pipe_changed(p);
    pipe_write_ready(p);
    return 1;
}

/* Gives block i, filled, to the formatters. */
static void pipe_hand_over(dump_pipe *p, size_t i)
{
    pthread_mutex_lock(&p->mu);
    p->blocks[i].state = BLOCK_FILLED;
    p->filled++;
    pipe_changed(p);
    pthread_mutex_unlock(&p->mu);
}

/* Room for `need` bytes in the block being filled (*cur), moving to the
 * next block when the current one is short: while that one is still in
 * the formatters' hands, this thread formats too.  NULL when the output
 * failed or memory ran out. */
static unsigned char *pipe_reserve(dump_pipe *p, size_t *cur, size_t need, pipe_worker *w)
{
    pipe_block *b = &p->blocks[*cur];
    if (b->cap - b->len >= need && b->n < PIPE_BLOCK_RECORDS)
        return b->buf + b->len;
    if (b->len) {
        pipe_hand_over(p, *cur);
        *cur = (*cur + 1) % PIPE_BLOCKS;
        b = &p->blocks[*cur];
        pthread_mutex_lock(&p->mu);
        while (b->state != BLOCK_FREE && !p->failed)
            if (!pipe_work(p, w))
                pipe_wait(p);
        int failed = p->failed;
        pthread_mutex_unlock(&p->mu);
        if (failed)
            return NULL;
    }
    if (b->cap < need) { /* a record larger than a block: grow this one */
        unsigned char *nb = realloc(b->buf, need);
        if (!nb)
            return NULL;
        b->buf = nb;
        b->cap = need;
    }
    return b->buf + b->len;
}

/* Fills the head of an entry of `size` bytes at `at`, copying the record's
 * type name to its end when it is not its schema's (an unknown ovni
 * model's MCV lives only as long as the record); 0 when the entry is too
 * large to describe. */
static int put_head(unsigned char *at, const pw_record *rec, const pw_schema *sc, size_t snap,
                    size_t type_len, size_t size)
{
    if (size > UINT32_MAX)
        return 0;
    pipe_rec *r = (pipe_rec *)(void *)at;
    r->schema = rec->schema;
    r->location = rec->location;
    r->snap = (uint32_t)snap;
    r->size = (uint32_t)size;
    r->type_off = 0;
    r->clock = (uint8_t)rec->clock;
    if (rec->clock == PW_CLOCK_VIRTUAL)
        r->time.vt = rec->vt;
    else
        r->time.t = rec->t;
    if (rec->type != sc->name) {
        r->type_off = (uint32_t)(size - align8(type_len));
        memcpy(at + r->type_off, rec->type, type_len);
    }
    return 1;
}

/* Bytes to keep the record's type name, when it is not its schema's. */
static size_t type_bytes(const pw_record *rec, const pw_schema *sc)
{
    return rec->type == sc->name ? 0 : strlen(rec->type) + 1;
}

/* Copies a merged record as a snapshot of its bytes; 0 when the format
 * takes none, -1 when out of room for good. */
static int pipe_put_snapshot(dump_pipe *p, size_t *cur, const pw_record *rec, pipe_worker *w)
{
    if (!p->ops) {
        p->ops = rec->cursor->ops;
        p->by_place &= p->ops->reread != NULL;
    }
    if (rec->cursor->ops != p->ops)
        return 0;
    if (p->by_place && rec->offset < ((uint64_t)1 << 40) && rec->size <= PIPE_REF_BYTES) {
        unsigned char *at = pipe_reserve(p, cur, sizeof(pipe_ref), w);
        if (!at)
            return -1;
        *(pipe_ref *)(void *)at = (pipe_ref){sizeof(pipe_ref) | PIPE_REF, rec->location,
                                             rec->offset << 24 | rec->size};
        p->blocks[*cur].len += sizeof(pipe_ref);
        p->blocks[*cur].n++;
        return 1;
    }
    const pw_schema *sc = p->schemas[rec->schema];
    size_t head = sizeof(pipe_rec);
    size_t type_len = type_bytes(rec, sc);
    pipe_block *b = &p->blocks[*cur];
    size_t room = b->n < PIPE_BLOCK_RECORDS ? b->cap - b->len : 0;
    unsigned char *at = b->buf + b->len;
    size_t snap = room > head ? pw_record_snapshot(rec, at + head, room - head)
                              : pw_record_snapshot(rec, NULL, 0);
    if (!snap)
        return 0;
    size_t need = head + align8(snap) + align8(type_len);
    if (need > room) {
        if (!(at = pipe_reserve(p, cur, need, w)))
            return -1;
        pw_record_snapshot(rec, at + head, need - head);
    }
    if (!put_head(at, rec, sc, snap, type_len, need))
        return -1;
    p->blocks[*cur].len += need;
    p->blocks[*cur].n++;
    return 1;
}

/* Copies a merged record as its decoded values; 0 when it cannot.  The
 * values are decoded straight into the block; when what they point to does
 * not fit after them, they move (through `spill`) to the next block. */
static int pipe_put_values(dump_pipe *p, size_t *cur, const pw_record *rec, pipe_worker *w)
{
    const pw_schema *sc = p->schemas[rec->schema];
    size_t type_len = type_bytes(rec, sc);
    size_t head = sizeof(pipe_rec) + sc->n_fields * sizeof(pw_value);
    unsigned char *at = pipe_reserve(p, cur, head, w);
    if (!at)
        return 0;
    pw_value *vals = (pw_value *)(void *)(at + sizeof(pipe_rec));
    pw_record_decode_into(rec, vals);
    size_t need = head + values_extra(vals, sc->n_fields) + align8(type_len);
    pipe_block *b = &p->blocks[*cur];
    if (b->cap - b->len < need) {
        memcpy(p->spill, vals, sc->n_fields * sizeof *vals);
        if (!(at = pipe_reserve(p, cur, need, w)))
            return 0;
        vals = (pw_value *)(void *)(at + sizeof(pipe_rec));
        memcpy(vals, p->spill, sc->n_fields * sizeof *vals);
    }
    copy_pointees(vals, sc->n_fields, at + head);
    if (!put_head(at, rec, sc, 0, type_len, need))
        return 0;
    p->blocks[*cur].len += need;
    p->blocks[*cur].n++;
    return 1;
}

/* The formatting thread: takes blocks until the merge is over and every
 * block is taken, or the output fails. */
static void *pipe_formatter(void *arg)
{
    void **args = arg;
    dump_pipe *p = args[0];
    pipe_worker *w = args[1];
    pthread_mutex_lock(&p->mu);
    while (!p->failed && !(p->finished && p->claimed == p->filled))
        if (!pipe_work(p, w))
            pipe_wait(p);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* This thread's side: merge and copy; at the end, help format what is
 * left and wait until every block is written. */
static int pipe_fill(dump_pipe *p, pw_merge *m, pipe_worker *w, pw_error *err)
{
    size_t cur = 0;
    const pw_record *rec;
    int ok = 1;
    while (ok && pw_merge_next(m, &rec, err) == PW_OK) {
        int put = pipe_put_snapshot(p, &cur, rec, w);
        ok = put > 0 || (put == 0 && pipe_put_values(p, &cur, rec, w));
    }
    if (ok && p->blocks[cur].len)
        pipe_hand_over(p, cur);
    pthread_mutex_lock(&p->mu);
    p->finished = 1;
    pipe_changed(p);
    while (!p->failed && p->written < p->filled)
        if (!pipe_work(p, w))
            pipe_wait(p);
    pthread_mutex_unlock(&p->mu);
    return ok;
}

/* The values array on cache lines of its own: the two workers' arrays
 * would otherwise be neighbours on the heap, and a line they share would
 * move between the cores at every record. */
static int worker_init(pipe_worker *w, const pw_dataset *ds)
{
    pw_arena_init(&w->scratch, 16 * 1024);
    size_t bytes = (ds->max_fields ? ds->max_fields : 1) * sizeof *w->values;
    w->values = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    w->files = calloc(ds->n_locs ? ds->n_locs : 1, sizeof *w->files);
    return w->values != NULL && w->files != NULL;
}

static void worker_free(pipe_worker *w, const pw_dataset *ds)
{
    for (size_t i = 0; w->files && i < ds->n_locs; i++)
        if (w->files[i].path)
            pw_window_close(&w->files[i]);
    free(w->files);
    free(w->values);
    pw_arena_free(&w->scratch);
}

static void pipe_free(dump_pipe *p)
{
    for (size_t i = 0; i < PIPE_BLOCKS; i++) {
        free(p->blocks[i].buf);
        pw_outbuf_free(&p->blocks[i].text);
    }
    free(p->spill);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
}

static pw_status pipe_alloc(dump_pipe *p, const pw_dataset *ds, pw_error *err)
{
    p->spill = malloc((ds->max_fields ? ds->max_fields : 1) * sizeof *p->spill);
    if (!p->spill)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < PIPE_BLOCKS; i++) {
        p->blocks[i].buf = malloc(PIPE_BLOCK_BYTES);
        if (!p->blocks[i].buf)
            return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
        p->blocks[i].cap = PIPE_BLOCK_BYTES;
        pw_status s = pw_outbuf_init_memory(&p->blocks[i].text, 2 * PIPE_BLOCK_BYTES, err);
        if (s != PW_OK)
            return s;
    }
    return PW_OK;
}

pw_status pw_dump_pipelined(pw_dataset *ds, pw_dump *d, pw_error *err)
{
    /* By place only when every location with records has its own file. */
    size_t files = 0;
    for (size_t i = 0; i < ds->n_locs; i++)
        files += ds->locs[i].has_records && ds->locs[i].file;
    dump_pipe p = {.d = d, .schemas = ds->schemas,
                   .by_place = files == pw_ds_count_record_locations(ds) && files <= PIPE_REF_FILES};
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    pipe_worker *self = &p.workers[0], *other = &p.workers[1];
    pw_status s = pipe_alloc(&p, ds, err);
    if (s == PW_OK && (!worker_init(self, ds) || !worker_init(other, ds)))
        s = pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    pw_merge *m = NULL;
    if (s == PW_OK)
        s = pw_merge_open(ds, &m, err);
    pthread_t th;
    void *args[2] = {&p, other};
    if (s == PW_OK && pthread_create(&th, NULL, pipe_formatter, args) != 0)
        s = pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "cannot start a thread");
    else if (s == PW_OK) {
        int ok = pipe_fill(&p, m, self, err);
        pthread_join(th, NULL);
        if (d->out.failed)
            s = pw_outbuf_error(&d->out, err);
        else if (p.unreadable)
            s = pw_fail(err, PW_E_IO, ds->path, PW_NO_OFFSET,
                        "a record could not be read again while dumping (did the files change?)");
        else if (!ok || p.nomem)
            s = pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    }
    pw_merge_close(m);
    worker_free(self, ds);
    worker_free(other, ds);
    pipe_free(&p);
    return s;
}
