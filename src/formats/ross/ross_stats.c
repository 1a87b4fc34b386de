/* ross_stats.c — how the optimistic simulation behaved: per PE and KP over
 * virtual time (events processed and rolled back, efficiency, rollbacks,
 * network traffic, GVTs, where the time went), whole-run totals, the worst
 * KPs, model sample counts and an event-trace summary.
 *
 * Streams are read in parallel, one worker per (file, PE) stream; each PE
 * and KP is fed by one stream per mode only, so accumulators need no lock.
 * Record bytes are decoded directly (no generic field values).  GVT and RT
 * counters are deltas since the previous sample (ross-facts.md §3), so sums
 * are run totals; pq_qsize and ngvts are absolute.  Virtual-time engine samples repeat once per KP and after
 * rollbacks (§6): they are counted, not summed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/parallel.h"
#include "formats/ross/ross_stats.h"
#include "model/filter.h"

/* KP sample body counters, after peid and kpid. */
enum { KP_PROCESSED = 2, KP_ABORT, KP_RBS, KP_RB_TOTAL, KP_RB_SECONDARY, KP_NSEND, KP_NREAD };

static int bin_of(const ross_file *f, double ts)
{
    if (!f->has_ts || ts >= f->ts_max || !(ts == ts))
        return ROSS_BINS - 1;
    double span = f->ts_max - f->ts_min;
    int b = span > 0 ? (int)((ts - f->ts_min) / span * ROSS_BINS) : 0;
    return b < 0 ? 0 : b >= ROSS_BINS ? ROSS_BINS - 1 : b;
}

/* Adds a sample's counters (u32 fields at the given indexes of body b) to
 * its timeline interval. */
static void add_to_bin(timeline_bin *tb, const uint8_t *b, int processed, int rbs, int rb_total,
                       int rb_secondary, int nsend, int nread)
{
    tb->samples++;
    tb->processed += pw_le32(b + 4 * processed);
    tb->rbs += pw_le32(b + 4 * rbs);
    tb->rb_total += pw_le32(b + 4 * rb_total);
    tb->rb_secondary += pw_le32(b + 4 * rb_secondary);
    tb->nsend += pw_le32(b + 4 * nsend);
    tb->nread += pw_le32(b + 4 * nread);
}

/* A PE sample's real time and GVT into its pace (a PE's samples come in
 * its stream's order, but the earliest is found by its clock). */
static void add_pace(ross_pace *p, int first, const ross_hdr *h, int64_t net)
{
    double real = pw_lef64(h->p + 16);
    if (first || real < p->real_first) {
        p->real_first = real;
        p->first_net = net;
        p->vt_first = h->ts;
    }
    if (first || real > p->real_last)
        p->real_last = real;
    if (h->ts >= ROSS_FINAL_TS || !isfinite(h->ts))
        return;
    if (!p->has_vt || h->ts > p->vt_high || (h->ts == p->vt_high && real < p->vt_high_real)) {
        p->vt_high = h->ts;
        p->vt_high_real = real;
    }
    p->has_vt = 1;
}

void ross_pace_merge(ross_pace *to, uint64_t to_samples, const ross_pace *from, uint64_t from_samples, int per_pe)
{
    if (!from_samples)
        return;
    ross_pace p = *from;
    if (to_samples) {
        int earlier = to->real_first <= from->real_first;
        p.real_first = earlier ? to->real_first : from->real_first;
        p.vt_first = earlier ? to->vt_first : from->vt_first;
        p.first_net = per_pe ? (earlier ? to->first_net : from->first_net) : to->first_net + from->first_net;
        p.real_last = to->real_last > from->real_last ? to->real_last : from->real_last;
        int higher = to->has_vt && (!from->has_vt || to->vt_high > from->vt_high ||
                                    (to->vt_high == from->vt_high && to->vt_high_real <= from->vt_high_real));
        p.vt_high = higher ? to->vt_high : from->vt_high;
        p.vt_high_real = higher ? to->vt_high_real : from->vt_high_real;
        p.has_vt = to->has_vt || from->has_vt;
    }
    *to = p;
}

static void add_pe(ross_stats_acc *st, int mode, const ross_file *f, const ross_hdr *h, int32_t loc)
{
    if (loc < 0)
        return;
    int32_t i = st->pe_index[loc];
    engine_acc *a = &st->pe[(size_t)mode * st->n_pe + (size_t)i];
    const uint8_t *b = h->p + ROSS_SAMPLE_HDR;
    add_pace(&a->pace, a->samples == 0, h, (int64_t)pw_le32(b + 4 * PE_PROCESSED) - (int64_t)pw_le32(b + 4 * PE_RBS));
    a->samples++;
    /* pq_qsize and ngvts are absolute (not deltas): keep their maximum. */
    for (int c = PE_PROCESSED; c < ROSS_PE_COUNTERS; c++) {
        uint32_t v = pw_le32(b + 4 * c);
        if (c == PE_PQ_QSIZE || c == PE_NGVTS)
            a->c[c] = v > a->c[c] ? v : a->c[c];
        else
            a->c[c] += v;
    }
    for (int t = 1; t < ROSS_PE_TIMES; t++)
        a->t[t] += (double)pw_lef32(b + 52 + 4 * t);
    add_to_bin(&st->pe_bins[((size_t)mode * st->n_pe + (size_t)i) * ROSS_BINS + bin_of(f, h->ts)], b,
               PE_PROCESSED, PE_RBS, PE_RB_TOTAL, PE_RB_SECONDARY, PE_NSEND, PE_NREAD);
}

static void add_kp(ross_stats_acc *st, int mode, const ross_file *f, const ross_hdr *h, int32_t loc)
{
    int32_t i = st->kp_index[loc];
    engine_acc *a = &st->kp[(size_t)mode * st->n_kp + (size_t)i];
    const uint8_t *b = h->p + ROSS_SAMPLE_HDR;
    a->samples++;
    for (int c = KP_PROCESSED; c <= KP_NREAD; c++)
        a->c[c] += pw_le32(b + 4 * c);
    double ahead = (double)pw_lef32(b + 36);
    if (isfinite(ahead)) {
        a->ahead_sum += ahead;
        a->ahead_n++;
        if (a->ahead_n == 1 || ahead > a->ahead_max)
            a->ahead_max = ahead;
    }
    add_to_bin(&st->kp_bins[((size_t)mode * st->n_kp + (size_t)i) * ROSS_BINS + bin_of(f, h->ts)], b,
               KP_PROCESSED, KP_RBS, KP_RB_TOTAL, KP_RB_SECONDARY, KP_NSEND, KP_NREAD);
}

/* The named payload fields of a model or VT model sample. */
static void add_model_fields(const ross_dataset *rd, stream_acc *sa, const ross_hdr *h)
{
    const ross_payload_schema *ps = &rd->model_schema;
    if (!sa->fields || h->payload_len != ps->size)
        return;
    pw_value v[ROSS_SCHEMA_MAX_FIELDS];
    ross_payload_decode(ps, h->p + h->payload_off, v);
    field_acc *acc = sa->fields + (h->rec == ROSS_REC_VT_MODEL ? ps->n_fields : 0);
    for (size_t i = 0; i < ps->n_fields; i++) {
        double x = ps->fields[i].type == PW_T_F64   ? v[i].v.f
                   : ps->fields[i].type == PW_T_I64 ? (double)v[i].v.i
                                                    : (double)v[i].v.u;
        field_acc *a = &acc[i];
        if (!a->n || x < a->min)
            a->min = x;
        if (!a->n || x > a->max)
            a->max = x;
        a->sum += x;
        a->n++;
    }
}

static void add_record(ross_stats_acc *st, stream_acc *sa, ross_stream *s)
{
    const ross_hdr *h = &s->h;
    int mode = s->file->kind;
    sa->records[h->rec]++;
    switch (h->rec) {
    case ROSS_REC_PE: add_pe(st, mode, s->file, h, ross_record_location(s)); break;
    case ROSS_REC_KP: {
        int32_t loc = ross_record_location(s);
        if (loc >= 0)
            add_kp(st, mode, s->file, h, loc);
        break;
    }
    case ROSS_REC_MODEL:
        sa->stats_type[pw_le32(h->p + 40) == 1 ? 0 : 1]++;
        add_model_fields(st->rd, sa, h);
        break;
    case ROSS_REC_VT_MODEL: add_model_fields(st->rd, sa, h); break;
    case ROSS_REC_EVTRACE: ross_stats_add_event(st, h); break;
    default: break;
    }
}

/* Numbers the PE and KP locations, so accumulators are dense arrays. */
static pw_status number_locations(ross_stats_acc *st, pw_error *err)
{
    pw_dataset *ds = st->ds;
    size_t n = ds->n_locs ? ds->n_locs : 1;
    st->pe_index = malloc(n * sizeof *st->pe_index);
    st->kp_index = malloc(n * sizeof *st->kp_index);
    st->pe_loc = malloc(n * sizeof *st->pe_loc);
    st->kp_loc = malloc(n * sizeof *st->kp_loc);
    if (!st->pe_index || !st->kp_index || !st->pe_loc || !st->kp_loc)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < ds->n_locs; i++) {
        st->pe_index[i] = st->kp_index[i] = -1;
        if (ds->locs[i].kind == PW_LOC_PE) {
            st->pe_loc[st->n_pe] = (int32_t)i;
            st->pe_index[i] = (int32_t)st->n_pe++;
        } else if (ds->locs[i].kind == PW_LOC_KP) {
            st->kp_loc[st->n_kp] = (int32_t)i;
            st->kp_index[i] = (int32_t)st->n_kp++;
        }
    }
    return PW_OK;
}

/* LP id -> PE id from the LP locations, to tell cross-PE events apart. */
static pw_status map_lps_to_pes(ross_stats_acc *st, pw_error *err)
{
    const pw_dataset *ds = st->ds;
    for (size_t i = 0; i < ds->n_locs; i++)
        if (ds->locs[i].kind == PW_LOC_LP && (uint64_t)ds->locs[i].id < ROSS_MAX_LP_COUNTS &&
            (size_t)ds->locs[i].id >= st->n_lp_pe)
            st->n_lp_pe = (size_t)ds->locs[i].id + 1;
    if (!st->n_lp_pe)
        return PW_OK;
    st->lp_pe = malloc(st->n_lp_pe * sizeof *st->lp_pe);
    if (!st->lp_pe)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < st->n_lp_pe; i++)
        st->lp_pe[i] = -1;
    for (size_t i = 0; i < ds->n_locs; i++) {
        const pw_location *l = &ds->locs[i];
        if (l->kind == PW_LOC_LP && (uint64_t)l->id < st->n_lp_pe)
            st->lp_pe[l->id] = ds->locs[ds->locs[l->parent].parent].id;
    }
    return PW_OK;
}

pw_status ross_stats_init(ross_stats_acc *st, pw_dataset *ds, pw_error *err)
{
    memset(st, 0, sizeof *st);
    st->ds = ds;
    st->rd = ds->impl;
    pw_status rc = number_locations(st, err);
    if (rc == PW_OK)
        rc = map_lps_to_pes(st, err);
    if (rc != PW_OK)
        return rc;
    size_t pes = ROSS_MODES * (st->n_pe ? st->n_pe : 1), kps = ROSS_MODES * (st->n_kp ? st->n_kp : 1);
    st->pe = calloc(pes, sizeof *st->pe);
    st->kp = calloc(kps, sizeof *st->kp);
    st->pe_bins = calloc(pes * ROSS_BINS, sizeof *st->pe_bins);
    st->kp_bins = calloc(kps * ROSS_BINS, sizeof *st->kp_bins);
    st->streams = calloc(st->rd->n_streams ? st->rd->n_streams : 1, sizeof *st->streams);
    if (!st->pe || !st->kp || !st->pe_bins || !st->kp_bins || !st->streams)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    size_t nf = st->rd->model_schema.n_fields;
    for (size_t i = 0; nf && i < st->rd->n_streams; i++)
        if (!(st->streams[i].fields = calloc(2 * nf, sizeof(field_acc))))
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}

void ross_stats_free(ross_stats_acc *st)
{
    free(st->pe_index);
    free(st->kp_index);
    free(st->pe_loc);
    free(st->kp_loc);
    free(st->pe);
    free(st->kp);
    free(st->pe_bins);
    free(st->kp_bins);
    for (size_t i = 0; st->streams && i < st->rd->n_streams; i++)
        free(st->streams[i].fields);
    free(st->streams);
    free(st->lp_pe);
    free(st->ev.per_lp);
}

/* The streams one pass reads, by index into ross_dataset.streams. */
typedef struct scan_job {
    ross_stats_acc *st;
    const uint32_t *streams;
} scan_job;

/* Is the stream's record in the report selection (model/filter.h)?  Every
 * table is made of the samples the selection keeps; the final RT sample
 * (finalize, after every virtual time) only in a window with no end. */
static int selected(const ross_stats_acc *st, ross_stream *s)
{
    const ross_hdr *h = &s->h;
    int32_t loc = ross_record_location(s);
    pw_record rec = {0};
    rec.location = (uint32_t)(loc >= 0 ? loc : s->def->loc);
    rec.schema = (uint32_t)h->rec;
    rec.type = st->ds->schemas[h->rec]->name;
    rec.kind = st->ds->schemas[h->rec]->kind;
    rec.clock = PW_CLOCK_VIRTUAL;
    rec.vt = h->ts >= ROSS_FINAL_TS ? INFINITY : h->ts;
    return pw_filter_keeps_record(st->ds, &rec);
}

static void stats_stream(void *ctx, size_t item, int worker)
{
    (void)worker;
    scan_job *job = ctx;
    ross_stats_acc *st = job->st;
    size_t si = job->streams[item];
    stream_acc *sa = &st->streams[si];
    ross_stream s;
    pw_error e;
    if (ross_stream_init(st->ds, &s, (uint32_t)st->rd->streams[si].loc, PW_WINDOW_DEFAULT_CAP, &e) != PW_OK) {
        pw_ds_diag_error(st->ds, PW_SEV_ERROR, "ross.unreadable", &e);
        ross_stream_close(&s);
        return;
    }
    const char *code = NULL;
    pw_status rc;
    while ((rc = ross_stream_step(&s, &code, &e)) == PW_OK)
        if (!st->ds->filter || selected(st, &s))
            add_record(st, sa, &s);
    if (rc != PW_END)
        pw_ds_diag_error(st->ds, PW_SEV_ERROR, code ? code : "ross.unreadable", &e);
    ross_stream_close(&s);
}

void ross_stats_scan(ross_stats_acc *st, const uint32_t *streams, size_t n)
{
    scan_job job = {st, streams};
    pw_parallel_for(n, st->ds->threads, stats_stream, &job);
}
