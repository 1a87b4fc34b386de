/* ovni_stats.c — what an ovni user asks of a trace without the emulator:
 * per stream event counts, clock range and rate; per model and per MCV
 * counts; the payload-size histogram; jumbo volume; loom/process totals.
 * Streams are scanned in parallel; only event headers are read.  A scan
 * of some streams is a part (pw_stats_part) that several processes make
 * of their shares; the report comes from the parts joined. */
#include <stdlib.h>
#include <string.h>

#include "core/parallel.h"
#include "formats/ovni/ovni.h"
#include "formats/ovni/ovni_events.h"
#include "formats/ovni/ovni_stream.h"
#include "model/part.h"

/* Payload sizes 0 and 2..16 (normal events) and one bin for jumbo. */
#define OVNI_SIZE_BINS 18
#define OVNI_JUMBO_BIN 17

typedef struct stream_stats {
    uint64_t events, bytes, jumbo_bytes;
    uint64_t first, last;
    uint64_t sizes[OVNI_SIZE_BINS];
    int read; /* the stream could be opened */
} stream_stats;

/* MCV -> count, one per worker so counting needs no lock. */
typedef struct mcv_counts {
    uint32_t *keys; /* mcv + 1, 0 = empty */
    uint64_t *counts;
    uint32_t mask, used;
    int nomem;
} mcv_counts;

static int counts_init(mcv_counts *m, uint32_t slots)
{
    m->keys = calloc(slots, sizeof *m->keys);
    m->counts = calloc(slots, sizeof *m->counts);
    m->mask = slots - 1;
    m->used = 0;
    m->nomem = 0;
    return m->keys && m->counts;
}

static void counts_free(mcv_counts *m)
{
    free(m->keys);
    free(m->counts);
}

static void counts_add(mcv_counts *m, uint32_t key, uint64_t n);

/* Doubles the table when it is half full (there are at most 2^24 MCVs). */
static void counts_grow(mcv_counts *m)
{
    mcv_counts bigger;
    if (!counts_init(&bigger, (m->mask + 1) * 2)) {
        counts_free(&bigger);
        m->nomem = 1;
        return;
    }
    for (uint32_t i = 0; i <= m->mask; i++)
        if (m->keys[i])
            counts_add(&bigger, m->keys[i] - 1, m->counts[i]);
    counts_free(m);
    *m = bigger;
}

static void counts_add(mcv_counts *m, uint32_t key, uint64_t n)
{
    uint32_t i = (key * 2654435761u >> 8) & m->mask;
    while (m->keys[i] && m->keys[i] != key + 1)
        i = (i + 1) & m->mask;
    if (!m->keys[i]) {
        if (m->used * 2 >= m->mask) {
            counts_grow(m);
            if (!m->nomem)
                counts_add(m, key, n);
            return;
        }
        m->keys[i] = key + 1;
        m->used++;
    }
    m->counts[i] += n;
}

typedef struct stats_job {
    pw_dataset *ds;
    const uint32_t *locs;
    stream_stats *streams;
    mcv_counts *workers;       /* unknown MCVs, per worker */
    uint64_t *schema_counts;   /* [worker][schema]: known MCVs */
} stats_job;

/* One event of `size` bytes counted in its stream's figures. */
static inline void count_event(stream_stats *st, uint64_t clock, size_t size, int jumbo)
{
    if (!st->events)
        st->first = clock;
    st->last = clock;
    st->events++;
    st->bytes += size;
    if (jumbo) {
        st->sizes[OVNI_JUMBO_BIN]++;
        st->jumbo_bytes += size - OVNI_EVENT_HEADER - 4;
    } else {
        st->sizes[size - OVNI_EVENT_HEADER]++;
    }
}

/* Counts the common events (plain, in clock order, not OU[ or OU])
 * straight from the cursor's buffer, up to the first other one, which
 * is left to the cursor.  The position, the clock and the figures stay
 * in locals meanwhile: a store to the per-schema counts might otherwise
 * alias them, and every event would reload them. */
static void count_plain_run(ovni_stream *s, const ovni_dataset *od, stream_stats *st,
                            uint64_t *per_schema, mcv_counts *mc)
{
    const uint8_t *p;
    size_t have = s->header_done ? pw_window_have(&s->w, s->off, &p) : 0;
    if (!have)
        return;
    const uint8_t *start = p, *end = p + have;
    stream_stats acc = *st;
    uint64_t last = s->last_clock, clock;
    size_t size;
    while ((size = ovni_plain_size(p, (size_t)(end - p))) && ovni_in_order(p, s->big, last, &clock)) {
        last = clock;
        count_event(&acc, clock, size, 0);
        int32_t schema = ovni_schema_of(od, p + 1);
        if (schema == od->unknown_schema)
            counts_add(mc, ovni_mcv_key(p + 1), 1);
        else
            per_schema[schema]++;
        p += size;
    }
    s->events += acc.events - st->events;
    s->off += (uint64_t)(p - start);
    s->last_clock = last;
    *st = acc;
}

/* Scans one stream's event headers: the common events by runs from the
 * cursor's buffer (the stream is read once per command by this pass and
 * once by the emulation, and a record per event cost this pass five
 * times its counting); every other event, and every event under a
 * filter, through the cursor, which judges and reports it. */
static void stats_stream(void *ctx, size_t item, int worker)
{
    stats_job *j = ctx;
    stream_stats *st = &j->streams[item];
    mcv_counts *mc = &j->workers[worker];
    pw_cursor *c;
    pw_error e;
    if (pw_cursor_open(j->ds, j->locs[item], &c, &e) != PW_OK) {
        pw_ds_diag_error(j->ds, PW_SEV_ERROR, "unreadable", &e);
        return;
    }
    st->read = 1;
    ovni_stream *s = c->impl;
    const ovni_dataset *od = j->ds->impl;
    uint64_t *per_schema = j->schema_counts + (size_t)worker * j->ds->n_schemas;
    const pw_record *r;
    for (;;) {
        if (!c->filter)
            count_plain_run(s, od, st, per_schema, mc);
        if (pw_cursor_next(c, &r, &e) != PW_OK)
            break;
        count_event(st, (uint64_t)r->t, r->size, s->jumbo);
        /* Known events count in an array; only unknown ones need the map. */
        if ((int32_t)r->schema == od->unknown_schema)
            counts_add(mc, s->mcv_key, 1);
        else
            per_schema[r->schema]++;
    }
    pw_cursor_close(c);
}

static const char *model_name(char letter)
{
    for (size_t i = 0; i < ovni_n_event_defs; i++)
        if (ovni_event_defs[i].mcv[0] == letter)
            return ovni_event_defs[i].model;
    return "unknown";
}

typedef struct mcv_row {
    uint32_t key;
    uint64_t n;
} mcv_row;

static int mcv_row_cmp(const void *a, const void *b)
{
    const mcv_row *x = a, *y = b;
    if (x->n != y->n)
        return x->n < y->n ? 1 : -1;
    return (x->key > y->key) - (x->key < y->key);
}

/* The known events' counts join the unknown MCVs' map, and the whole is
 * sorted (most frequent first). */
static mcv_row *sorted_rows(const pw_dataset *ds, mcv_counts *all, const uint64_t *per_schema, size_t *n)
{
    const ovni_dataset *od = ds->impl;
    for (size_t sc = 0; sc < ds->n_schemas; sc++)
        if (per_schema[sc] && od->defs[sc])
            counts_add(all, ovni_mcv_key((const uint8_t *)od->defs[sc]->mcv), per_schema[sc]);
    *n = 0;
    if (all->nomem)
        return NULL;
    mcv_row *rows = malloc((all->used ? all->used : 1) * sizeof *rows);
    for (uint32_t k = 0; rows && k <= all->mask; k++)
        if (all->keys[k])
            rows[(*n)++] = (mcv_row){all->keys[k] - 1, all->counts[k]};
    if (rows)
        qsort(rows, *n, sizeof *rows, mcv_row_cmp);
    return rows;
}

static void report_events(pw_dataset *ds, pw_rnode *root, const mcv_row *rows, size_t n)
{
    ovni_dataset *od = ds->impl;
    pw_rnode *models = pw_rnode_array(root, "per_model");
    uint64_t per_letter[256] = {0};
    for (size_t i = 0; i < n; i++)
        per_letter[rows[i].key >> 16] += rows[i].n;
    for (int l = 0; l < 256; l++) {
        if (!per_letter[l])
            continue;
        pw_rnode *o = pw_rnode_object(models, NULL);
        char id[2] = {(char)l, 0};
        pw_rnode_str(o, "model", id);
        pw_rnode_str(o, "name", od->old_letters && (l == 'M' || l == 'T') ? "unknown" : model_name((char)l));
        pw_rnode_uint(o, "events", per_letter[l]);
    }
    pw_rnode *mcvs = pw_rnode_array(root, "per_event_type");
    for (size_t i = 0; i < n; i++) {
        pw_rnode *o = pw_rnode_object(mcvs, NULL);
        char mcv[4] = {(char)(rows[i].key >> 16), (char)(rows[i].key >> 8), (char)rows[i].key, 0};
        pw_rnode_strn(o, "mcv", mcv, 3);
        int32_t s = ovni_schema_of(od, (const uint8_t *)mcv);
        pw_rnode_str(o, "model", od->defs[s] ? od->defs[s]->model : "unknown");
        pw_rnode_uint(o, "events", rows[i].n);
    }
}

static void report_streams(pw_dataset *ds, pw_rnode *root, const uint32_t *locs,
                           const stream_stats *st, size_t n)
{
    pw_rnode *arr = pw_rnode_array(root, "per_stream");
    for (size_t i = 0; i < n; i++) {
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_str(o, "stream", ds->locs[locs[i]].path);
        pw_rnode_uint(o, "events", st[i].events);
        pw_rnode_uint(o, "bytes", st[i].bytes + OVNI_HEADER_SIZE * (uint64_t)st[i].read);
        if (!st[i].events)
            continue;
        uint64_t dur = st[i].last > st[i].first ? st[i].last - st[i].first : 0;
        pw_rnode_uint(o, "first_ns", st[i].first);
        pw_rnode_uint(o, "last_ns", st[i].last);
        pw_rnode_num(o, "duration_s", (double)dur / 1e9);
        pw_rnode_num(o, "events_per_s", dur ? (double)st[i].events * 1e9 / (double)dur : 0.0);
    }
}

/* Totals per ancestor location (loom, process) of the streams. */
static void report_groups(pw_dataset *ds, pw_rnode *root, const uint32_t *locs,
                          const stream_stats *st, size_t n, pw_location_kind kind, const char *key)
{
    pw_rnode *arr = pw_rnode_array(root, key);
    for (size_t g = 0; g < ds->n_locs; g++) {
        if (ds->locs[g].kind != kind)
            continue;
        uint64_t threads = 0, events = 0;
        for (size_t i = 0; i < n; i++) {
            for (int32_t a = ds->locs[locs[i]].parent; a >= 0; a = ds->locs[a].parent) {
                if ((size_t)a == g) {
                    threads++;
                    events += st[i].events;
                    break;
                }
            }
        }
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_str(o, kind == PW_LOC_NODE ? "loom" : "process", ds->locs[g].path);
        pw_rnode_uint(o, "threads", threads);
        pw_rnode_uint(o, "events", events);
    }
}

static void report_summary(pw_dataset *ds, pw_rnode *root, const stream_stats *st, size_t n)
{
    uint64_t events = 0, bytes = 0, jumbo_bytes = 0, first = UINT64_MAX, last = 0;
    uint64_t sizes[OVNI_SIZE_BINS] = {0};
    for (size_t i = 0; i < n; i++) {
        events += st[i].events;
        bytes += st[i].bytes;
        jumbo_bytes += st[i].jumbo_bytes;
        for (int b = 0; b < OVNI_SIZE_BINS; b++)
            sizes[b] += st[i].sizes[b];
        if (st[i].events) {
            first = st[i].first < first ? st[i].first : first;
            last = st[i].last > last ? st[i].last : last;
        }
    }
    pw_rnode *tr = pw_rnode_object(root, "trace");
    pw_rnode_str(tr, "format", "ovni");
    pw_rnode_str(tr, "version", pw_dataset_version(ds));
    pw_rnode_uint(tr, "streams", n);
    pw_rnode_uint(tr, "events", events);
    pw_rnode_uint(tr, "event_bytes", bytes);
    pw_rnode_uint(tr, "jumbo_events", sizes[OVNI_JUMBO_BIN]);
    pw_rnode_uint(tr, "jumbo_bytes", jumbo_bytes);
    if (events) {
        pw_rnode_uint(tr, "first_ns", first);
        pw_rnode_uint(tr, "last_ns", last);
        pw_rnode_num(tr, "span_s", (double)(last - first) / 1e9);
    }
    pw_rnode *hist = pw_rnode_array(root, "payload_sizes");
    for (int b = 0; b < OVNI_SIZE_BINS; b++) {
        if (b == 1 || !sizes[b])
            continue; /* a 1-byte payload cannot be encoded */
        pw_rnode *o = pw_rnode_object(hist, NULL);
        if (b == OVNI_JUMBO_BIN)
            pw_rnode_str(o, "payload", "jumbo");
        else {
            char t[8];
            snprintf(t, sizeof t, "%d", b);
            pw_rnode_str(o, "payload", t);
        }
        pw_rnode_uint(o, "events", sizes[b]);
    }
}

/* The words of one stream's stats in a part, and the part's head. */
#define STREAM_WORDS (6 + OVNI_SIZE_BINS)
#define HEAD_WORDS 5

static uint64_t *put_stream(uint64_t *w, const stream_stats *st)
{
    *w++ = st->events;
    *w++ = st->bytes;
    *w++ = st->jumbo_bytes;
    *w++ = st->first;
    *w++ = st->last;
    *w++ = (uint64_t)st->read;
    for (int b = 0; b < OVNI_SIZE_BINS; b++)
        *w++ = st->sizes[b];
    return w;
}

static void get_stream(pw_part_reader *rd, stream_stats *st)
{
    st->events = pw_part_next(rd);
    st->bytes = pw_part_next(rd);
    st->jumbo_bytes = pw_part_next(rd);
    st->first = pw_part_next(rd);
    st->last = pw_part_next(rd);
    st->read = (int)pw_part_next(rd);
    for (int b = 0; b < OVNI_SIZE_BINS; b++)
        st->sizes[b] = pw_part_next(rd);
}

/* The part: the locations' digest, n, first, end, n_schemas; the streams [first, end); the known
 * events per schema; the unknown MCVs as (key, count) pairs. */
static uint64_t *serialize(const stats_job *j, int workers, size_t n, size_t first, size_t end, size_t *size)
{
    mcv_counts unknown;
    if (!counts_init(&unknown, 1024)) {
        counts_free(&unknown);
        return NULL;
    }
    size_t n_schemas = j->ds->n_schemas;
    uint64_t *per_schema = calloc(n_schemas ? n_schemas : 1, sizeof *per_schema);
    for (int w = 0; per_schema && w < workers; w++) {
        const mcv_counts *mc = &j->workers[w];
        for (uint32_t k = 0; k <= mc->mask; k++)
            if (mc->keys[k])
                counts_add(&unknown, mc->keys[k] - 1, mc->counts[k]);
        for (size_t sc = 0; sc < n_schemas; sc++)
            per_schema[sc] += j->schema_counts[(size_t)w * n_schemas + sc];
    }
    size_t words = HEAD_WORDS + (end - first) * STREAM_WORDS + n_schemas + 1 + 2 * (size_t)unknown.used;
    uint64_t *part = per_schema && !unknown.nomem ? malloc(words * sizeof *part) : NULL;
    if (part) {
        uint64_t *w = part;
        *w++ = pw_ds_locations_digest(j->ds);
        *w++ = n;
        *w++ = first;
        *w++ = end;
        *w++ = n_schemas;
        for (size_t i = first; i < end; i++)
            w = put_stream(w, &j->streams[i - first]);
        for (size_t sc = 0; sc < n_schemas; sc++)
            *w++ = per_schema[sc];
        *w++ = unknown.used;
        for (uint32_t k = 0; k <= unknown.mask; k++)
            if (unknown.keys[k]) {
                *w++ = unknown.keys[k] - 1;
                *w++ = unknown.counts[k];
            }
        *size = words * sizeof *part;
    }
    free(per_schema);
    counts_free(&unknown);
    return part;
}

/* Scans the streams [first, end) of the record locations. */
pw_status ovni_stats_part(pw_dataset *ds, size_t first, size_t end, void **part, size_t *size,
                          pw_error *err)
{
    size_t n;
    uint32_t *locs = pw_ds_record_locations(ds, &n);
    end = end < n ? end : n;
    first = first < end ? first : end;
    int workers = pw_parallel_workers(end - first, ds->threads);
    stats_job j = {ds, locs ? locs + first : NULL, calloc(end - first ? end - first : 1, sizeof *j.streams),
                   calloc((size_t)workers, sizeof *j.workers),
                   calloc((size_t)workers * (ds->n_schemas ? ds->n_schemas : 1), sizeof *j.schema_counts)};
    int ok = locs && j.streams && j.workers && j.schema_counts;
    for (int w = 0; ok && w < workers; w++)
        ok = counts_init(&j.workers[w], 1024);
    if (ok) {
        pw_parallel_for(end - first, workers, stats_stream, &j);
        for (int w = 0; w < workers; w++)
            ok = ok && !j.workers[w].nomem;
    }
    *part = ok ? serialize(&j, workers, n, first, end, size) : NULL;
    for (int w = 0; j.workers && w < workers; w++)
        counts_free(&j.workers[w]);
    free(j.workers);
    free(j.schema_counts);
    free(j.streams);
    if (!*part)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}

/* Adds one part to the joined state; 0 when it does not fit this dataset. */
static int join_part(pw_dataset *ds, const void *bytes, size_t size, size_t n, stream_stats *streams,
                     uint64_t *per_schema, mcv_counts *all)
{
    pw_part_reader rd = pw_part_reader_of(bytes, size);
    if (pw_part_next(&rd) != pw_ds_locations_digest(ds))
        return 0;
    size_t pn = (size_t)pw_part_next(&rd), first = (size_t)pw_part_next(&rd), end = (size_t)pw_part_next(&rd);
    if (pw_part_next(&rd) != ds->n_schemas || pn != n || first > end || end > n)
        return 0;
    for (size_t i = first; i < end && !rd.bad; i++)
        get_stream(&rd, &streams[i]);
    for (size_t sc = 0; sc < ds->n_schemas; sc++)
        per_schema[sc] += pw_part_next(&rd);
    uint64_t pairs = pw_part_next(&rd);
    for (uint64_t k = 0; k < pairs && !rd.bad && !all->nomem; k++) {
        uint32_t key = (uint32_t)pw_part_next(&rd);
        counts_add(all, key, pw_part_next(&rd));
    }
    return !rd.bad;
}

pw_status ovni_stats_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n_parts,
                          pw_report *r, pw_error *err)
{
    size_t n;
    uint32_t *locs = pw_ds_record_locations(ds, &n);
    stream_stats *streams = calloc(n ? n : 1, sizeof *streams);
    uint64_t *per_schema = calloc(ds->n_schemas ? ds->n_schemas : 1, sizeof *per_schema);
    mcv_counts all;
    int ok = counts_init(&all, 1024) && locs && streams && per_schema;
    for (size_t p = 0; ok && p < n_parts; p++)
        if (!join_part(ds, parts[p], sizes[p], n, streams, per_schema, &all)) {
            counts_free(&all);
            free(streams);
            free(per_schema);
            return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET, "stats part %zu does not fit this dataset", p);
        }
    size_t nrows = 0;
    mcv_row *rows = ok ? sorted_rows(ds, &all, per_schema, &nrows) : NULL;
    if (rows) {
        pw_rnode *root = pw_report_root(r);
        report_summary(ds, root, streams, n);
        report_events(ds, root, rows, nrows);
        report_groups(ds, root, locs, streams, n, PW_LOC_NODE, "per_loom");
        report_groups(ds, root, locs, streams, n, PW_LOC_PROCESS, "per_process");
        report_streams(ds, root, locs, streams, n);
    }
    counts_free(&all);
    free(streams);
    free(per_schema);
    free(rows);
    if (!rows)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}
