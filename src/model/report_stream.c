/* report_stream.c — streamed arrays (pw_report_stream): each row is
 * rendered once finished and freed, so the tree holds one row at a time. */
#include <stdlib.h>

#include "model/report.h"
#include "model/report_long.h"

/* The stream taking rows on this thread (reports are filled from one
 * thread at a time), so that every add can tell whether it finishes a row. */
static _Thread_local report_stream *open_stream;

/* Renders and frees the pending row, if there is one. */
static void flush_pending(report_stream *st)
{
    json_t *row = json_array_get(st->pending, 0);
    if (!row)
        return;
    pw_report *r = st->report;
    if (r->live) {
        r->live->row(r, st, row);
    } else if (json_dumpf(row, st->spool, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17)) != 0 ||
               fputc('\n', st->spool) == EOF) {
        r->io_failed = 1;
    }
    st->all_objects = st->all_objects && json_is_object(row);
    st->rows++;
    st->long_rows += report_long_count(row);
    json_array_clear(st->pending);
}

static void stream_close(report_stream *st)
{
    flush_pending(st);
    if (st->report->live)
        st->report->live->end(st->report, st);
    else if (fflush(st->spool) != 0)
        st->report->io_failed = 1;
    st->open = 0;
    open_stream = NULL;
}

void report_stream_before_add(json_t *parent)
{
    report_stream *st = open_stream;
    if (st && parent == st->pending)
        flush_pending(st);
    else if (st && parent == st->report->root)
        stream_close(st);
}

void report_stream_close_open(pw_report *r)
{
    if (open_stream && open_stream->report == r)
        stream_close(open_stream);
}

/* Spooled: an empty array stands for the stream in the tree, its rows
 * wait in a temporary file.  Live (JSON): the sink writes the root so
 * far, then opens the array. */
static int stream_start(pw_report *r, report_stream *st, const char *key)
{
    if (!r->live) {
        st->spool = tmpfile();
        st->placeholder = (json_t *)pw_rnode_array(pw_report_root(r), key);
        return st->spool && st->placeholder;
    }
    return r->live->start(r, key);
}

pw_rnode *pw_report_stream(pw_report *r, const char *key)
{
    if (!r || !r->opened)
        return r ? pw_rnode_array(pw_report_root(r), key) : NULL;
    report_stream_close_open(r);
    report_stream *st = calloc(1, sizeof *st);
    report_stream **grown = realloc(r->streams, (r->n_streams + 1) * sizeof *grown);
    if (grown)
        r->streams = grown;
    if (!st || !grown || !(st->pending = json_array())) {
        free(st);
        pw_report_set_nomem();
        return NULL;
    }
    *st = (report_stream){.report = r, .pending = st->pending, .all_objects = 1, .open = 1};
    r->streams[r->n_streams++] = st;
    if (!stream_start(r, st, key)) {
        r->io_failed = 1;
        return NULL;
    }
    open_stream = st;
    return (pw_rnode *)st->pending;
}

const report_stream *report_stream_of(const pw_report *r, const json_t *arr)
{
    for (size_t i = 0; r && arr && i < r->n_streams; i++)
        if (r->streams[i]->placeholder == arr)
            return r->streams[i];
    return NULL;
}

void report_stream_free_all(pw_report *r)
{
    for (size_t i = 0; i < r->n_streams; i++) {
        report_stream *st = r->streams[i];
        if (open_stream == st)
            open_stream = NULL;
        json_decref(st->pending);
        if (st->spool)
            fclose(st->spool);
        free(st);
    }
    free(r->streams);
    r->streams = NULL;
    r->n_streams = 0;
}
