/* energy_part.c — the energy tables split over the shares of the
 * locations (analysis.h: part/join).  A repetition belongs to the share
 * that owns its window marks' location (else its first stream's): that
 * process reads it whole, as the serial report would, and its part holds
 * the repetition's figures before any idle power is subtracted (doubles as
 * their bits) with its phases.  The join then does what the serial report
 * does after reading: idle power from the baseline repetitions, each other
 * repetition's subtraction and row in layout order, the runs, benchmarks
 * and baselines.  Every floating-point figure is computed by the same code
 * on the same values in the same order, so the bytes are the serial ones.
 *
 * Words: the number of repetitions and of sources, then per repetition of
 * the share its index, ok, begin, end, duration, per source has and
 * energy, peak power, the number of phases, and per phase its kind (index
 * into the layout's phase kinds), index, begin, end and energy per source. */
#include <stdlib.h>
#include <string.h>

#include "analysis/energy/energy.h"
#include "model/part.h"

static uint64_t bits_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static double double_of(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* The location that decides which share reads repetition u, or -1. */
static int32_t deciding_location(const pw_energy_unit *u)
{
    if (u->phases_loc >= 0)
        return u->phases_loc;
    for (size_t k = 0; k < u->n_streams; k++)
        if (u->streams[k].first_loc >= 0)
            return u->streams[k].first_loc;
    return -1;
}

/* The repetitions this share reads (owned NULL: every one), in order. */
static size_t owned_units(const pw_dataset *ds, const uint8_t *owned, size_t *items)
{
    size_t n = 0;
    for (size_t i = 0; i < ds->energy->n_units; i++) {
        int32_t loc = deciding_location(&ds->energy->units[i]);
        int mine = !owned || (loc >= 0 && (size_t)loc < ds->n_locs ? owned[loc] : ds->run->share_index == 0);
        if (mine)
            items[n++] = i;
    }
    return n;
}

static void put_energies(pw_part_writer *w, const double *e, size_t n_sources)
{
    for (size_t s = 0; s < n_sources; s++)
        pw_part_put_word(w, bits_of(e[s]));
}

static void put_result(pw_part_writer *w, const energy_run *run, size_t i, const energy_result *r)
{
    size_t ns = run->lay->n_sources;
    uint64_t head[] = {i, (uint64_t)r->ok, (uint64_t)r->begin, (uint64_t)r->end, bits_of(r->duration_s)};
    pw_part_put(w, head, sizeof head);
    for (size_t s = 0; s < ns; s++)
        pw_part_put_word(w, (uint64_t)r->has[s]);
    put_energies(w, r->energy, ns);
    pw_part_put_word(w, bits_of(r->peak_w));
    pw_part_put_word(w, r->n_phases);
    for (size_t k = 0; k < r->n_phases; k++) {
        const energy_phase *p = &r->phases[k];
        size_t kind = 0;
        while (kind < run->lay->n_phase_kinds && run->lay->phase_kinds[kind].name != p->name)
            kind++;
        uint64_t ph[] = {kind, (uint64_t)p->index, (uint64_t)p->begin, (uint64_t)p->end};
        pw_part_put(w, ph, sizeof ph);
        put_energies(w, p->energy, ns);
    }
}

/* This share's repetitions, read batch by batch into w. */
static void put_units(const energy_run *run, const size_t *items, size_t n, energy_result *res,
                      pw_part_writer *w)
{
    size_t batch = energy_batch(run, n);
    for (size_t first = 0; first < n; first += batch) {
        size_t len = n - first < batch ? n - first : batch;
        energy_read_units(run, res, items + first, len);
        for (size_t k = first; k < first + len; k++) {
            put_result(w, run, items[k], &res[items[k]]);
            energy_result_free(&res[items[k]]);
        }
    }
}

pw_status energy_part(pw_dataset *ds, void **part, size_t *size, pw_error *err)
{
    *part = NULL;
    *size = 0;
    /* nothing to report, or a watcher that wants every repetition as it is
     * read: declined (the join reports over every location) */
    if (!ds->energy || ds->run->energy_watch)
        return PW_OK;
    energy_run run;
    pw_status s = energy_run_init(&run, ds, err);
    if (s != PW_OK)
        return s;
    int whole;
    uint8_t *owned = pw_ds_share_owned(ds, &whole);
    size_t n_units = ds->energy->n_units;
    size_t *items = malloc((n_units ? n_units : 1) * sizeof *items);
    energy_result *res = calloc(n_units ? n_units : 1, sizeof *res);
    pw_part_writer w = {0};
    if (items && res && (owned || whole)) {
        pw_part_put_word(&w, n_units);
        pw_part_put_word(&w, run.lay->n_sources);
        put_units(&run, items, owned_units(ds, owned, items), res, &w);
    } else {
        w.nomem = 1; /* an allocation above failed: no part */
    }
    free(owned);
    free(items);
    free(res);
    return pw_part_finish(&w, PW_OK, ds->path, part, size, err);
}

/* A repetition's figures without its phases; 0 when the part ends early. */
static int take_result(pw_part_reader *rd, const energy_run *run, energy_result *r)
{
    size_t ns = run->lay->n_sources;
    r->ok = (int)pw_part_next(rd);
    r->begin = (int64_t)pw_part_next(rd);
    r->end = (int64_t)pw_part_next(rd);
    r->duration_s = double_of(pw_part_next(rd));
    for (size_t s = 0; s < ns; s++)
        r->has[s] = (int)pw_part_next(rd);
    for (size_t s = 0; s < ns; s++)
        r->energy[s] = double_of(pw_part_next(rd));
    r->peak_w = double_of(pw_part_next(rd));
    return !rd->bad;
}

/* The phases at the reader: skipped, or (keep) read into r. */
static int take_phases(pw_part_reader *rd, const energy_run *run, energy_result *r, int keep)
{
    size_t ns = run->lay->n_sources;
    uint64_t n = pw_part_next(rd);
    if (rd->bad || n > (rd->n - rd->pos) / (4 + ns))
        return 0;
    if (!keep) {
        rd->pos += (size_t)n * (4 + ns);
        return 1;
    }
    r->phases = calloc(n ? n : 1, sizeof *r->phases);
    if (!r->phases)
        return 0;
    r->n_phases = (size_t)n;
    for (size_t k = 0; k < n; k++) {
        energy_phase *p = &r->phases[k];
        uint64_t kind = pw_part_next(rd);
        if (kind >= run->lay->n_phase_kinds)
            return 0;
        p->name = run->lay->phase_kinds[kind].name;
        p->index = (int64_t)pw_part_next(rd);
        p->begin = (int64_t)pw_part_next(rd);
        p->end = (int64_t)pw_part_next(rd);
        for (size_t s = 0; s < ns; s++)
            p->energy[s] = double_of(pw_part_next(rd));
    }
    return 1;
}

/* Every repetition's figures into res, and where its phases are in its
 * part (at[i]); 0 when a part does not fit or a repetition is missing. */
static int take_parts(const energy_run *run, const void *const *parts, const size_t *sizes, size_t n,
                      energy_result *res, pw_part_reader *at)
{
    size_t n_units = run->lay->n_units;
    for (size_t k = 0; k < n; k++) {
        pw_part_reader rd = pw_part_reader_of(parts[k], sizes[k]);
        if (pw_part_next(&rd) != n_units || pw_part_next(&rd) != run->lay->n_sources || rd.bad)
            return 0;
        while (rd.pos < rd.n) {
            uint64_t i = pw_part_next(&rd);
            if (i >= n_units || at[i].words || !take_result(&rd, run, &res[i]))
                return 0;
            at[i] = rd;
            if (!take_phases(&rd, run, &res[i], 0))
                return 0;
        }
    }
    for (size_t i = 0; i < n_units; i++)
        if (!at[i].words)
            return 0;
    return 1;
}

/* The serial report's steps after reading, from the parts. */
static pw_status report_parts(const energy_run *run, energy_result *res, pw_part_reader *at, size_t *items,
                              pw_report *r, pw_error *err)
{
    const pw_energy_layout *lay = run->lay;
    energy_baselines *base = lay->subtract_baseline ? energy_baselines_new(run, res) : NULL;
    pw_status s = PW_OK;
    if (lay->subtract_baseline && !base)
        s = pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
    size_t n = s == PW_OK ? energy_select_units(lay, 0, items) : 0;
    pw_rnode *rows = s == PW_OK ? pw_report_stream(r, "repetitions") : NULL;
    for (size_t k = 0; k < n && s == PW_OK; k++) {
        size_t i = items[k];
        if (!take_phases(&at[i], run, &res[i], 1))
            s = pw_fail(err, PW_E_NOMEM, run->ds->path, PW_NO_OFFSET, "out of memory");
        else
            energy_report_read(run, i, &res[i], base, rows);
    }
    if (s == PW_OK)
        energy_report_end(run, res, pw_report_root(r));
    energy_baselines_end(base, run);
    return s;
}

pw_status energy_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n, pw_report *r,
                      pw_error *err)
{
    if (!ds->energy)
        return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET, "energy parts for a dataset without power data");
    energy_run run;
    pw_status s = energy_run_init(&run, ds, err);
    if (s != PW_OK)
        return s;
    size_t n_units = ds->energy->n_units ? ds->energy->n_units : 1;
    energy_result *res = calloc(n_units, sizeof *res);
    pw_part_reader *at = calloc(n_units, sizeof *at);
    size_t *items = malloc(n_units * sizeof *items);
    if (!res || !at || !items)
        s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    else if (!take_parts(&run, parts, sizes, n, res, at))
        s = pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                    "the energy parts do not fit this dataset (cut short, or a repetition missing)");
    else
        s = report_parts(&run, res, at, items, r, err);
    for (size_t i = 0; res && i < n_units; i++)
        energy_result_free(&res[i]);
    free(res);
    free(at);
    free(items);
    return s;
}
