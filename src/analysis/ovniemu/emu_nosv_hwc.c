/* emu_nosv_hwc.c — nOS-V hardware counter channels: shown while the
 * thread is active and on the CPU that runs it; 0 is a value. */
#include "analysis/ovniemu/emu_nosv_hwc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOT_HWC 6
#define PRV_NOSV_HWC 200

/* The counter names of thread path p ("<p>:nosv.hwc.<i>.name"). */
static int scan_thread(emu_nosv_hwc *h, const pw_dataset *ds, const char *p)
{
    size_t np = strlen(p);
    for (size_t k = 0; k < pw_dataset_prop_count(ds); k++) {
        const char *key, *value;
        pw_dataset_prop(ds, k, &key, &value);
        if (strncmp(key, p, np) || strncmp(key + np, ":nosv.hwc.", 10))
            continue;
        char *end;
        long i = strtol(key + np + 10, &end, 10);
        if (end == key + np + 10 || strcmp(end, ".name") || i < 0 || i >= 100)
            continue;
        if (i >= h->n) {
            emu_chan_spec *s = realloc(h->spec, (size_t)(i + 1) * sizeof *s);
            if (!s)
                return -1;
            memset(s + h->n, 0, (size_t)(i + 1 - h->n) * sizeof *s);
            h->spec = s;
            h->n = (int)i + 1;
        }
        h->spec[i] = (emu_chan_spec){"hwc", 0, 1, (int32_t)(PRV_NOSV_HWC + i), value, NULL,
                                     EMU_PRV_SKIPDUPNULL | EMU_PRV_ZERO, EMU_TRACK_ACT,
                                     EMU_TRACK_RUN, 1};
    }
    return 0;
}

int emu_nosv_hwc_create(emu *e, emu_nosv_hwc *h)
{
    for (uint32_t i = 0; i < e->sys.n_threads; i++)
        if (scan_thread(h, e->ds, e->ds->locs[e->sys.threads[i].loc].path) != 0)
            return -1;
    for (int i = 0; i < h->n; i++)
        if (!h->spec[i].prefix)
            h->n = i; /* counters are numbered from 0 without gaps */
    return h->n ? emu_tracks_create(e, SLOT_HWC, h->spec, h->n) : 0;
}

/* Counter i of the event: the decoded array, or the raw payload after the
 * jumbo length. */
static int counter(emu_ev *ev, int i, int64_t *v)
{
    const pw_value *list = emu_ev_field(ev, 1), *raw = emu_ev_field(ev, 0);
    if (list && list->type == PW_T_LIST) {
        if ((size_t)i >= list->v.list.n)
            return -1;
        *v = list->v.list.items[i].v.i;
        return 0;
    }
    size_t off = 4 + (size_t)i * 8;
    if (!raw || raw->type != PW_T_BYTES || raw->v.bytes.n < off + 8)
        return -1;
    uint64_t u = 0;
    for (int k = 7; k >= 0; k--)
        u = u << 8 | raw->v.bytes.p[off + (size_t)k];
    *v = (int64_t)u;
    return 0;
}

int emu_nosv_hwc_event(emu *e, emu_ev *ev, const emu_nosv_hwc *h)
{
    if (!h->n || ev->v != 'C') {
        e->fault = h->n ? "unknown hardware counter event" : "counters without declared names";
        return -1;
    }
    const pw_value *list = emu_ev_field(ev, 1), *raw = emu_ev_field(ev, 0);
    size_t have = list && list->type == PW_T_LIST                      ? list->v.list.n
                  : raw && raw->type == PW_T_BYTES && raw->v.bytes.n >= 4 ? (raw->v.bytes.n - 4) / 8
                                                                          : 0;
    if (have != (size_t)h->n) {
        e->fault = "the number of counters differs from the declared one";
        return -1;
    }
    for (int i = 0; i < h->n; i++) {
        int64_t v;
        if (counter(ev, i, &v) != 0 ||
            emu_chan_set(&e->bay, emu_tracks_chan(e->th, SLOT_HWC, i), emu_int(v)) != 0)
            return -1;
    }
    return 0;
}

void emu_nosv_hwc_destroy(emu *e, emu_nosv_hwc *h)
{
    if (h->n)
        emu_tracks_destroy(e, SLOT_HWC);
    free(h->spec);
    h->spec = NULL;
    h->n = 0;
}
