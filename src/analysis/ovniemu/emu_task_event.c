/* emu_task_event.c — task type declarations shared by the task models. */
#include "analysis/ovniemu/emu_task_event.h"

int emu_task_type_event(emu *e, emu_ev *ev, emu_task_info *ti, int32_t prv_type)
{
    const pw_value *f = emu_ev_fields(ev);
    int ok = 1;
    uint32_t id = (uint32_t)emu_ev_int(ev, 0, &ok);
    if (ev->v != 'c' || !ok || !f[2].present) {
        e->fault = "a type event without a type id and label";
        return -1;
    }
    int dup;
    emu_task_type *t = emu_task_type_add(ti, id, f[2].v.s.p, f[2].v.s.n, &dup);
    if (!t) {
        e->fault = dup ? "the type id already exists" : "out of memory";
        return -1;
    }
    for (int view = 0; view < EMU_VIEWS; view++)
        for (size_t i = 0; i < e->pcf[view].n_types; i++)
            if (e->pcf[view].types[i].id == prv_type)
                emu_pcf_add_value(&e->pcf[view], (long)i, t->gid, t->label);
    return 0;
}
