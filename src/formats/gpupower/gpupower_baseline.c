/* gpupower_baseline.c — idle power from `_baseline` runs (gpupower-facts.md
 * §2), subtracted from energies when asked (--subtract-baseline).  The
 * baseline of a repetition is the one whose group directory (the directory
 * holding `_baseline`) is its nearest ancestor; its idle power per source
 * is the mean over the baseline's repetitions of energy / duration. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/gpupower/gpupower_result.h"

/* 1 when dir lies under group. */
static int is_under(const char *dir, const char *group)
{
    size_t n = strlen(group);
    return !strncmp(dir, group, n) && dir[n] == '/';
}

/* Mean idle power per source over the group's baseline repetitions. */
static void idle_power(const gp_dataset *gd, const gp_result *res, const char *group,
                       double watts[GP_SOURCES])
{
    for (int s = 0; s < GP_SOURCES; s++) {
        double sum = 0;
        size_t n = 0;
        for (size_t i = 0; i < gd->n_reps; i++) {
            const gp_rep *b = &gd->reps[i];
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
static void subtract(gp_result *r, const double watts[GP_SOURCES])
{
    for (int s = 0; s < GP_SOURCES; s++) {
        r->baseline_w[s] = watts[s]; /* NaN: this source has no idle figure */
        if (!r->has[s] || isnan(watts[s]))
            continue;
        r->energy[s] -= watts[s] * r->duration_s;
        for (size_t i = 0; i < r->n_phases; i++)
            r->phases[i].energy[s] -= watts[s] * (double)(r->phases[i].end - r->phases[i].begin) * 1e-9;
    }
    if (r->has[GP_SRC_GPU] && !isnan(watts[GP_SRC_GPU]))
        r->peak_w -= watts[GP_SRC_GPU];
    r->baseline_applied = 1;
}

/* A baseline group and its idle power per source. */
typedef struct baseline_group {
    const char *dir;
    double watts[GP_SOURCES];
} baseline_group;

/* The distinct groups (few: one per experiment), with their idle power,
 * and the repetitions found without one. */
struct gp_baselines {
    baseline_group *groups;
    size_t n, orphans;
    const char *first_orphan;
};

gp_baselines *gp_baselines_new(const gp_dataset *gd, const gp_result *res)
{
    gp_baselines *b = calloc(1, sizeof *b);
    if (!b || !(b->groups = malloc((gd->n_reps ? gd->n_reps : 1) * sizeof *b->groups))) {
        free(b);
        return NULL;
    }
    for (size_t i = 0; i < gd->n_reps; i++) {
        const char *g = gd->reps[i].baseline_group;
        int known = !gd->reps[i].baseline || !g;
        for (size_t k = 0; k < b->n && !known; k++)
            known = !strcmp(b->groups[k].dir, g);
        if (known)
            continue;
        b->groups[b->n].dir = g;
        idle_power(gd, res, g, b->groups[b->n].watts);
        b->n++;
    }
    return b;
}

void gp_baselines_apply(gp_baselines *b, const gp_rep *rep, gp_result *res)
{
    if (!b || rep->baseline || !res->ok)
        return;
    const baseline_group *best = NULL; /* the nearest (longest) enclosing group */
    for (size_t k = 0; k < b->n; k++)
        if (is_under(rep->dir, b->groups[k].dir) && (!best || strlen(b->groups[k].dir) > strlen(best->dir)))
            best = &b->groups[k];
    if (best)
        subtract(res, best->watts);
    else if (!b->orphans++)
        b->first_orphan = rep->dir;
}

void gp_baselines_end(gp_baselines *b, pw_dataset *ds)
{
    if (!b)
        return;
    if (b->orphans)
        pw_ds_diag(ds, PW_SEV_WARNING, "gpupower.no-baseline", b->first_orphan, PW_NO_OFFSET,
                   "no _baseline directory above this repetition (and %zu others): nothing was "
                   "subtracted from them", b->orphans - 1);
    free(b->groups);
    free(b);
}
