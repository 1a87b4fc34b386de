/* paraver_comms.c — Paraver communication records (see paraver_comms.h). */
#include "sinks/paraver/paraver_comms.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "sinks/convert/convert.h"

void prv_comms_free(prv_comms *cs)
{
    pw_keymap_free(&cs->by_flow);
    free(cs->slots);
    free(cs->sends);
    pw_heap_free(&cs->ready);
    free(cs->run_starts);
    if (cs->spill)
        fclose(cs->spill);
    memset(cs, 0, sizeof *cs);
}

static pw_status comms_nomem(pw_error *err) { return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory"); }

/* The open message of flow, a free slot taken when it is new; NULL when
 * memory runs out. */
static prv_comm *open_slot(prv_comms *cs, uint64_t flow)
{
    pw_key k = {{flow, 0, 0, 0}};
    uint64_t *v = pw_keymap_find(&cs->by_flow, &k);
    if (v)
        return &cs->slots[*v - 1];
    uint32_t slot = cs->free_slots;
    if (slot) {
        cs->free_slots = cs->slots[slot - 1].next_free;
    } else {
        if (cs->n_slots >= UINT32_MAX / 2 ||
            !pw_grow_zeroed((void **)&cs->slots, &cs->cap_slots, cs->n_slots, sizeof *cs->slots))
            return NULL;
        slot = ++cs->n_slots;
    }
    int added;
    if (!pw_keymap_get(&cs->by_flow, &k, slot, &added)) {
        cs->slots[slot - 1].next_free = cs->free_slots;
        cs->free_slots = slot;
        return NULL;
    }
    memset(&cs->slots[slot - 1], 0, sizeof *cs->slots);
    return &cs->slots[slot - 1];
}

static void close_slot(prv_comms *cs, uint64_t flow, prv_comm *c)
{
    pw_key k = {{flow, 0, 0, 0}};
    pw_keymap_remove(&cs->by_flow, &k);
    c->next_free = cs->free_slots;
    cs->free_slots = (uint32_t)(c - cs->slots) + 1;
}

/* Appends an open send to the ring (sends come in time order). */
static int push_send(prv_comms *cs, int64_t t, uint64_t flow)
{
    if (cs->n_sends == cs->cap_sends) {
        uint32_t cap = cs->cap_sends ? cs->cap_sends * 2 : 64;
        prv_sent *s = cap > cs->cap_sends ? malloc((size_t)cap * sizeof *s) : NULL;
        if (!s)
            return 0;
        for (uint32_t i = 0; i < cs->n_sends; i++) /* unrolled from head */
            s[i] = cs->sends[(cs->head + i) % cs->cap_sends];
        free(cs->sends);
        cs->sends = s;
        cs->cap_sends = cap;
        cs->head = 0;
    }
    cs->sends[(cs->head + cs->n_sends++) % cs->cap_sends] = (prv_sent){t, flow};
    return 1;
}

static int ready_before(const void *a, const void *b)
{
    return ((const prv_comm *)a)->send_t < ((const prv_comm *)b)->send_t;
}

static prv_comm pop_ready(prv_comms *cs)
{
    prv_comm c;
    pw_heap_pop(&cs->ready, &c, sizeof c, ready_before);
    return c;
}

static void write_comm(FILE *f, const prv_comm *c)
{
    fprintf(f, "3:0:1:%u:%u:%" PRId64 ":%" PRId64 ":0:1:%u:%u:%" PRId64 ":%" PRId64 ":%" PRIu64 ":%" PRId64 "\n",
            c->send_task, c->send_thread, c->send_t, c->send_t, c->recv_task, c->recv_thread, c->recv_t, c->recv_t,
            c->size, c->tag < 0 ? 0 : c->tag);
}

/* Appends c to the spill file, starting a run when it would break the
 * current one's order. */
static pw_status spill(prv_comms *cs, const prv_comm *c, const char *spill_path, pw_error *err)
{
    if (!cs->spill && !(cs->spill = fopen(spill_path, "w+")))
        return pw_fail_errno(err, spill_path, "cannot create");
    if (!cs->n_runs || c->send_t < cs->last_spilled) {
        long at = ftell(cs->spill);
        if (at < 0 || !pw_grow((void **)&cs->run_starts, cs->n_runs, &cs->cap_runs, sizeof *cs->run_starts))
            return at < 0 ? pw_fail_errno(err, spill_path, "cannot tell") : comms_nomem(err);
        cs->run_starts[cs->n_runs++] = at;
    }
    cs->last_spilled = c->send_t;
    write_comm(cs->spill, c);
    return ferror(cs->spill) ? pw_fail_errno(err, spill_path, "write failed") : PW_OK;
}

/* Spills the complete records no open send precedes, or all of them when
 * the heap is full (a run of their own). */
static pw_status flush_ready(prv_comms *cs, const char *spill_path, pw_error *err)
{
    while (cs->n_sends) { /* the oldest send still open */
        pw_key k = {{cs->sends[cs->head].flow, 0, 0, 0}};
        if (pw_keymap_find(&cs->by_flow, &k))
            break;
        cs->head = (cs->head + 1) % cs->cap_sends;
        cs->n_sends--;
    }
    int all = cs->ready.n >= PRV_READY_MAX;
    pw_status s = PW_OK;
    while (s == PW_OK && cs->ready.n &&
           (all || !cs->n_sends || ((const prv_comm *)pw_heap_first(&cs->ready))->send_t <= cs->sends[cs->head].t)) {
        prv_comm c = pop_ready(cs);
        s = spill(cs, &c, spill_path, err);
    }
    return s;
}

pw_status prv_comms_end(prv_comms *cs, uint64_t flow, int half, uint32_t task, uint32_t thread, int64_t t,
                        uint64_t size, int64_t tag, const char *spill_path, pw_error *err)
{
    prv_comm *c = open_slot(cs, flow);
    if (!c)
        return comms_nomem(err);
    c->halves |= half;
    if (half == 1) {
        c->send_t = t, c->send_task = task, c->send_thread = thread, c->size = size, c->tag = tag;
        if (c->halves == 1 && !push_send(cs, t, flow))
            return comms_nomem(err);
    } else {
        c->recv_t = t, c->recv_task = task, c->recv_thread = thread;
    }
    if (c->halves != 3)
        return PW_OK;
    prv_comm done = *c;
    close_slot(cs, flow, c);
    cs->complete++;
    if (!pw_heap_push(&cs->ready, &done, sizeof done, ready_before))
        return comms_nomem(err);
    return flush_ready(cs, spill_path, err);
}

uint64_t prv_comms_complete(const prv_comms *cs) { return cs->complete; }

/* The time of a "2:cpu:appl:task:thread:time:..." or "3:..." line (its
 * sixth field: the logical send time of a communication). */
static int64_t line_time(const char *line)
{
    for (int colons = 0; *line && colons < 5; line++)
        colons += *line == ':';
    return strtoll(line, NULL, 10);
}

/* Copies the rest of in to out. */
static int copy_rest(FILE *in, FILE *out)
{
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            return 0;
    return !ferror(in);
}

/* One sorted run of the spill file, read through a stream of its own. */
typedef struct prv_run {
    FILE *f;
    long end;  /* offset where the run ends */
    char *line;
    size_t cap;
    int has;   /* line holds the run's next record */
} prv_run;

static void run_next(prv_run *r)
{
    r->has = ftell(r->f) < r->end && getline(&r->line, &r->cap, r->f) > 0;
}

/* Opens the runs of the spill file; 0 on failure. */
static int runs_open(prv_comms *cs, const char *spill_path, prv_run *runs)
{
    long size = ftell(cs->spill);
    for (size_t i = 0; i < cs->n_runs; i++) {
        runs[i].f = fopen(spill_path, "r");
        runs[i].end = i + 1 < cs->n_runs ? cs->run_starts[i + 1] : size;
        if (!runs[i].f || fseek(runs[i].f, cs->run_starts[i], SEEK_SET) != 0)
            return 0;
        run_next(&runs[i]);
    }
    return 1;
}

/* The run whose next record comes first, or -1 when all are done. */
static int runs_first(const prv_run *runs, size_t n)
{
    int best = -1;
    for (size_t i = 0; i < n; i++)
        if (runs[i].has && (best < 0 || line_time(runs[i].line) < line_time(runs[best].line)))
            best = (int)i;
    return best;
}

/* Writes the event lines of in merged with the spilled runs to out. */
static int merge_runs(prv_comms *cs, FILE *in, FILE *out, const char *spill_path)
{
    prv_run *runs = calloc(cs->n_runs, sizeof *runs);
    int ok = runs && fflush(cs->spill) == 0 && runs_open(cs, spill_path, runs);
    char *ev = NULL;
    size_t cap_ev = 0;
    ssize_t n_ev = ok ? getline(&ev, &cap_ev, in) : -1;
    for (int r = ok ? runs_first(runs, cs->n_runs) : -1; ok && (n_ev > 0 || r >= 0);
         r = runs_first(runs, cs->n_runs)) {
        int comm_first = r >= 0 && (n_ev <= 0 || line_time(runs[r].line) <= line_time(ev));
        ok = fputs(comm_first ? runs[r].line : ev, out) >= 0;
        if (comm_first)
            run_next(&runs[r]);
        else
            n_ev = getline(&ev, &cap_ev, in);
    }
    for (size_t i = 0; runs && i < cs->n_runs; i++) {
        ok = ok && runs[i].f && !ferror(runs[i].f);
        if (runs[i].f)
            fclose(runs[i].f);
        free(runs[i].line);
    }
    free(runs);
    free(ev);
    return ok && !ferror(in);
}

pw_status prv_comms_merge(prv_comms *cs, FILE *out, const char *out_path, const char *events_path,
                          const char *spill_path, pw_error *err)
{
    pw_status s = PW_OK;
    cs->n_sends = 0; /* held back by sends never received: their order is known now */
    while (s == PW_OK && cs->ready.n) {
        prv_comm c = pop_ready(cs);
        s = spill(cs, &c, spill_path, err);
    }
    if (s != PW_OK)
        return s;
    FILE *in = fopen(events_path, "r");
    if (!in)
        return pw_fail_errno(err, events_path, "cannot read");
    int ok = cs->spill ? merge_runs(cs, in, out, spill_path) : copy_rest(in, out);
    int read_err = ferror(in);
    fclose(in);
    if (cs->spill) {
        fclose(cs->spill);
        cs->spill = NULL;
        remove(spill_path);
    }
    if (!ok)
        return pw_fail_errno(err, read_err ? events_path : out_path, read_err ? "read failed" : "write failed");
    return PW_OK;
}
