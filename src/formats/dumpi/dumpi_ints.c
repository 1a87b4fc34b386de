/* dumpi_ints.c — the cursor's integer view (pw_cursor_ops.ints) through
 * a plan per function and field list: where each asked field lies (a
 * leading argument's fixed place, or the walk's arg_off of a later one)
 * and its encoding, worked out once instead of on every call.  A reader
 * asks the same fields of every call of one function (the MPI replay: a
 * list per schema), so a few plans, found by label, serve the whole
 * stream. */
#include <stdlib.h>

#include "formats/dumpi/dumpi.h"

/* Plans kept per cursor, each found through its label; a stream calling
 * more functions than this reads the others' fields one by one. */
#define DUMPI_PLAN_SLOTS 32
/* The most fields a plan holds; a longer list is read field by field. */
#define DUMPI_PLAN_FIELDS 16
/* The place of a field the function lacks: an encoding that is no
 * integer, so dumpi_int_at finds it absent. */
#define DUMPI_PLAN_ABSENT DUMPI_ENC_STR

typedef struct plan_step {
    int16_t field;  /* index into the view */
    uint8_t enc;    /* dumpi_enc of the argument */
    uint8_t lead;   /* 1: at is the offset from args_at; 0: at is the argument */
    uint8_t at;
} plan_step;

typedef struct plan {
    const int16_t *fields; /* the list this plan was made for (NULL: none) */
    uint8_t n;
    plan_step steps[DUMPI_PLAN_FIELDS];
} plan;

struct dumpi_int_plans {
    uint8_t slot_of[DUMPI_N_LABELS]; /* per label: its plan + 1, 0 none yet */
    uint8_t n;
    plan slot[DUMPI_PLAN_SLOTS];
};

/* The plan of fields[0 .. n) for function `label`. */
static void make_plan(plan *pl, uint16_t label, const int16_t *fields, size_t n)
{
    const dumpi_function *fn = &dumpi_functions[label];
    pl->fields = fields;
    pl->n = (uint8_t)n;
    for (size_t k = 0; k < n; k++) {
        int i = fields[k] - DUMPI_PREFIX_FIELDS;
        plan_step *st = &pl->steps[k];
        st->field = fields[k];
        if (i < 0 || i >= fn->n_args)
            *st = (plan_step){fields[k], DUMPI_PLAN_ABSENT, 1, 0};
        else if (i < fn->lead_args)
            *st = (plan_step){fields[k], fn->args[i].enc, 1, fn->arg_at[i]};
        else
            *st = (plan_step){fields[k], fn->args[i].enc, 0, (uint8_t)i};
    }
}

/* The fields read one by one, for a list longer than a plan holds. */
static void ints_unplanned(const dumpi_stream *s, const int16_t *fields, size_t n, pw_value *view)
{
    const dumpi_function *fn = &dumpi_functions[s->rec.label];
    for (size_t k = 0; k < n; k++) {
        int i = fields[k] - DUMPI_PREFIX_FIELDS;
        pw_value *x = &view[fields[k]];
        uint32_t o = i >= 0 && i < fn->n_args ? dumpi_arg_off(&s->rec, fn, i) : UINT32_MAX;
        x->type = PW_T_I64;
        x->present = o != UINT32_MAX && dumpi_int_at(s->p + o, fn->args[i].enc, &x->v.i);
    }
}

/* The plan for the stream's current call, made when missing (NULL: no
 * memory for the plans). */
static const plan *plan_for(dumpi_stream *s, const int16_t *fields, size_t n)
{
    if (!s->plans && !(s->plans = calloc(1, sizeof *s->plans)))
        return NULL;
    struct dumpi_int_plans *ps = s->plans;
    uint16_t label = s->rec.label;
    if (!ps->slot_of[label]) {
        if (ps->n == DUMPI_PLAN_SLOTS)
            return NULL;
        ps->slot_of[label] = ++ps->n;
    }
    plan *pl = &ps->slot[ps->slot_of[label] - 1];
    if (pl->fields != fields || pl->n != n)
        make_plan(pl, label, fields, n);
    return pl;
}

void dumpi_stream_ints(dumpi_stream *s, const int16_t *fields, size_t n, pw_value *view)
{
    const plan *pl = n <= DUMPI_PLAN_FIELDS ? plan_for(s, fields, n) : NULL;
    if (!pl) {
        ints_unplanned(s, fields, n, view);
        return;
    }
    const uint8_t *lead = s->p + s->rec.args_at;
    for (size_t k = 0; k < n; k++) {
        const plan_step *st = &pl->steps[k];
        pw_value *x = &view[st->field];
        x->type = PW_T_I64;
        if (st->lead) {
            x->present = dumpi_int_at(lead + st->at, st->enc, &x->v.i);
        } else {
            uint32_t o = s->rec.arg_off[st->at];
            x->present = o != UINT32_MAX && dumpi_int_at(s->p + o, st->enc, &x->v.i);
        }
    }
}

void dumpi_int_plans_free(struct dumpi_int_plans *plans) { free(plans); }
