/* emu_jsonl.c — the emulator's channel changes as JSON Lines (dump
 * --states): one object per change of a thread's or CPU's channel, as the
 * Paraver writer receives it, with the names Paraver shows for it. */
#include <string.h>

#include "analysis/ovniemu/emu.h"
#include "core/outbuf.h"

typedef struct states_out {
    pw_outbuf out;
    const emu *e;
} states_out;

/* A NUL-terminated name as a JSON string. */
static void put_str(pw_outbuf *o, const char *s) { pw_out_json_string(o, s, strlen(s)); }

/* The thread's location, or the CPU as "<loom>/cpu.<phyid>" ("vcpu"). */
static void put_loc(pw_outbuf *o, const emu *e, int view, uint32_t row)
{
    if (view == EMU_VIEW_THREAD) {
        put_str(o, e->ds->locs[e->sys.threads[row].loc].path);
        return;
    }
    const emu_cpu *c = &e->sys.cpus[row];
    pw_out_char(o, '"');
    const char *loom = e->ds->locs[c->loom->loc].path;
    pw_out_json_escaped(o, loom, strlen(loom));
    if (c->is_virtual) {
        pw_out_str(o, "/vcpu\"");
        return;
    }
    pw_out_str(o, "/cpu.");
    pw_out_i64(o, c->phyid);
    pw_out_char(o, '"');
}

static void on_change(void *ctx, int64_t time, int view, uint32_t row, int32_t type, int64_t value)
{
    states_out *so = ctx;
    pw_outbuf *o = &so->out;
    const emu_pcf_type *t = emu_pcf_find(&so->e->pcf[view], type);
    const char *label = emu_pcf_label(t, value);
    pw_out_str(o, "{\"loc\":");
    put_loc(o, so->e, view, row);
    pw_out_str(o, view == EMU_VIEW_THREAD ? ",\"view\":\"thread\",\"t\":" : ",\"view\":\"cpu\",\"t\":");
    pw_out_i64(o, time);
    pw_out_str(o, ",\"type\":");
    pw_out_i64(o, type);
    pw_out_str(o, ",\"channel\":");
    if (t)
        put_str(o, t->label);
    else
        pw_out_str(o, "null");
    pw_out_str(o, ",\"value\":");
    pw_out_i64(o, value);
    pw_out_str(o, ",\"label\":");
    if (label)
        put_str(o, label);
    else
        pw_out_str(o, "null");
    pw_out_str(o, "}\n");
}

pw_status pw_emu_dump_states(pw_dataset *ds, FILE *out, pw_error *err)
{
    states_out so;
    memset(&so, 0, sizeof so);
    emu e;
    pw_status s = pw_outbuf_init(&so.out, out, err);
    if (s != PW_OK)
        return s;
    so.e = &e;
    s = emu_start(&e, ds, on_change, &so, err);
    if (s == PW_OK)
        s = emu_play(&e, err);
    pw_error e2;
    pw_status fs = pw_outbuf_flush(&so.out, s == PW_OK ? err : &e2);
    pw_outbuf_free(&so.out);
    emu_free(&e);
    return s == PW_OK ? fs : s;
}
