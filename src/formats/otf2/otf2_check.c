/* otf2_check.c — what `check` verifies beyond reading every event: per
 * location, each Leave closes the region the last open Enter opened, no
 * Enter is left open at the end, time never goes back, and every region,
 * communicator and metric an event names is defined.  Each kind of
 * finding is reported once per location with its count, so a damaged
 * trace of millions of events gives a readable list. */
#include <inttypes.h>
#include <stdlib.h>

#include "formats/otf2/otf2.h"

typedef struct loc_findings {
    uint64_t unmatched, back, undefined, first_unmatched, first_back, first_undefined;
} loc_findings;

static int region_defined(const ot_dataset *od, uint64_t ref)
{
    const ot_region *r = ot_table_get(&od->regions, ref);
    return r && ot_string(od, r->name);
}

static int comm_defined(const ot_dataset *od, uint64_t ref)
{
    const ot_comm *c = ot_table_get(&od->comms, ref);
    return c && c->defined;
}

/* Whether an event names a definition the archive lacks. */
static int names_undefined(const ot_dataset *od, const ot_event *e)
{
    const char *encs = od->encs[e->type];
    size_t raw = 0;
    for (size_t f = 0; encs[f]; f++) {
        char enc = encs[f];
        if (enc == OT_WORLD || enc == OT_VALUES || enc == OT_ARGS)
            continue;
        uint64_t x = e->a[raw++];
        uint8_t n;
        int is_comm = enc == OT_COMM || enc == OT_COMM_REF || (f == 1 && encs[0] == OT_RANK); /* an MPI message's comm */
        if ((enc == OT_REGION && !region_defined(od, x)) || (is_comm && !comm_defined(od, x)) ||
            (enc == OT_METRIC && !ot_metric_members(od, (uint32_t)x, &n)))
            return 1;
    }
    return 0;
}

/* One location's events; stack holds the open regions. */
static pw_status check_location(pw_dataset *ds, uint32_t loc, loc_findings *f, uint64_t **stack, size_t *cap,
                                size_t *depth, pw_error *err)
{
    const ot_dataset *od = ds->impl;
    pw_cursor *c;
    pw_status st = pw_cursor_open(ds, loc, &c, err);
    if (st != PW_OK)
        return st;
    int64_t last = INT64_MIN;
    const pw_record *rec;
    *depth = 0;
    while ((st = pw_cursor_next(c, &rec, err)) == PW_OK) {
        const ot_event *e = ot_cursor_event(c);
        if (rec->t < last && !f->back++)
            f->first_back = e->position;
        last = rec->t;
        if (names_undefined(od, e) && !f->undefined++)
            f->first_undefined = e->position;
        if (e->type == OT_EV_Enter) {
            if (*depth == *cap) {
                size_t ncap = *cap ? *cap * 2 : 64;
                uint64_t *p = realloc(*stack, ncap * sizeof *p);
                if (!p) {
                    pw_cursor_close(c);
                    return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
                }
                *stack = p;
                *cap = ncap;
            }
            (*stack)[(*depth)++] = e->a[0];
        } else if (e->type == OT_EV_Leave) {
            if (*depth == 0 || (*stack)[*depth - 1] != e->a[0]) {
                if (!f->unmatched++)
                    f->first_unmatched = e->position;
            }
            if (*depth)
                (*depth)--;
        }
    }
    pw_cursor_close(c);
    f->unmatched += *depth;
    return st == PW_END || st == PW_E_DATA ? PW_OK : st; /* damage is a finding already */
}

static void report(pw_dataset *ds, const pw_location *l, const loc_findings *f)
{
    if (f->unmatched)
        pw_ds_diag(ds, PW_SEV_ERROR, "otf2.unmatched-enter-leave", l->file, (int64_t)f->first_unmatched,
                   "every Leave closing the region of the last open Enter expected; %" PRIu64
                   " Enter/Leave unmatched (offsets are event positions)", f->unmatched);
    if (f->back)
        pw_ds_diag(ds, PW_SEV_ERROR, "otf2.time-goes-back", l->file, (int64_t)f->first_back,
                   "nondecreasing times expected; time goes back %" PRIu64 " times", f->back);
    if (f->undefined)
        pw_ds_diag(ds, PW_SEV_ERROR, "otf2.undefined-reference", l->file, (int64_t)f->first_undefined,
                   "defined regions, communicators and metrics expected; %" PRIu64 " events name undefined ones",
                   f->undefined);
}

pw_status ot_check(pw_dataset *ds, pw_error *err)
{
    uint64_t *stack = NULL;
    size_t cap = 0, depth = 0;
    pw_status st = PW_OK;
    for (size_t i = 0; i < ds->n_locs && st == PW_OK; i++) {
        const pw_location *l = &ds->locs[i];
        if (!l->has_records)
            continue;
        loc_findings f = {0};
        st = check_location(ds, (uint32_t)i, &f, &stack, &cap, &depth, err);
        if (st == PW_OK)
            report(ds, l, &f);
        else if (st == PW_E_DATA)
            st = PW_OK;
    }
    free(stack);
    return st;
}
