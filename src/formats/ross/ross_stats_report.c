/* ross_stats_report.c — the ROSS stats accumulators as a report tree:
 * tables render as text, CSV or JSON without ROSS-specific printing. */
#include <math.h>
#include <stdlib.h>

#include "formats/ross/ross_stats.h"

#define ROSS_WORST 10

static const char *const mode_name[ROSS_MODES] = {"gvt", "rt"};
/* The PE time fields (f32 index 1..12), as ROSS names them. */
static const char *const time_name[ROSS_PE_TIMES] = {
    NULL,          "net_read", "net_other", "gvt",      "fossil_collect", "event_abort",
    "event_process", "pq",     "rollback",  "cancel_q", "avl",            "buddy",
    "lz4"};

/* ROSS's efficiency: 100 * (1 - rolled back / net events), 0 when there
 * are no net events (ross-facts.md §3). */
static double efficiency(uint64_t processed, uint64_t rbs)
{
    double net = (double)processed - (double)rbs;
    return net > 0 ? 100.0 * (1.0 - (double)rbs / net) : 0.0;
}

static void counters(pw_rnode *o, uint64_t processed, uint64_t rbs, uint64_t rb_total,
                     uint64_t rb_secondary, uint64_t nsend, uint64_t nread)
{
    pw_rnode_uint(o, "processed", processed);
    pw_rnode_uint(o, "rolled_back", rbs);
    pw_rnode_num(o, "efficiency", efficiency(processed, rbs));
    pw_rnode_uint(o, "rollbacks", rb_total);
    pw_rnode_uint(o, "secondary_rollbacks", rb_secondary);
    pw_rnode_uint(o, "network_sends", nsend);
    pw_rnode_uint(o, "network_receives", nread);
}

static const ross_file *mode_file(const ross_dataset *rd, int mode)
{
    for (int i = 0; i < rd->n_files; i++)
        if ((int)rd->files[i].kind == mode)
            return &rd->files[i];
    return NULL;
}

/* The virtual-time interval of a timeline bin. */
static void bin_range(pw_rnode *o, const ross_file *f, int b)
{
    double span = f->has_ts ? f->ts_max - f->ts_min : 0;
    pw_rnode_num(o, "vt_from", f->has_ts ? f->ts_min + span * b / ROSS_BINS : 0);
    pw_rnode_num(o, "vt_to", f->has_ts ? f->ts_min + span * (b + 1) / ROSS_BINS : 0);
}

/* a / b, or null when b is not a positive quantity (one sample: no span). */
static void ratio(pw_rnode *o, const char *key, double a, double b)
{
    if (b > 0 && isfinite(a / b))
        pw_rnode_num(o, key, a / b);
    else
        pw_rnode_null(o, key);
}

/* The pace of a mode's run: committed events per second of real time and
 * how fast GVT advanced, per GVT round and per real second, over the
 * samples' real time (ROSS's clock: cycles / --clock-rate), never the
 * wall clock of the whole run, which the files do not hold. */
static void pace_columns(pw_rnode *o, const engine_acc *sum)
{
    const ross_pace *p = &sum->pace;
    double real = p->real_last - p->real_first;
    double committed = (double)sum->c[1] - (double)sum->c[3] - (double)p->first_net;
    pw_rnode_num(o, "real_s", real);
    ratio(o, "event_rate", committed, real);
    if (p->has_vt)
        pw_rnode_num(o, "gvt_reached", p->vt_high);
    else
        pw_rnode_null(o, "gvt_reached");
    ratio(o, "vt_per_gvt", p->has_vt ? p->vt_high : NAN, (double)sum->c[10]);
    int from = p->has_vt && isfinite(p->vt_first) && p->vt_first < ROSS_FINAL_TS;
    ratio(o, "vt_rate", from ? p->vt_high - p->vt_first : NAN, p->vt_high_real - p->real_first);
}

/* The first screen, a row per engine mode: ROSS's efficiency, the share
 * of processed events rolled back, the GVT rounds and the run's pace. */
static void summary_row(pw_rnode *arr, int m, const engine_acc *sum)
{
    pw_rnode *o = pw_rnode_object(arr, NULL);
    pw_rnode_str(o, "mode", mode_name[m]);
    pw_rnode_uint(o, "processed", sum->c[1]);
    pw_rnode_num(o, "efficiency", efficiency(sum->c[1], sum->c[3]));
    pw_rnode_num(o, "rolled_back_pct", sum->c[1] ? 100.0 * (double)sum->c[3] / (double)sum->c[1] : 0.0);
    pw_rnode_uint(o, "rollbacks", sum->c[4]);
    pw_rnode_uint(o, "gvts", sum->c[10]);
    pace_columns(o, sum);
}

static void report_pes(const ross_stats_acc *st, pw_rnode *root)
{
    pw_rnode *summary = pw_rnode_array(root, "summary");
    pw_rnode *totals = pw_rnode_array(root, "totals");
    pw_rnode *times = pw_rnode_array(root, "time_breakdown_s");
    pw_rnode *pes = pw_rnode_array(root, "pes");
    pw_rnode *line = pw_rnode_array(root, "pe_timeline");
    for (int m = 0; m < ROSS_MODES; m++) {
        engine_acc sum = {0};
        const ross_file *f = mode_file(st->rd, m);
        for (size_t i = 0; i < st->n_pe; i++) {
            const engine_acc *a = &st->pe[(size_t)m * st->n_pe + i];
            if (!a->samples)
                continue;
            ross_pace_merge(&sum.pace, sum.samples, &a->pace, a->samples, 0);
            sum.samples += a->samples;
            for (int c = 0; c < ROSS_PE_COUNTERS; c++)
                sum.c[c] = c == 7 || c == 10 ? (a->c[c] > sum.c[c] ? a->c[c] : sum.c[c])
                                             : sum.c[c] + a->c[c];
            for (int t = 1; t < ROSS_PE_TIMES; t++)
                sum.t[t] += a->t[t];
            pw_rnode *o = pw_rnode_object(pes, NULL);
            pw_rnode_str(o, "mode", mode_name[m]);
            pw_rnode_int(o, "pe", st->ds->locs[st->pe_loc[i]].id);
            pw_rnode_uint(o, "samples", a->samples);
            counters(o, a->c[1], a->c[3], a->c[4], a->c[5], a->c[8], a->c[9]);
            pw_rnode_uint(o, "gvts", a->c[10]);
            pw_rnode_uint(o, "pq_size_max", a->c[7]);
            pw_rnode_num(o, "event_process_s", a->t[6]);
            pw_rnode_num(o, "rollback_s", a->t[8]);
            pw_rnode_num(o, "gvt_s", a->t[3]);
            pw_rnode_num(o, "fossil_collect_s", a->t[4]);
            for (int b = 0; f && b < ROSS_BINS; b++) {
                const timeline_bin *tb = &st->pe_bins[((size_t)m * st->n_pe + i) * ROSS_BINS + b];
                pw_rnode *l = pw_rnode_object(line, NULL);
                pw_rnode_str(l, "mode", mode_name[m]);
                pw_rnode_int(l, "pe", st->ds->locs[st->pe_loc[i]].id);
                bin_range(l, f, b);
                pw_rnode_uint(l, "samples", tb->samples);
                counters(l, tb->processed, tb->rbs, tb->rb_total, tb->rb_secondary, tb->nsend, tb->nread);
            }
        }
        if (!sum.samples)
            continue;
        summary_row(summary, m, &sum);
        pw_rnode *o = pw_rnode_object(totals, NULL);
        pw_rnode_str(o, "mode", mode_name[m]);
        pw_rnode_uint(o, "pe_samples", sum.samples);
        counters(o, sum.c[1], sum.c[3], sum.c[4], sum.c[5], sum.c[8], sum.c[9]);
        pw_rnode_uint(o, "aborted", sum.c[2]);
        pw_rnode_uint(o, "net_events", sum.c[1] - (sum.c[3] < sum.c[1] ? sum.c[3] : sum.c[1]));
        pw_rnode_uint(o, "gvts", sum.c[10]);
        pw_rnode_uint(o, "fossil_collect_attempts", sum.c[6]);
        pw_rnode_uint(o, "event_ties", sum.c[11]);
        pw_rnode *t = pw_rnode_object(times, NULL);
        pw_rnode_str(t, "mode", mode_name[m]);
        for (int i = 1; i < ROSS_PE_TIMES; i++)
            pw_rnode_num(t, time_name[i], sum.t[i]);
    }
}

static void kp_ids(const ross_stats_acc *st, pw_rnode *o, int m, size_t i)
{
    const pw_location *kp = &st->ds->locs[st->kp_loc[i]];
    pw_rnode_str(o, "mode", mode_name[m]);
    pw_rnode_int(o, "pe", st->ds->locs[kp->parent].id);
    pw_rnode_int(o, "kp", kp->id);
}

static void report_kps(const ross_stats_acc *st, pw_rnode *root)
{
    pw_rnode *kps = pw_rnode_array(root, "kps");
    pw_rnode *line = pw_rnode_array(root, "kp_timeline");
    for (int m = 0; m < ROSS_MODES; m++) {
        const ross_file *f = mode_file(st->rd, m);
        for (size_t i = 0; i < st->n_kp; i++) {
            const engine_acc *a = &st->kp[(size_t)m * st->n_kp + i];
            if (!a->samples)
                continue;
            pw_rnode *o = pw_rnode_object(kps, NULL);
            kp_ids(st, o, m, i);
            pw_rnode_uint(o, "samples", a->samples);
            counters(o, a->c[2], a->c[4], a->c[5], a->c[6], a->c[7], a->c[8]);
            pw_rnode_num(o, "time_ahead_gvt_mean", a->ahead_n ? a->ahead_sum / (double)a->ahead_n : 0);
            pw_rnode_num(o, "time_ahead_gvt_max", a->ahead_max);
            for (int b = 0; f && b < ROSS_BINS; b++) {
                const timeline_bin *tb = &st->kp_bins[((size_t)m * st->n_kp + i) * ROSS_BINS + b];
                pw_rnode *l = pw_rnode_object(line, NULL);
                kp_ids(st, l, m, i);
                bin_range(l, f, b);
                counters(l, tb->processed, tb->rbs, tb->rb_total, tb->rb_secondary, tb->nsend, tb->nread);
            }
        }
    }
}

typedef struct ranked {
    double key;
    int mode;
    size_t kp;
} ranked;

static int by_key_desc(const void *a, const void *b)
{
    double x = ((const ranked *)a)->key, y = ((const ranked *)b)->key;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The ROSS_WORST KPs by rollbacks (ahead = 0) or by time ahead of GVT. */
static void report_worst(const ross_stats_acc *st, pw_rnode *root, const char *name, int ahead)
{
    size_t n = 0;
    ranked *r = malloc((ROSS_MODES * st->n_kp + 1) * sizeof *r);
    if (!r)
        return;
    for (int m = 0; m < ROSS_MODES; m++)
        for (size_t i = 0; i < st->n_kp; i++) {
            const engine_acc *a = &st->kp[(size_t)m * st->n_kp + i];
            if (a->samples && (!ahead || a->ahead_n))
                r[n++] = (ranked){ahead ? a->ahead_max : (double)a->c[5], m, i};
        }
    qsort(r, n, sizeof *r, by_key_desc);
    pw_rnode *arr = pw_rnode_array(root, name);
    for (size_t k = 0; k < n && k < ROSS_WORST; k++) {
        const engine_acc *a = &st->kp[(size_t)r[k].mode * st->n_kp + r[k].kp];
        pw_rnode *o = pw_rnode_object(arr, NULL);
        kp_ids(st, o, r[k].mode, r[k].kp);
        pw_rnode_uint(o, "rollbacks", a->c[5]);
        pw_rnode_uint(o, "rolled_back", a->c[4]);
        pw_rnode_num(o, "efficiency", efficiency(a->c[2], a->c[4]));
        pw_rnode_num(o, "time_ahead_gvt_max", a->ahead_max);
    }
    free(r);
}

static void report_records(const ross_stats_acc *st, pw_rnode *root)
{
    uint64_t total[ROSS_N_RECS] = {0}, stats_type[2] = {0};
    for (size_t s = 0; s < st->rd->n_streams; s++) {
        for (int r = 0; r < ROSS_N_RECS; r++)
            total[r] += st->streams[s].records[r];
        stats_type[0] += st->streams[s].stats_type[0];
        stats_type[1] += st->streams[s].stats_type[1];
    }
    pw_rnode *arr = pw_rnode_array(root, "records");
    for (int r = 0; r < ROSS_N_RECS; r++) {
        if (!total[r])
            continue;
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_str(o, "type", st->ds->schemas[r]->name);
        pw_rnode_uint(o, "records", total[r]);
    }
    if (total[ROSS_REC_MODEL]) {
        pw_rnode *m = pw_rnode_object(root, "model");
        pw_rnode_uint(m, "gvt_samples", stats_type[0]);
        pw_rnode_uint(m, "rt_samples", stats_type[1]);
    }
    if (total[ROSS_REC_VT_PE] + total[ROSS_REC_VT_KP] + total[ROSS_REC_VT_LP])
        pw_rnode_str(pw_rnode_object(root, "notes"), "vt_samples",
                     "virtual-time engine samples repeat once per KP and after rollbacks: "
                     "they are counted, not summed");
}

/* Named model payload fields (--ross-model-schema): min, mean, max. */
static void report_model_fields(const ross_stats_acc *st, pw_rnode *root)
{
    const ross_payload_schema *ps = &st->rd->model_schema;
    if (!ps->n_fields)
        return;
    pw_rnode *arr = pw_rnode_array(root, "model_fields");
    for (int vt = 0; vt < 2; vt++)
        for (size_t f = 0; f < ps->n_fields; f++) {
            field_acc sum = {0};
            for (size_t s = 0; s < st->rd->n_streams; s++) {
                const field_acc *a = &st->streams[s].fields[(size_t)vt * ps->n_fields + f];
                if (!a->n)
                    continue;
                if (!sum.n || a->min < sum.min)
                    sum.min = a->min;
                if (!sum.n || a->max > sum.max)
                    sum.max = a->max;
                sum.sum += a->sum;
                sum.n += a->n;
            }
            if (!sum.n)
                continue;
            pw_rnode *o = pw_rnode_object(arr, NULL);
            pw_rnode_str(o, "type", vt ? "vt-model" : "model");
            pw_rnode_str(o, "field", ps->fields[f].name);
            pw_rnode_uint(o, "samples", sum.n);
            pw_rnode_num(o, "min", sum.min);
            pw_rnode_num(o, "mean", sum.sum / (double)sum.n);
            pw_rnode_num(o, "max", sum.max);
        }
}

static void report_events(const ross_stats_acc *st, pw_rnode *root)
{
    const event_acc *ev = &st->ev;
    if (!ev->n)
        return;
    pw_rnode *o = pw_rnode_object(root, "evtrace");
    pw_rnode_uint(o, "events", ev->n);
    pw_rnode_uint(o, "to_self", ev->to_self);
    pw_rnode_uint(o, "to_other_lp", ev->to_other_lp);
    if (ev->same_pe + ev->cross_pe) {
        pw_rnode_uint(o, "same_pe", ev->same_pe);
        pw_rnode_uint(o, "cross_pe", ev->cross_pe);
    }
    pw_rnode_uint(o, "payload_bytes", ev->payload_bytes);
    pw_rnode *sizes = pw_rnode_array(o, "payload_sizes");
    for (size_t i = 0; i < ev->n_sizes; i++)
        pw_rnode_uint(sizes, NULL, ev->sizes[i]);
    uint64_t lps = 0, max = 0, min = UINT64_MAX;
    for (size_t i = 0; i < ev->lp_cap; i++)
        if (ev->per_lp[i]) {
            lps++;
            max = ev->per_lp[i] > max ? ev->per_lp[i] : max;
            min = ev->per_lp[i] < min ? ev->per_lp[i] : min;
        }
    pw_rnode_uint(o, "destination_lps", lps);
    pw_rnode_uint(o, "events_per_lp_min", lps ? min : 0);
    pw_rnode_num(o, "events_per_lp_mean", lps ? (double)(ev->n - ev->lp_beyond) / (double)lps : 0);
    pw_rnode_uint(o, "events_per_lp_max", max);
    pw_rnode_num(o, "distance_min", ev->d_min);
    pw_rnode_num(o, "distance_mean", ev->d_sum / (double)ev->n);
    pw_rnode_num(o, "distance_max", ev->d_max);
    pw_rnode_uint(o, "negative_distance", ev->negative);
    pw_rnode *hist = pw_rnode_array(root, "evtrace_distance");
    for (int b = 0; b < ROSS_DIST_BINS; b++) {
        if (!ev->dist[b])
            continue;
        pw_rnode *h = pw_rnode_object(hist, NULL);
        pw_rnode_num(h, "from", b == 0 ? 0 : b == 1 ? 0 : ldexp(1, b - 1 + ROSS_DIST_MIN_EXP));
        if (b == ROSS_DIST_BINS - 1)
            pw_rnode_null(h, "below");
        else
            pw_rnode_num(h, "below", b == 0 ? 0 : ldexp(1, b + ROSS_DIST_MIN_EXP));
        pw_rnode_uint(h, "events", ev->dist[b]);
    }
}

#define ROSS_COUNTS {"*", "count", 0}
#define ROSS_EFFICIENCY {"efficiency", "%", 0}

static const pw_table_decl summary = {
    "summary", "ROSS at a glance",
    "per engine mode: events processed, efficiency (ROSS's: 100 (1 - rolled back / net events)), share rolled back, "
    "rollbacks, GVT rounds; over the samples' real time, committed events per second and GVT's progress per round "
    "and per second",
    "mode",
    {{"mode", "", 1}, {"processed", "count", 0}, ROSS_EFFICIENCY, {"rolled_back_pct", "%", 0}, {"rollbacks", "count", 0},
     {"gvts", "count", 0}, {"real_s", "s", 0}, {"event_rate", "1/s", 0}, {"gvt_reached", "vt", 0},
     {"vt_per_gvt", "vt", 0}, {"vt_rate", "vt/s", 0}}};
static const pw_table_decl records = {"records", "records", "records per ROSS instrumentation type", "type",
                                      {{"type", "", 1}, {"records", "count", 0}}};
static const pw_table_decl model = {"model", "model samples", "model-level samples per sampling mode", "one row",
                                    {{"gvt_samples", "count", 0}, {"rt_samples", "count", 0}}};
static const pw_table_decl notes = {"notes", "notes", "how to read the figures of this run", "one row",
                                    {{"vt_samples", "", 0}}};
static const pw_table_decl totals = {
    "totals", "totals", "events processed and rolled back, ROSS's efficiency, rollbacks and messages per mode",
    "mode", {{"mode", "", 1}, ROSS_EFFICIENCY, ROSS_COUNTS}};
static const pw_table_decl time_breakdown = {
    "time_breakdown_s", "time breakdown", "seconds spent per engine activity (from the cycle counters)", "mode",
    {{"mode", "", 1}, {"*", "s", 0}}};
static const pw_table_decl pes = {"pes", "processing elements", "per PE: events, rollbacks, efficiency, time",
                                  "mode, then PE", {{"mode", "", 1}, {"pe", "", 1}, ROSS_EFFICIENCY, ROSS_COUNTS}};
static const pw_table_decl pe_timeline = {
    "pe_timeline", "PE timeline", "per PE and virtual-time interval: events, rollbacks, efficiency",
    "mode, PE, then virtual time",
    {{"mode", "", 1}, {"pe", "", 1}, {"vt_from", "vt", 1}, {"vt_to", "vt", 0}, ROSS_EFFICIENCY, ROSS_COUNTS}};
static const pw_table_decl kps = {
    "kps", "kernel processes", "per KP: events, rollbacks, efficiency, time ahead of GVT", "mode, PE, then KP",
    {{"mode", "", 1}, {"pe", "", 1}, {"kp", "", 1}, ROSS_EFFICIENCY, {"time_ahead_gvt_mean", "vt", 0},
     {"time_ahead_gvt_max", "vt", 0}, ROSS_COUNTS}};
static const pw_table_decl kp_timeline = {
    "kp_timeline", "KP timeline", "per KP and virtual-time interval: events, rollbacks, efficiency",
    "mode, PE, KP, then virtual time",
    {{"mode", "", 1}, {"pe", "", 1}, {"kp", "", 1}, {"vt_from", "vt", 1}, {"vt_to", "vt", 0}, ROSS_EFFICIENCY,
     ROSS_COUNTS}};
static const pw_table_decl worst_rollbacks = {
    "worst_kps_by_rollbacks", "KPs rolling back most", "the KPs with the most rollbacks", "rollbacks, most first",
    {{"mode", "", 1}, {"pe", "", 1}, {"kp", "", 1}, ROSS_EFFICIENCY, {"time_ahead_gvt_max", "vt", 0}, ROSS_COUNTS}};
static const pw_table_decl worst_ahead = {
    "worst_kps_by_time_ahead_gvt", "KPs furthest ahead of GVT", "the KPs whose virtual time ran furthest ahead of GVT",
    "time ahead, largest first",
    {{"mode", "", 1}, {"pe", "", 1}, {"kp", "", 1}, ROSS_EFFICIENCY, {"time_ahead_gvt_max", "vt", 0}, ROSS_COUNTS}};
static const pw_table_decl model_fields = {
    "model_fields", "model payload fields", "min, mean and max of the named model payload fields",
    "type, then field",
    {{"type", "", 1}, {"field", "", 1}, {"samples", "count", 0}, {"min", "", 0}, {"mean", "", 0}, {"max", "", 0}}};
static const pw_table_decl evtrace = {
    "evtrace", "event trace", "events by destination and the virtual-time distance from send to receive",
    "one row",
    {{"payload_bytes", "B", 0}, {"events_per_lp_mean", "count", 0}, {"distance_min", "vt", 0},
     {"distance_mean", "vt", 0}, {"distance_max", "vt", 0}, ROSS_COUNTS}};
static const pw_table_decl evtrace_distance = {
    "evtrace_distance", "send-receive distances", "events per virtual-time distance class", "distance",
    {{"from", "vt", 1}, {"below", "vt", 1}, {"events", "count", 0}}};

const pw_table_decl *const ross_table_decls[] = {
    &summary, &records, &model,           &notes,       &totals,          &time_breakdown, &pes,          &pe_timeline,
    &kps,     &kp_timeline,     &worst_rollbacks, &worst_ahead, &model_fields,   &evtrace,      &evtrace_distance,
    NULL};

pw_status ross_stats_report(const ross_stats_acc *st, pw_report *r, pw_error *err)
{
    (void)err;
    pw_rnode *root = pw_report_root(r);
    report_records(st, root);
    report_pes(st, root);
    report_kps(st, root);
    report_worst(st, root, "worst_kps_by_rollbacks", 0);
    report_worst(st, root, "worst_kps_by_time_ahead_gvt", 1);
    report_model_fields(st, root);
    report_events(st, root);
    return PW_OK;
}
