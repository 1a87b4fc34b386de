/* dump_all.c — pw_dump_all: every record of a dataset, merged in time
 * order, with decoding and formatting spread over worker threads.
 *
 * Time is cut into epochs [.., bound).  For each epoch, workers format, per
 * location, the records that come before the bound (stopping at the first
 * one that does not) into a memory chunk of lines with their sort keys;
 * this thread then merges the chunks' lines by key and copies them out,
 * while the workers format the next epoch into the other chunk.  Merging
 * epoch by epoch gives exactly the order of a whole merge: a location's
 * line waits while another location still has a line before the bound,
 * just as the whole merge would hold it back.  Epoch lengths adapt so an
 * epoch holds about PW_EPOCH_LINES lines: memory stays flat. */
#include <stdio.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/grow.h"
#include "core/parallel.h"
#include "model/tournament.h"
#include "sinks/dump/dump.h"
#include "drivers/dump_pipe.h"

#define PW_EPOCH_LINES 65536

typedef struct line_ref {
    pw_sort_key key;
    size_t len;
} line_ref;

typedef struct chunk {
    pw_outbuf text;
    line_ref *lines;
    size_t n, cap;
} chunk;

typedef struct loc_stream {
    pw_cursor *c;
    int head;             /* c->rec is read but not yet formatted */
    int done;
    pw_sort_key head_key;
    chunk chunks[2];
} loc_stream;

typedef struct dump_all {
    pw_dump *d;
    loc_stream *ls;
    size_t n;
    int workers;
    pw_sort_key bound;    /* the epoch being formatted ends before this */
    int slot;             /* the chunk it fills */
    int nomem;
    /* epoch lengths, in ns and in virtual time */
    int64_t dt;
    double dvt;
} dump_all;

static int chunk_push(chunk *ch, pw_sort_key key, size_t len)
{
    if (!pw_grow((void **)&ch->lines, ch->n, &ch->cap, sizeof *ch->lines))
        return 0;
    ch->lines[ch->n++] = (line_ref){key, len};
    return 1;
}

/* Reads the next record of a location into its head (or marks it done). */
static void load_head(loc_stream *l)
{
    const pw_record *rec;
    pw_error e;
    if (l->done || l->head)
        return;
    if (pw_cursor_next(l->c, &rec, &e) == PW_OK) {
        l->head = 1;
        l->head_key = pw_sort_key_of(rec);
    } else {
        l->done = 1;
    }
}

/* Worker body: formats location `item`'s records of the current epoch. */
static void format_epoch(void *ctx, size_t item, int worker)
{
    (void)worker;
    dump_all *a = ctx;
    loc_stream *l = &a->ls[item];
    chunk *ch = &l->chunks[a->slot];
    ch->text.len = 0;
    ch->n = 0;
    for (load_head(l); l->head && pw_sort_key_before(&l->head_key, &a->bound); load_head(l)) {
        size_t before = ch->text.len;
        pw_dump_format(a->d, &ch->text, &l->c->rec);
        if (ch->text.failed || !chunk_push(ch, l->head_key, ch->text.len - before))
            a->nomem = 1;
        l->head = 0;
    }
}

/* Picks the next bound from the smallest pending head, about one epoch
 * length later; 0 when no location has records left. */
static int next_bound(dump_all *a, size_t last_lines)
{
    const pw_sort_key *m = NULL;
    for (size_t i = 0; i < a->n; i++)
        if (a->ls[i].head && (!m || pw_sort_key_before(&a->ls[i].head_key, m)))
            m = &a->ls[i].head_key;
    if (!m)
        return 0;
    /* Steer the length toward PW_EPOCH_LINES lines (within 8x a step). */
    double f = last_lines ? (double)PW_EPOCH_LINES / (double)last_lines : 8.0;
    f = f > 8.0 ? 8.0 : f < 0.125 ? 0.125 : f;
    int64_t t = pw_i64_of_order(m->t);
    double vt = pw_f64_of_order(m->vt);
    int64_t bt = 0;
    double bvt = 0.0;
    if (t != 0) {
        a->dt = (int64_t)((double)a->dt * f);
        if (a->dt < 1)
            a->dt = 1;
        bt = t <= INT64_MAX - a->dt ? t + a->dt : INT64_MAX;
        bvt = t <= INT64_MAX - a->dt ? 0.0 : 1.0 / 0.0;
    } else {
        a->dvt *= f;
        bvt = vt + a->dvt;
        if (!(bvt > vt)) { /* no room left in virtual time: take all of t == 0 */
            bt = 1;
            bvt = 0.0;
        }
    }
    a->bound.t = pw_order_of_i64(bt);
    a->bound.vt = pw_order_of_f64(bvt);
    a->bound.loc = 0;
    return 1;
}

/* Merges one epoch's chunks by key into the output. */
static void merge_epoch(dump_all *a, int slot, pw_tournament *t, size_t *pos, size_t *off)
{
    for (size_t i = 0; i < t->k; i++) {
        pw_tournament_set_done(t, i);
        if (i < a->n && a->ls[i].chunks[slot].n) {
            pos[i] = 0;
            off[i] = 0;
            pw_tournament_set(t, i, a->ls[i].chunks[slot].lines[0].key);
        }
    }
    pw_tournament_build(t);
    for (long w; (w = pw_tournament_winner(t)) >= 0;) {
        chunk *ch = &a->ls[w].chunks[slot];
        size_t len = ch->lines[pos[w]].len;
        pw_out_mem(&a->d->out, ch->text.buf + off[w], len);
        off[w] += len;
        if (++pos[w] < ch->n) {
            const pw_sort_key *k = &ch->lines[pos[w]].key;
            pw_tournament_replay(t, k->t, k->vt, k->loc);
        } else {
            pw_tournament_retire(t);
        }
    }
}

typedef struct epoch_job {
    dump_all *a;
    pthread_t thread;
} epoch_job;

static void *format_epoch_all(void *arg)
{
    dump_all *a = arg;
    pw_parallel_for(a->n, a->workers, format_epoch, a);
    return NULL;
}

static size_t epoch_lines(const dump_all *a, int slot)
{
    size_t n = 0;
    for (size_t i = 0; i < a->n; i++)
        n += a->ls[i].chunks[slot].n;
    return n;
}

/* The epoch loop: format epoch e+1 in the background while epoch e is
 * merged and written. */
static pw_status dump_epochs(dump_all *a, pw_error *err)
{
    pw_tournament t;
    size_t *pos = NULL, *off = NULL;
    if (!pw_tournament_init(&t, a->n) || !(pos = calloc(t.k, sizeof *pos)) ||
        !(off = calloc(t.k, sizeof *off))) {
        free(pos);
        pw_tournament_free(&t);
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    }
    for (size_t i = 0; i < a->n; i++)
        load_head(&a->ls[i]);
    int more = next_bound(a, 0);
    a->slot = 0;
    if (more)
        format_epoch_all(a);
    while (more && !a->nomem && !a->d->out.failed) {
        int slot = a->slot;
        more = next_bound(a, epoch_lines(a, slot));
        pthread_t th;
        int started = 0;
        if (more) {
            a->slot = slot ^ 1;
            started = pthread_create(&th, NULL, format_epoch_all, a) == 0;
            if (!started)
                format_epoch_all(a);
        }
        merge_epoch(a, slot, &t, pos, off);
        if (started)
            pthread_join(th, NULL);
    }
    free(pos);
    free(off);
    pw_tournament_free(&t);
    if (a->nomem)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory while formatting");
    return PW_OK;
}

/* One location stream per location with records, with two chunks. */
static pw_status dump_all_open(dump_all *a, pw_dataset *ds, pw_error *err)
{
    size_t with_records = pw_ds_count_record_locations(ds);
    a->ls = calloc(with_records ? with_records : 1, sizeof *a->ls);
    if (!a->ls)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    size_t cap = pw_merge_window_cap(with_records);
    for (size_t i = 0; i < ds->n_locs; i++) {
        if (!ds->locs[i].has_records)
            continue;
        loc_stream *l = &a->ls[a->n];
        pw_status s = pw_cursor_open_sized(ds, (uint32_t)i, cap, &l->c, err);
        if (s == PW_E_DATA || s == PW_E_IO) { /* unreadable location: note it, go on */
            pw_ds_diag_error(ds, PW_SEV_ERROR, "unreadable", err);
            continue;
        }
        if (s == PW_OK)
            s = pw_outbuf_init_memory(&l->chunks[0].text, 64 * 1024, err);
        if (s == PW_OK)
            s = pw_outbuf_init_memory(&l->chunks[1].text, 64 * 1024, err);
        a->n++;
        if (s != PW_OK)
            return s;
    }
    return PW_OK;
}

static void dump_all_close(dump_all *a)
{
    for (size_t i = 0; i < a->n; i++) {
        pw_cursor_close(a->ls[i].c);
        for (int k = 0; k < 2; k++) {
            pw_outbuf_free(&a->ls[i].chunks[k].text);
            free(a->ls[i].chunks[k].lines);
        }
    }
    free(a->ls);
}

/* The cores the default (-j not given) may count on: those no other
 * runnable thread holds right now, so that on a busy two-core machine
 * dump runs the plain merge, which is then faster than the two-thread
 * pipeline (0.70x the wall time on a 5 M-event ovni trace, issue 16).
 * Runnable threads now, not the 1-minute load average: that average still
 * counts the previous command's own threads for a minute, and made a
 * second dump on an idle machine run on one thread (1.7 s instead of
 * 1.0 s for 32 M ovni events).  Linux's /proc/loadavg says "a b c R/T":
 * R runnable, this thread among them. */
static int idle_cores(int cores)
{
    FILE *f = fopen("/proc/loadavg", "r");
    int running = 0;
    if (!f)
        return cores;
    int got = fscanf(f, "%*f %*f %*f %d/", &running);
    fclose(f);
    if (got != 1 || running < 1)
        return cores;
    int idle = cores - (running - 1);
    return idle < 1 ? 1 : idle < cores ? idle : cores;
}

/* One thread: the plain merge, record by record. */
static pw_status dump_serial(pw_dataset *ds, pw_dump *d, pw_error *err)
{
    pw_merge *m;
    pw_status s = pw_merge_open(ds, &m, err);
    const pw_record *rec;
    while (s == PW_OK && pw_merge_next(m, &rec, err) == PW_OK)
        s = pw_dump_record(d, rec, err);
    pw_merge_close(m);
    return s;
}

pw_status pw_dump_all(pw_dataset *ds, FILE *out, pw_dump_style style, pw_error *err)
{
    pw_dump *d;
    pw_status s = pw_dump_open(ds, out, style, &d, err);
    if (s != PW_OK)
        return s;
    size_t with_records = pw_ds_count_record_locations(ds);
    int workers = pw_parallel_workers(with_records, ds->threads);
    int cores = pw_parallel_workers(SIZE_MAX, ds->threads);
    if (ds->threads <= 0)
        cores = idle_cores(cores);
    if (workers > cores)
        workers = cores;
    /* The epochs cost a copy and a merge per line on this thread: with
     * fewer than 3 workers that is not won back, so two cores run the
     * two-thread pipeline (one copy per record, no second merge), and
     * one core the plain merge. */
    if (cores < 2) {
        s = dump_serial(ds, d, err);
    } else if (workers < 3 || with_records < 2) {
        s = pw_dump_pipelined(ds, d, err);
    } else {
        dump_all a = {.d = d, .workers = workers, .dt = 1000, .dvt = 1e-9};
        s = dump_all_open(&a, ds, err);
        if (s == PW_OK)
            s = dump_epochs(&a, err);
        dump_all_close(&a);
    }
    pw_status c = pw_dump_close(d, s == PW_OK ? err : NULL);
    return s == PW_OK ? c : s;
}
