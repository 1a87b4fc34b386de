/* energy_selection.c — what a filter makes of a repetition (model/filter.h:
 * a filter selects what is reported, never what an analysis sees).  The
 * repetition's marks and samples are read whole; its window and phases
 * are then cut to the report window [start, end), so that their energies
 * are the power integrated over the part inside (the samples outside still
 * interpolate the edges).  A repetition none of whose locations is
 * selected, or that lies outside the window, is not reported.  Baselines
 * are history: their idle power is always the whole repetitions'. */
#include <stdlib.h>

#include "analysis/energy/energy.h"
#include "model/filter.h"

/* Is one of the repetition's locations (its marks, its streams) selected? */
static int unit_selected(const pw_dataset *ds, const pw_energy_unit *u)
{
    if (u->phases_loc >= 0 && pw_selection_keeps_location(ds, (uint32_t)u->phases_loc))
        return 1;
    for (size_t k = 0; k < u->n_streams; k++)
        for (uint32_t i = 0; u->streams[k].first_loc >= 0 && i < u->streams[k].n_locs; i++)
            if (pw_selection_keeps_location(ds, (uint32_t)u->streams[k].first_loc + i))
                return 1;
    return 0;
}

/* Cuts [*begin, *end] to [lo, hi); 0 when nothing of it is inside (an
 * instant counts when lo <= it < hi, as a span that overlaps does). */
static int clip(int64_t *begin, int64_t *end, int64_t lo, int64_t hi)
{
    int inside = *begin < hi && (*end > lo || (*begin == *end && *begin >= lo));
    if (!inside)
        return 0;
    *begin = *begin > lo ? *begin : lo;
    *end = *end < hi ? *end : hi;
    return 1;
}

int energy_select_repetition(const energy_run *run, const pw_energy_unit *u, energy_result *res)
{
    int64_t lo, hi;
    if (u->baseline || !res->ok)
        return res->ok;
    int windowed = pw_selection_window_ns(run->ds, &lo, &hi);
    if (!unit_selected(run->ds, u) || (windowed && !clip(&res->begin, &res->end, lo, hi))) {
        res->ok = 0;
        energy_result_free(res);
        return 0;
    }
    if (!windowed)
        return 1;
    res->duration_s = (double)(res->end - res->begin) * 1e-9;
    size_t n = 0;
    for (size_t i = 0; i < res->n_phases; i++) {
        energy_phase p = res->phases[i];
        if (clip(&p.begin, &p.end, lo, hi))
            res->phases[n++] = p;
    }
    res->n_phases = n;
    return 1;
}
