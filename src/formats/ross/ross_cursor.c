/* ross_cursor.c — the cursor over one stream location: the runs of one PE
 * in a headered file (found by the open-time walk), or a whole event trace.
 * Records come out in file order, which per PE is sample order. */
#include <stdlib.h>
#include <string.h>

#include "formats/ross/ross.h"

pw_status ross_stream_init(pw_dataset *ds, ross_stream *s, uint32_t loc, size_t window_cap,
                           pw_error *err)
{
    const ross_dataset *rd = ds->impl;
    int32_t si = rd->stream_of_loc[loc];
    if (si < 0)
        return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET, "location %u is not a ROSS stream",
                       loc);
    memset(s, 0, sizeof *s);
    s->rd = rd;
    s->def = &rd->streams[si];
    s->file = &rd->files[s->def->file];
    s->run = 0;
    if (ross_idcache_init(&s->ids, 1024) < 0)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    s->off = s->def->n_runs ? s->def->runs[0].begin : 0;
    pw_status st = pw_window_open_seen(&s->w, s->file->path, window_cap, ROSS_MAX_PAYLOAD + 64,
                                       &s->file->seen, err);
    if (st == PW_OK)
        s->w.progress = &ds->progress_done;
    return st;
}

void ross_stream_close(ross_stream *s)
{
    pw_window_close(&s->w);
    ross_idcache_free(&s->ids);
}

/* Whether the stream has bytes left at s->off, moving to the next run at
 * the end of one. */
static int stream_has_more(ross_stream *s)
{
    if (s->def->peid < 0)
        return pw_window_left(&s->w, s->off) > 0;
    while (s->run < s->def->n_runs && s->off >= s->def->runs[s->run].end) {
        if (++s->run < s->def->n_runs)
            s->off = s->def->runs[s->run].begin;
    }
    return s->run < s->def->n_runs;
}

pw_status ross_stream_step(ross_stream *s, const char **code, pw_error *err)
{
    if (!stream_has_more(s))
        return PW_END;
    pw_status st = ross_record_at(&s->w, s->file->kind, s->rd->lp_forced, s->off, &s->h, code, err);
    if (st == PW_END) { /* the file shrank since the walk */
        *code = "ross.truncated-record";
        return pw_fail(err, PW_E_DATA, s->w.path, (int64_t)s->off,
                       "a record expected, the file ends here");
    }
    if (st != PW_OK)
        return st;
    s->off += s->h.size;
    return PW_OK;
}

int32_t ross_record_location(ross_stream *s)
{
    const ross_hdr *h = &s->h;
    const ross_idmap *ids = &s->rd->ids;
    if (h->rec == ROSS_REC_EVTRACE)
        return ross_idcache_get(&s->ids, ids, ROSS_PARENT_ANY_LP, h->lpid);
    int32_t pe = ross_idcache_get(&s->ids, ids, ROSS_PARENT_PE, h->peid);
    if (pe < 0 || h->rec == ROSS_REC_PE || h->rec == ROSS_REC_VT_PE)
        return pe;
    int32_t kp = ross_idcache_get(&s->ids, ids, pe, h->kpid);
    if (kp < 0 || h->rec == ROSS_REC_KP || h->rec == ROSS_REC_VT_KP)
        return kp;
    return ross_idcache_get(&s->ids, ids, kp, h->lpid);
}

static pw_status ross_cursor_next(pw_cursor *c, pw_error *err)
{
    ross_stream *s = c->impl;
    pw_status st = ross_stream_step(s, &c->err_code, err);
    if (st != PW_OK)
        return st;
    const ross_hdr *h = &s->h;
    int32_t loc = ross_record_location(s);
    c->rec.location = loc >= 0 ? (uint32_t)loc : c->location;
    c->rec.schema = (uint32_t)h->rec;
    c->rec.type = c->ds->schemas[h->rec]->name;
    c->rec.kind = c->ds->schemas[h->rec]->kind;
    /* The final RT sample's DBL_MAX is a marker, not a time (final_sample). */
    c->rec.clock = h->ts >= ROSS_FINAL_TS ? PW_CLOCK_NONE : PW_CLOCK_VIRTUAL;
    c->rec.vt = h->ts;
    c->rec.offset = s->off - h->size;
    c->rec.size = h->size;
    return PW_OK;
}

static void ross_cursor_decode(pw_cursor *c, pw_value *values)
{
    ross_stream *s = c->impl;
    ross_decode(s->rd, &s->h, s->file->kind, values);
}

static void ross_cursor_close(pw_cursor *c)
{
    ross_stream *s = c->impl;
    if (!s)
        return;
    ross_stream_close(s);
    free(s);
}

static const pw_cursor_ops ross_cursor_ops = {
    .next = ross_cursor_next,
    .decode = ross_cursor_decode,
    .close = ross_cursor_close,
};

pw_status ross_cursor_open(pw_dataset *ds, pw_cursor *c, pw_error *err)
{
    ross_stream *s = calloc(1, sizeof *s);
    if (!s)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    pw_status st = ross_stream_init(ds, s, c->location, c->window_cap, err);
    if (st != PW_OK) {
        ross_stream_close(s);
        free(s);
        return st;
    }
    c->impl = s;
    c->ops = &ross_cursor_ops;
    return PW_OK;
}
