/* chrome_states.c — states (views/states.h) as Chrome JSON trace
 * events, which chrome://tracing and ui.perfetto.dev open: a process per
 * row of every view (named by the row's title), a track per channel in it
 * (named by the channel), and one complete slice ("X") per value a
 * channel held (named by the value's label: "Running", "MPI_Allreduce", a
 * task type...; values without a label by their number).  Value 0 (no
 * state) draws nothing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views/state_spans.h"
#include "views/states.h"
#include "core/outbuf.h"
#include "sinks/convert/convert.h"
#include "sinks/convert/states_file.h"

/* The JSON text of a label ("Running", quotes included), escaped once:
 * labels are few and each slice repeats one.  A direct-mapped cache by
 * the label's address (value_label's pointers are stable: states.h). */
enum { NAME_TEXT = 62, NAME_BITS = 8, NAME_SLOTS = 1 << NAME_BITS };
typedef struct name_text {
    const char *label; /* NULL: empty slot */
    uint8_t len;       /* 0: the label's text does not fit NAME_TEXT */
    char text[NAME_TEXT];
} name_text;

typedef struct chrome_out {
    pw_outbuf out;
    const pw_states *st;
    pw_state_spans spans;
    name_text names[NAME_SLOTS];
} chrome_out;

/* A NUL-terminated name as a JSON string. */
static void put_str(pw_outbuf *o, const char *s) { pw_out_json_string(o, s, strlen(s)); }

static uint64_t pid_of(int view, uint32_t row) { return (uint64_t)view * 1000000 + row + 1; }

static void metadata(pw_outbuf *o, const char *what, uint64_t pid, int32_t tid, const char *name)
{
    pw_out_str(o, ",\n{\"ph\":\"M\",\"name\":\"");
    pw_out_str(o, what);
    pw_out_str(o, "\",\"pid\":");
    pw_out_u64(o, pid);
    if (tid) {
        pw_out_str(o, ",\"tid\":");
        pw_out_i64(o, tid);
    }
    pw_out_str(o, ",\"args\":{\"name\":");
    put_str(o, name);
    pw_out_str(o, "}}");
}

/* A slice's line a piece at a time: what the fast path leaves (long
 * labels, a full memory buffer). */
static void span_line_slow(chrome_out *co, int view, uint32_t row, int32_t channel, int64_t value,
                           int64_t t0, int64_t t1, const char *label)
{
    pw_outbuf *o = &co->out;
    pw_out_str(o, ",\n{\"ph\":\"X\",\"pid\":");
    pw_out_u64(o, pid_of(view, row));
    pw_out_str(o, ",\"tid\":");
    pw_out_i64(o, channel);
    pw_out_str(o, ",\"ts\":");
    pw_out_us(o, t0);
    pw_out_str(o, ",\"dur\":");
    pw_out_us(o, t1 - t0);
    pw_out_str(o, ",\"name\":");
    if (label) {
        put_str(o, label);
    } else {
        pw_out_char(o, '"');
        pw_out_i64(o, value);
        pw_out_char(o, '"');
    }
    pw_out_str(o, ",\"args\":{\"value\":");
    pw_out_i64(o, value);
    pw_out_str(o, "}}");
}

/* The label's JSON text from the cache, escaped on a miss; NULL when it
 * does not fit a slot (kept so: a long label is escaped once per slice,
 * straight into the output, never into a buffer of its own) or memory
 * ran out. */
static const name_text *name_of(chrome_out *co, const char *label)
{
    name_text *nt = &co->names[pw_state_slot(0, 0, (uintptr_t)label, NAME_BITS)];
    if (nt->label == label)
        return nt->len ? nt : NULL;
    pw_outbuf m;
    pw_error e;
    if (pw_outbuf_init_memory(&m, 2 * NAME_TEXT, &e) != PW_OK)
        return NULL;
    put_str(&m, label);
    if (!m.failed) {
        nt->label = label;
        nt->len = m.len <= NAME_TEXT ? (uint8_t)m.len : 0;
        memcpy(nt->text, m.buf, nt->len);
    }
    pw_outbuf_free(&m);
    return nt->label == label && nt->len ? nt : NULL;
}

/* Fixed text, then p past it. */
#define PUT_TEXT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

/* The longest fast line: its fixed text (85 bytes), five numbers of up
 * to 21 characters, a name, and what pw_put_u64 may write past a number. */
enum { SPAN_LINE_MAX = 85 + 5 * 21 + NAME_TEXT + 24 };

/* A slice's line made in place in the output buffer: one room check, the
 * label's text copied escaped already (the bytes of span_line_slow). */
static void span_line(chrome_out *co, int view, uint32_t row, int32_t channel, int64_t value,
                      int64_t t0, int64_t t1, const char *label)
{
    pw_outbuf *o = &co->out;
    const name_text *nt = label ? name_of(co, label) : NULL;
    pw_outbuf_reserve(o, SPAN_LINE_MAX);
    if ((label && !nt) || o->cap - o->len < SPAN_LINE_MAX) {
        span_line_slow(co, view, row, channel, value, t0, t1, label);
        return;
    }
    char *start = o->buf + o->len, *p = start;
    p = PUT_TEXT(p, ",\n{\"ph\":\"X\",\"pid\":");
    p += pw_put_u64(p, pid_of(view, row));
    p = PUT_TEXT(p, ",\"tid\":");
    p += pw_put_i64(p, channel);
    p = PUT_TEXT(p, ",\"ts\":");
    p += pw_put_us(p, t0);
    p = PUT_TEXT(p, ",\"dur\":");
    p += pw_put_us(p, t1 - t0);
    p = PUT_TEXT(p, ",\"name\":");
    if (nt) {
        memcpy(p, nt->text, nt->len);
        p += nt->len;
    } else {
        *p++ = '"';
        p += pw_put_i64(p, value);
        *p++ = '"';
    }
    p = PUT_TEXT(p, ",\"args\":{\"value\":");
    p += pw_put_i64(p, value);
    p = PUT_TEXT(p, "}}");
    o->len += (size_t)(p - start);
}

static void on_span(void *ctx, int view, uint32_t row, int32_t channel, int64_t value, int64_t t0,
                    int64_t t1, int first)
{
    chrome_out *co = ctx;
    if (first) {
        const char *name = co->st->channel_name(co->st, view, channel);
        char fallback[32];
        snprintf(fallback, sizeof fallback, "type %d", channel);
        metadata(&co->out, "thread_name", pid_of(view, row), channel, name ? name : fallback);
        return;
    }
    if (value)
        span_line(co, view, row, channel, value, t0, t1, co->st->value_label(co->st, view, channel, value));
}

/* The head: the producer as process 0, then a process per row, named by
 * its title. */
static void begin(void *ctx, const pw_states *st)
{
    chrome_out *co = ctx;
    pw_outbuf *o = &co->out;
    co->st = st;
    pw_out_str(o, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n{\"ph\":\"M\",\"name\":"
                  "\"process_name\",\"pid\":0,\"args\":{\"name\":");
    put_str(o, st->title);
    pw_out_str(o, "}}");
    for (int v = 0; v < st->n_views; v++)
        for (uint32_t i = 0; i < st->views[v].n_rows; i++)
            metadata(o, "process_name", pid_of(v, i), 0, st->views[v].rows[i].title);
}

/* The tail: the spans still open end with the states. */
static int end(void *ctx, const pw_states *st)
{
    chrome_out *co = ctx;
    pw_state_spans_close(&co->spans, st->end);
    pw_out_str(&co->out, "\n]}\n");
    return co->spans.failed ? -1 : 0;
}

pw_status pw_convert_chrome_states(pw_dataset *ds, const pw_states_source *src, const char *path,
                                   pw_convert_report *rep, pw_error *err)
{
    chrome_out *co = calloc(1, sizeof *co); /* its name cache: 18 kB, not for the stack */
    if (!co)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    co->spans = (pw_state_spans){NULL, 0, 0, on_span, co, 0};
    pw_states_file how = {&co->out, pw_state_spans_change, &co->spans, begin, end, co, 0};
    pw_status s = pw_states_write_file(ds, src, path, &how, rep, err);
    pw_outbuf_free(&co->out);
    pw_state_spans_free(&co->spans);
    free(co);
    return s;
}
