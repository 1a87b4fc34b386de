/* emu_chan.c — channel values, the dirty list and propagation (semantics
 * of ovni src/emu/chan.c, bay.c and the row writer's flags, pv/prv.c). */
#include "analysis/ovniemu/emu_chan.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/ovniemu/emu_mux.h"
#include "core/compiler.h"

void emu_chan_init(emu_chan *c, const char *name, int is_stack)
{
    memset(c, 0, sizeof *c);
    c->value = emu_null();
    c->last = emu_null();
    c->prv_last = (emu_value){0, EMU_NEVER};
    c->is_stack = (uint8_t)is_stack;
    c->view = -1;
    c->name = name;
}

void *emu_chan_alloc(size_t n, size_t size)
{
    if (!n)
        n = 1;
    if (size % EMU_CHAN_ALIGN || n > SIZE_MAX / size)
        return NULL;
    void *p = aligned_alloc(EMU_CHAN_ALIGN, n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

void emu_chan_free(emu_chan *c)
{
    free(c->stack);
    free(c->subs);
    c->stack = NULL;
    c->subs = NULL;
}

void emu_chan_bind(emu_chan *c, int view, uint32_t row, int32_t type, unsigned flags)
{
    c->view = (int8_t)view;
    c->prv_row = row;
    c->prv_type = type;
    c->prv_flags = (uint8_t)flags;
}

static int fault(emu_bay *bay, const emu_chan *c, const char *what)
{
    if (!bay->fault) {
        bay->fault = what;
        bay->fault_chan = c->name;
    }
    return -1;
}

static int grow_dirty(emu_bay *bay, const emu_chan *c)
{
    uint32_t cap = bay->cap_dirty ? bay->cap_dirty * 2 : 64;
    emu_chan **d = realloc(bay->dirty, cap * sizeof *d);
    if (!d)
        return fault(bay, c, "out of memory");
    bay->dirty = d;
    bay->cap_dirty = cap;
    return 0;
}

/* emu_bay_dirty, inlined where every change calls it. */
static inline int mark_dirty(emu_bay *bay, emu_chan *c)
{
    if (c->dirty)
        return c->dirty_write ? 0 : fault(bay, c, "channel already changed in this event");
    if (bay->n_dirty == bay->cap_dirty && grow_dirty(bay, c) != 0)
        return -1;
    c->dirty = 1;
    bay->n_walk += c->walk;
    bay->dirty[bay->n_dirty++] = c;
    return 0;
}

int emu_bay_dirty(emu_bay *bay, emu_chan *c) { return mark_dirty(bay, c); }

/* The checks every change makes: one change per event, and a change to
 * the value of the previous event only where duplicates are allowed.
 * Returns 1 when the change is to be ignored. */
static int change_allowed(emu_bay *bay, emu_chan *c, emu_value v, int *ignore)
{
    *ignore = 0;
    if (c->dirty && !c->dirty_write)
        return fault(bay, c, "channel already changed in this event");
    if (!c->allow_dup && emu_value_eq(c->last, v)) {
        if (c->ignore_dup) {
            *ignore = 1;
            return 0;
        }
        return fault(bay, c, "channel set to the value it already has");
    }
    return 0;
}

int emu_chan_set(emu_bay *bay, emu_chan *c, emu_value v)
{
    int ignore;
    if (c->is_stack)
        return fault(bay, c, "set on a stack channel");
    if (change_allowed(bay, c, v, &ignore) || ignore)
        return ignore ? 0 : -1;
    c->value = v;
    return mark_dirty(bay, c);
}

int emu_chan_push(emu_bay *bay, emu_chan *c, emu_value v)
{
    int ignore;
    if (!c->is_stack)
        return fault(bay, c, "push on a single channel");
    if (change_allowed(bay, c, v, &ignore) || ignore)
        return ignore ? 0 : -1;
    if (c->n_stack == c->cap_stack) {
        uint32_t cap = c->cap_stack ? c->cap_stack * 2 : 8;
        emu_value *s = realloc(c->stack, cap * sizeof *s);
        if (!s)
            return fault(bay, c, "out of memory");
        c->stack = s;
        c->cap_stack = cap;
    }
    c->stack[c->n_stack++] = v;
    c->value = v;
    return mark_dirty(bay, c);
}

int emu_chan_pop(emu_bay *bay, emu_chan *c, emu_value expected)
{
    if (!c->is_stack)
        return fault(bay, c, "pop on a single channel");
    if (c->dirty && !c->dirty_write)
        return fault(bay, c, "channel already changed in this event");
    if (!c->n_stack)
        return fault(bay, c, "pop from an empty stack");
    if (!emu_value_eq(c->stack[c->n_stack - 1], expected))
        return fault(bay, c, "pop of a value other than the top of the stack");
    c->n_stack--;
    c->value = c->n_stack ? c->stack[c->n_stack - 1] : emu_null();
    return mark_dirty(bay, c);
}

int emu_chan_subscribe(emu_chan *c, emu_mux *m, int is_input)
{
    if (c->mux_output)
        return -1;
    if (c->n_subs == c->cap_subs) {
        uint32_t cap = c->cap_subs ? c->cap_subs * 2 : 2;
        emu_sub *s = realloc(c->subs, cap * sizeof *s);
        if (!s)
            return -1;
        c->subs = s;
        c->cap_subs = cap;
    }
    c->subs[c->n_subs++] = (emu_sub){m, is_input ? m->output : NULL};
    c->walk |= !is_input;
    return 0;
}

void emu_chan_unsubscribe(emu_chan *c, emu_mux *m, int is_input)
{
    for (uint32_t i = 0; i < c->n_subs; i++) {
        if (c->subs[i].mux != m || (c->subs[i].output != NULL) != (is_input != 0))
            continue;
        memmove(&c->subs[i], &c->subs[i + 1], (c->n_subs - i - 1) * sizeof *c->subs);
        c->n_subs--;
        return;
    }
}

/* The row's new value, unless the binding's flags skip or refuse it. */
static int emit(emu_bay *bay, emu_chan *c)
{
    emu_value v = emu_chan_read(c);
    if (!(c->prv_flags & EMU_PRV_EMITDUP)) {
        if (emu_value_eq(c->prv_last, v)) {
            if (c->prv_flags & EMU_PRV_SKIPDUP)
                return 0;
            if (!(c->prv_flags & EMU_PRV_SKIPDUPNULL))
                return fault(bay, c, "the same value written twice to a row");
            if (v.null)
                return 0;
        }
        c->prv_last = v;
    }
    int64_t out = 0;
    if (!v.null) {
        out = v.i + ((c->prv_flags & EMU_PRV_NEXT) != 0);
        if (!(c->prv_flags & EMU_PRV_ZERO) && out == 0)
            return fault(bay, c, "value 0 is forbidden in this channel");
    }
    if (bay->emit)
        bay->emit(bay->emit_ctx, bay->time, c->view, c->prv_row, c->prv_type, out);
    return 0;
}

/* Emits the changed channel (when it has a row) and makes it clean. */
static inline int emit_and_clean(emu_bay *bay, emu_chan *c)
{
    int rc = c->view >= 0 ? emit(bay, c) : 0;
    if (!c->allow_dup)
        c->last = c->value;
    c->dirty = 0;
    return rc;
}

/* ovniemu's walk: the followers of every changed channel in order (which
 * may change more channels: the list grows as it is walked), then every
 * changed channel emitted in the order it changed.  A select's mux
 * changes the subscriptions of inputs (other channels) and may move the
 * list (grow_dirty) as it goes, so both are indexed anew each time. */
static PW_NOINLINE int walk(emu_bay *bay)
{
    int rc = 0;
    for (uint32_t i = 0; i < bay->n_dirty; i++) {
        const emu_chan *c = bay->dirty[i];
        for (uint32_t k = 0; k < c->n_subs; k++) {
            const emu_sub *sub = &c->subs[k];
            emu_chan *out = sub->output;
            if (out) {
                out->value = c->value;
                if (mark_dirty(bay, out) != 0)
                    rc = -1;
            } else if (emu_mux_on_select(bay, sub->mux) != 0) {
                rc = -1;
            }
        }
    }
    for (uint32_t i = 0; i < bay->n_dirty; i++)
        if (emit_and_clean(bay, bay->dirty[i]) != 0)
            rc = -1;
    return rc;
}

/* The common event, whose changes select for no mux and set no mux output:
 * each changed channel's followers are muxes it is the input of, and
 * their outputs take its value and nothing else changes them (a mux has
 * one input, an output one mux, and outputs have no followers).  So the
 * walk's order and values come out of two passes with nothing listed:
 * the changed channels emitted, then each one's outputs as they take its
 * value. */
static int emit_as_copied(emu_bay *bay)
{
    int rc = 0;
    emu_chan *const *dirty = bay->dirty;
    uint32_t n = bay->n_dirty;
    for (uint32_t i = 0; i < n; i++)
        if (emit_and_clean(bay, dirty[i]) != 0)
            rc = -1;
    for (uint32_t i = 0; i < n; i++) {
        const emu_chan *c = dirty[i];
        emu_value v = c->value;
        const emu_sub *subs = c->subs; /* NULL without followers */
        uint32_t n_subs = c->n_subs;
        for (uint32_t k = 0; k < n_subs; k++) {
            emu_chan *out = subs[k].output;
            out->value = v;
            if (out->view >= 0 && emit(bay, out) != 0)
                rc = -1;
        }
    }
    return rc;
}

int emu_bay_propagate(emu_bay *bay)
{
    int rc = bay->n_walk ? walk(bay) : emit_as_copied(bay);
    bay->n_dirty = 0;
    bay->n_walk = 0;
    return rc;
}

void emu_bay_free(emu_bay *bay)
{
    free(bay->dirty);
    bay->dirty = NULL;
    bay->n_dirty = bay->cap_dirty = 0;
}
