/* gpupower_parts.c — `stats` by several processes (pw_stats_part /
 * pw_stats_join): each reads the repetitions of its share and sends their
 * figures (energies as the bits of their doubles, so nothing is rounded);
 * the join applies baselines and reports as gp_stats does.  A repetition
 * belongs to the share holding its first location with records (share 0
 * when it has none). */
#include <stdlib.h>
#include <string.h>

#include "formats/gpupower/gpupower_result.h"
#include "model/part.h"

static uint64_t bits_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double double_of(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* Whether repetition i is read by the share [first, end) of the n record
 * locations locs. */
static int owns(const pw_dataset *ds, const gp_rep *rep, const uint32_t *locs, size_t n, size_t first,
                size_t end)
{
    for (size_t k = 0; k < n; k++)
        for (int32_t a = (int32_t)locs[k]; a >= 0; a = ds->locs[a].parent)
            if (a == rep->loc)
                return k >= first && k < end;
    return first == 0 && (end > 0 || n == 0); /* no records: share 0 */
}

#define RESULT_WORDS (7 + 2 * GP_SOURCES)
#define PHASE_WORDS (4 + GP_SOURCES)

static uint64_t *put_result(uint64_t *w, size_t i, const gp_result *r)
{
    *w++ = i;
    *w++ = (uint64_t)r->ok;
    *w++ = (uint64_t)r->begin;
    *w++ = (uint64_t)r->end;
    *w++ = bits_of(r->duration_s);
    *w++ = bits_of(r->peak_w);
    for (int s = 0; s < GP_SOURCES; s++) {
        *w++ = (uint64_t)r->has[s];
        *w++ = bits_of(r->energy[s]);
    }
    *w++ = r->n_phases;
    for (size_t k = 0; k < r->n_phases; k++) {
        const gp_phase *p = &r->phases[k];
        *w++ = !strcmp(p->name, "train");
        *w++ = (uint64_t)p->index;
        *w++ = (uint64_t)p->begin;
        *w++ = (uint64_t)p->end;
        for (int s = 0; s < GP_SOURCES; s++)
            *w++ = bits_of(p->energy[s]);
    }
    return w;
}

/* Reads one result into res[its index]; 0 when the part is malformed. */
static int get_result(pw_part_reader *rd, gp_result *res, size_t n_reps)
{
    size_t i = (size_t)pw_part_next(rd);
    if (i >= n_reps || res[i].phases)
        return 0;
    gp_result *r = &res[i];
    r->ok = (int)pw_part_next(rd);
    r->begin = (int64_t)pw_part_next(rd);
    r->end = (int64_t)pw_part_next(rd);
    r->duration_s = double_of(pw_part_next(rd));
    r->peak_w = double_of(pw_part_next(rd));
    for (int s = 0; s < GP_SOURCES; s++) {
        r->has[s] = (int)pw_part_next(rd);
        r->energy[s] = double_of(pw_part_next(rd));
    }
    uint64_t n = pw_part_next(rd);
    if (rd->bad || n > (rd->n - rd->pos) / PHASE_WORDS)
        return 0;
    r->phases = calloc(n ? n : 1, sizeof *r->phases);
    if (!r->phases)
        return 0;
    r->n_phases = (size_t)n;
    for (size_t k = 0; k < r->n_phases; k++) {
        gp_phase *p = &r->phases[k];
        p->name = pw_part_next(rd) ? "train" : "epoch";
        p->index = (int64_t)pw_part_next(rd);
        p->begin = (int64_t)pw_part_next(rd);
        p->end = (int64_t)pw_part_next(rd);
        for (int s = 0; s < GP_SOURCES; s++)
            p->energy[s] = double_of(pw_part_next(rd));
    }
    return !rd->bad;
}

/* The part: the locations' digest, n_reps, count, then each owned
 * repetition's figures. */
pw_status gp_stats_part(pw_dataset *ds, size_t first, size_t end, void **part, size_t *size, pw_error *err)
{
    gp_dataset *gd = ds->impl;
    size_t n;
    uint32_t *locs = pw_ds_record_locations(ds, &n);
    gp_result *res = calloc(gd->n_reps ? gd->n_reps : 1, sizeof *res);
    size_t *mine = malloc((gd->n_reps ? gd->n_reps : 1) * sizeof *mine);
    size_t count = 0, words = 3;
    if (locs && res && mine) {
        for (size_t i = 0; i < gd->n_reps; i++)
            if (owns(ds, &gd->reps[i], locs, n, first, end))
                mine[count++] = i;
        gp_read_repetitions(ds, res, mine, count);
        for (size_t k = 0; k < count; k++)
            words += RESULT_WORDS + res[mine[k]].n_phases * PHASE_WORDS;
    }
    uint64_t *w = locs && res && mine ? malloc(words * sizeof *w) : NULL;
    *part = w;
    *size = words * sizeof *w;
    if (w) {
        *w++ = pw_ds_locations_digest(ds);
        *w++ = gd->n_reps;
        *w++ = count;
        for (size_t k = 0; k < count; k++)
            w = put_result(w, mine[k], &res[mine[k]]);
    }
    for (size_t i = 0; res && i < gd->n_reps; i++)
        gp_result_free(&res[i]);
    free(res);
    free(mine);
    if (!*part)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    return PW_OK;
}

pw_status gp_stats_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n_parts,
                        pw_report *r, pw_error *err)
{
    gp_dataset *gd = ds->impl;
    gp_result *res = calloc(gd->n_reps ? gd->n_reps : 1, sizeof *res);
    if (!res)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    int ok = 1;
    for (size_t p = 0; ok && p < n_parts; p++) {
        pw_part_reader rd = pw_part_reader_of(parts[p], sizes[p]);
        ok = pw_part_next(&rd) == pw_ds_locations_digest(ds);
        ok = pw_part_next(&rd) == gd->n_reps && ok;
        uint64_t count = pw_part_next(&rd);
        for (uint64_t k = 0; ok && k < count; k++)
            ok = get_result(&rd, res, gd->n_reps);
    }
    pw_status s = ok ? gp_stats_report(ds, res, r, err)
                     : pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET, "a stats part does not fit this dataset");
    for (size_t i = 0; i < gd->n_reps; i++)
        gp_result_free(&res[i]);
    free(res);
    return s;
}
