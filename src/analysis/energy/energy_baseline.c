/* energy_baseline.c — idle power from the baseline repetitions a layout
 * marks, subtracted from energies when asked (the format's option).  The
 * baseline of a repetition is the one whose group directory is its
 * nearest ancestor; its idle power per source is the mean over the
 * baseline's repetitions of energy / duration. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/energy/energy.h"

/* 1 when dir lies under group. */
static int is_under(const char *dir, const char *group)
{
    size_t n = strlen(group);
    return !strncmp(dir, group, n) && dir[n] == '/';
}

/* Mean idle power per source over the group's baseline repetitions. */
static void idle_power(const pw_energy_layout *lay, const energy_result *res, const char *group,
                       double watts[ENERGY_MAX_SOURCES])
{
    for (size_t s = 0; s < lay->n_sources; s++) {
        double sum = 0;
        size_t n = 0;
        for (size_t i = 0; i < lay->n_units; i++) {
            const pw_energy_unit *b = &lay->units[i];
            if (b->baseline && b->baseline_group && !strcmp(b->baseline_group, group) && res[i].ok &&
                res[i].has[s] && res[i].duration_s > 0) {
                sum += res[i].energy[s] / res[i].duration_s;
                n++;
            }
        }
        watts[s] = n ? sum / (double)n : NAN;
    }
}

/* Subtracts idle power x duration from every energy of one repetition. */
static void subtract(const energy_run *run, energy_result *r, const double watts[ENERGY_MAX_SOURCES])
{
    for (size_t s = 0; s < run->lay->n_sources; s++) {
        r->baseline_w[s] = watts[s]; /* NaN: this source has no idle figure */
        if (!r->has[s] || isnan(watts[s]))
            continue;
        r->energy[s] -= watts[s] * r->duration_s;
        for (size_t i = 0; i < r->n_phases; i++)
            r->phases[i].energy[s] -= watts[s] * (double)(r->phases[i].end - r->phases[i].begin) * 1e-9;
    }
    int p = run->primary;
    if (p >= 0 && r->has[p] && !isnan(watts[p]))
        r->peak_w -= watts[p];
    r->baseline_applied = 1;
}

/* A baseline group and its idle power per source. */
typedef struct baseline_group {
    const char *dir;
    double watts[ENERGY_MAX_SOURCES];
} baseline_group;

/* The distinct groups (few: one per experiment), with their idle power,
 * and the repetitions found without one. */
struct energy_baselines {
    baseline_group *groups;
    size_t n, orphans;
    const char *first_orphan;
};

energy_baselines *energy_baselines_new(const energy_run *run, const energy_result *res)
{
    const pw_energy_layout *lay = run->lay;
    energy_baselines *b = calloc(1, sizeof *b);
    if (!b || !(b->groups = malloc((lay->n_units ? lay->n_units : 1) * sizeof *b->groups))) {
        free(b);
        return NULL;
    }
    for (size_t i = 0; i < lay->n_units; i++) {
        const char *g = lay->units[i].baseline_group;
        int known = !lay->units[i].baseline || !g;
        for (size_t k = 0; k < b->n && !known; k++)
            known = !strcmp(b->groups[k].dir, g);
        if (known)
            continue;
        b->groups[b->n].dir = g;
        idle_power(lay, res, g, b->groups[b->n].watts);
        b->n++;
    }
    return b;
}

void energy_baselines_apply(energy_baselines *b, const energy_run *run, const pw_energy_unit *rep,
                            energy_result *res)
{
    if (!b || rep->baseline || !res->ok)
        return;
    const baseline_group *best = NULL; /* the nearest (longest) enclosing group */
    for (size_t k = 0; k < b->n; k++)
        if (is_under(rep->dir, b->groups[k].dir) && (!best || strlen(b->groups[k].dir) > strlen(best->dir)))
            best = &b->groups[k];
    if (best)
        subtract(run, res, best->watts);
    else if (!b->orphans++)
        b->first_orphan = rep->dir;
}

void energy_baselines_end(energy_baselines *b, const energy_run *run)
{
    if (!b)
        return;
    if (b->orphans)
        pw_ds_diag(run->ds, PW_SEV_WARNING, run->codes[CODE_NO_BASELINE], b->first_orphan, PW_NO_OFFSET,
                   "no _baseline directory above this repetition (and %zu others): nothing was "
                   "subtracted from them", b->orphans - 1);
    free(b->groups);
    free(b);
}
