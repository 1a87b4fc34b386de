/* ross_stats_events.c — the event-trace summary: events per destination
 * LP, events to the sender itself / to another LP / across PEs (when the
 * dataset's LP samples or model records tell which PE an LP is on), the
 * send -> receive virtual-time distance, and payload sizes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "formats/ross/ross_stats.h"

/* Bin 0 holds distance 0; bin i >= 1 holds [2^(i-1+MIN), 2^(i+MIN)), the
 * first and last bins open-ended. */
static int distance_bin(double d)
{
    if (d <= 0)
        return 0;
    int e;
    frexp(d, &e); /* d in [2^(e-1), 2^e) */
    int b = e - ROSS_DIST_MIN_EXP;
    return b < 1 ? 1 : b >= ROSS_DIST_BINS ? ROSS_DIST_BINS - 1 : b;
}

/* Grows the per-LP counts to hold `lp` (doubling; bounded). */
static int count_lp(event_acc *ev, uint32_t lp)
{
    if (lp >= ROSS_MAX_LP_COUNTS) {
        ev->lp_beyond++;
        return 0;
    }
    if (lp >= ev->lp_cap) {
        size_t cap = ev->lp_cap ? ev->lp_cap : 1024;
        while (cap <= lp)
            cap *= 2;
        uint32_t *p = realloc(ev->per_lp, cap * sizeof *p);
        if (!p) {
            ev->nomem = 1;
            return -1;
        }
        memset(p + ev->lp_cap, 0, (cap - ev->lp_cap) * sizeof *p);
        ev->per_lp = p;
        ev->lp_cap = cap;
    }
    ev->per_lp[lp]++;
    return 0;
}

static void note_size(event_acc *ev, uint32_t size)
{
    for (size_t i = 0; i < ev->n_sizes; i++)
        if (ev->sizes[i] == size)
            return;
    if (ev->n_sizes < ROSS_PAYLOAD_SIZES)
        ev->sizes[ev->n_sizes++] = size;
}

static int64_t pe_of_lp(const ross_stats_acc *st, uint32_t lp)
{
    return lp < st->n_lp_pe ? st->lp_pe[lp] : -1;
}

void ross_stats_add_event(ross_stats_acc *st, const ross_hdr *h)
{
    event_acc *ev = &st->ev;
    const uint8_t *p = h->p;
    uint32_t src = pw_le32(p), dest = pw_le32(p + 4);
    double d = (double)pw_lef32(p + 12) - (double)pw_lef32(p + 8);
    if (ev->n == 0 || d < ev->d_min)
        ev->d_min = d;
    if (ev->n == 0 || d > ev->d_max)
        ev->d_max = d;
    ev->n++;
    ev->d_sum += d;
    ev->negative += d < 0;
    ev->dist[distance_bin(d)]++;
    ev->payload_bytes += h->payload_len;
    if (src == dest)
        ev->to_self++;
    else
        ev->to_other_lp++;
    int64_t ps = pe_of_lp(st, src), pd = pe_of_lp(st, dest);
    if (ps >= 0 && pd >= 0) {
        ev->same_pe += ps == pd;
        ev->cross_pe += ps != pd;
    }
    note_size(ev, (uint32_t)h->payload_len);
    count_lp(ev, dest);
}
