/* ross_stats_parts.c — ROSS stats by several processes (pw_stats_part /
 * pw_stats_join).  A part reads the streams of its share and carries the
 * accumulators they fed, whole (doubles as their bits).  Every
 * accumulator is fed by one stream only (a PE or KP by its own stream per
 * mode, a model field by its stream, the event summary by the event
 * trace), so the join adds each to zeros: nothing is regrouped, and the
 * report is the serial one.  The serial stats are one part over every
 * stream, joined. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "formats/ross/ross_stats.h"
#include "model/part.h"

/* The streams of the share [first, end) of the record locations; streams
 * of locations without records go to the share that starts at 0. */
static uint32_t *share_streams(pw_dataset *ds, const ross_dataset *rd, size_t first, size_t end, size_t *count)
{
    size_t n;
    uint32_t *locs = pw_ds_record_locations(ds, &n);
    uint32_t *list = malloc((rd->n_streams ? rd->n_streams : 1) * sizeof *list);
    *count = 0;
    if (!locs || !list) {
        free(list);
        return NULL;
    }
    end = end < n ? end : n;
    for (size_t i = first; i < end; i++)
        if (rd->stream_of_loc[locs[i]] >= 0)
            list[(*count)++] = (uint32_t)rd->stream_of_loc[locs[i]];
    for (size_t s = 0; first == 0 && s < rd->n_streams; s++)
        if (!ds->locs[rd->streams[s].loc].has_records)
            list[(*count)++] = (uint32_t)s;
    return list;
}

/* The engine accumulators that samples fed, with their timeline bins:
 * count, then (index, accumulator, bins) each. */
static void put_engines(pw_part_writer *w, const engine_acc *acc, const timeline_bin *bins, size_t n)
{
    size_t used = 0;
    for (size_t i = 0; i < n; i++)
        used += acc[i].samples > 0;
    pw_part_put_word(w, used);
    for (size_t i = 0; i < n; i++)
        if (acc[i].samples) {
            pw_part_put_word(w, i);
            pw_part_put(w, &acc[i], sizeof acc[i]);
            pw_part_put(w, &bins[i * ROSS_BINS], ROSS_BINS * sizeof *bins);
        }
}

/* The event summary: its scalars, payload sizes and events per LP (two
 * counts a word). */
static void put_events(pw_part_writer *w, const event_acc *ev)
{
    pw_part_put(w, ev, offsetof(event_acc, per_lp));
    pw_part_put_word(w, ev->lp_beyond);
    pw_part_put_word(w, ev->n_sizes);
    pw_part_put_word(w, (uint64_t)ev->nomem);
    pw_part_put(w, ev->sizes, sizeof ev->sizes);
    size_t lps = ev->lp_cap;
    while (lps && !ev->per_lp[lps - 1])
        lps--;
    pw_part_put_word(w, lps);
    for (size_t i = 0; i < lps; i += 2)
        pw_part_put_word(w, ev->per_lp[i] | (i + 1 < lps ? (uint64_t)ev->per_lp[i + 1] << 32 : 0));
}

static void serialize(pw_part_writer *w, const ross_stats_acc *st, const uint32_t *streams, size_t count)
{
    size_t nf = st->rd->model_schema.n_fields;
    pw_part_put_word(w, pw_ds_locations_digest(st->ds));
    pw_part_put_word(w, st->n_pe);
    pw_part_put_word(w, st->n_kp);
    pw_part_put_word(w, st->rd->n_streams);
    pw_part_put_word(w, nf);
    put_engines(w, st->pe, st->pe_bins, ROSS_MODES * st->n_pe);
    put_engines(w, st->kp, st->kp_bins, ROSS_MODES * st->n_kp);
    pw_part_put_word(w, count);
    for (size_t k = 0; k < count; k++) {
        const stream_acc *sa = &st->streams[streams[k]];
        pw_part_put_word(w, streams[k]);
        pw_part_put(w, sa->records, sizeof sa->records);
        pw_part_put(w, sa->stats_type, sizeof sa->stats_type);
        if (nf)
            pw_part_put(w, sa->fields, 2 * nf * sizeof *sa->fields);
    }
    pw_part_put_word(w, st->ev.n > 0 || st->ev.nomem);
    if (st->ev.n > 0 || st->ev.nomem)
        put_events(w, &st->ev);
}

pw_status ross_stats_part(pw_dataset *ds, size_t first, size_t end, void **part, size_t *size, pw_error *err)
{
    ross_stats_acc st;
    pw_status rc = ross_stats_init(&st, ds, err);
    size_t count = 0;
    uint32_t *streams = rc == PW_OK ? share_streams(ds, st.rd, first, end, &count) : NULL;
    pw_part_writer w = {0};
    if (streams) {
        ross_stats_scan(&st, streams, count);
        serialize(&w, &st, streams, count);
    } else {
        w.nomem = 1; /* no streams: out of memory, unless rc says why */
    }
    ross_stats_free(&st);
    free(streams);
    return pw_part_finish(&w, rc, ds->path, part, size, err);
}

/* Adds a part's engine accumulator to the joined one (zeros unless two
 * streams fed it); pe tells a PE's counters (two of them absolute: the
 * maximum is kept) from a KP's. */
static void add_engine(engine_acc *to, const engine_acc *from, int pe)
{
    if (pe)
        ross_pace_merge(&to->pace, to->samples, &from->pace, from->samples, 1);
    to->samples += from->samples;
    for (int c = 0; c < ROSS_PE_COUNTERS; c++)
        if (pe && (c == PE_PQ_QSIZE || c == PE_NGVTS))
            to->c[c] = from->c[c] > to->c[c] ? from->c[c] : to->c[c];
        else
            to->c[c] += from->c[c];
    for (int t = 0; t < ROSS_PE_TIMES; t++)
        to->t[t] += from->t[t];
    if (from->ahead_n && (!to->ahead_n || from->ahead_max > to->ahead_max))
        to->ahead_max = from->ahead_max;
    to->ahead_sum += from->ahead_sum;
    to->ahead_n += from->ahead_n;
}

static void get_engines(pw_part_reader *rd, engine_acc *acc, timeline_bin *bins, size_t n, int pe)
{
    uint64_t used = pw_part_next(rd);
    for (uint64_t k = 0; k < used && !rd->bad; k++) {
        uint64_t i = pw_part_next(rd);
        engine_acc a;
        timeline_bin b[ROSS_BINS];
        pw_part_take(rd, &a, sizeof a);
        pw_part_take(rd, b, sizeof b);
        if (i >= n) {
            rd->bad = 1;
            return;
        }
        add_engine(&acc[i], &a, pe);
        for (int j = 0; j < ROSS_BINS; j++) {
            timeline_bin *to = &bins[i * ROSS_BINS + (size_t)j];
            to->samples += b[j].samples;
            to->processed += b[j].processed;
            to->rbs += b[j].rbs;
            to->rb_total += b[j].rb_total;
            to->rb_secondary += b[j].rb_secondary;
            to->nsend += b[j].nsend;
            to->nread += b[j].nread;
        }
    }
}

static void get_events(pw_part_reader *rd, event_acc *ev)
{
    pw_part_take(rd, ev, offsetof(event_acc, per_lp));
    ev->lp_beyond = pw_part_next(rd);
    ev->n_sizes = (size_t)pw_part_next(rd);
    ev->nomem = (int)pw_part_next(rd);
    pw_part_take(rd, ev->sizes, sizeof ev->sizes);
    uint64_t lps = pw_part_next(rd);
    if (ev->n_sizes > ROSS_PAYLOAD_SIZES || lps > ROSS_MAX_LP_COUNTS || (lps + 1) / 2 > rd->n - rd->pos) {
        rd->bad = 1;
        return;
    }
    free(ev->per_lp);
    ev->per_lp = calloc(lps ? lps : 1, sizeof *ev->per_lp);
    ev->lp_cap = ev->per_lp ? lps : 0;
    ev->nomem |= !ev->per_lp;
    for (size_t i = 0; i < lps; i += 2) {
        uint64_t two = pw_part_next(rd);
        if (ev->per_lp) {
            ev->per_lp[i] = (uint32_t)two;
            if (i + 1 < lps)
                ev->per_lp[i + 1] = (uint32_t)(two >> 32);
        }
    }
}

/* Adds one part to the joined accumulators; 0 when it does not fit. */
static int join_part(ross_stats_acc *st, const void *bytes, size_t size)
{
    pw_part_reader rd = pw_part_reader_of(bytes, size);
    size_t nf = st->rd->model_schema.n_fields;
    if (pw_part_next(&rd) != pw_ds_locations_digest(st->ds) || pw_part_next(&rd) != st->n_pe ||
        pw_part_next(&rd) != st->n_kp || pw_part_next(&rd) != st->rd->n_streams || pw_part_next(&rd) != nf)
        return 0;
    get_engines(&rd, st->pe, st->pe_bins, ROSS_MODES * st->n_pe, 1);
    get_engines(&rd, st->kp, st->kp_bins, ROSS_MODES * st->n_kp, 0);
    uint64_t count = pw_part_next(&rd);
    for (uint64_t k = 0; k < count && !rd.bad; k++) {
        uint64_t s = pw_part_next(&rd);
        if (s >= st->rd->n_streams)
            return 0;
        stream_acc *sa = &st->streams[s];
        pw_part_take(&rd, sa->records, sizeof sa->records);
        pw_part_take(&rd, sa->stats_type, sizeof sa->stats_type);
        if (nf)
            pw_part_take(&rd, sa->fields, 2 * nf * sizeof *sa->fields);
    }
    if (pw_part_next(&rd))
        get_events(&rd, &st->ev);
    return !rd.bad;
}

pw_status ross_stats_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n,
                          pw_report *r, pw_error *err)
{
    ross_stats_acc st;
    pw_status rc = ross_stats_init(&st, ds, err);
    for (size_t p = 0; rc == PW_OK && p < n; p++)
        if (!join_part(&st, parts[p], sizes[p]))
            rc = pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET, "stats part %zu does not fit this dataset", p);
    if (rc == PW_OK)
        rc = ross_stats_report(&st, r, err);
    ross_stats_free(&st);
    return rc;
}
