/* chrome_states.c — states (analysis/states.h) as Chrome JSON trace
 * events, which chrome://tracing and ui.perfetto.dev open: a process per
 * row of every view (named by the row's title), a track per channel in it
 * (named by the channel), and one complete slice ("X") per value a
 * channel held (named by the value's label: "Running", "MPI_Allreduce", a
 * task type...; values without a label by their number).  Value 0 (no
 * state) draws nothing. */
#include <stdio.h>
#include <string.h>

#include "analysis/state_spans.h"
#include "analysis/states.h"
#include "core/outbuf.h"
#include "sinks/convert/convert.h"
#include "sinks/convert/states_file.h"

typedef struct chrome_out {
    pw_outbuf out;
    const pw_states *st;
    pw_state_spans spans;
} chrome_out;

/* A NUL-terminated name as a JSON string. */
static void put_str(pw_outbuf *o, const char *s) { pw_out_json_string(o, s, strlen(s)); }

/* ns as µs with three decimals. */
static void put_us(pw_outbuf *o, int64_t ns)
{
    pw_out_i64(o, ns / 1000);
    int64_t f = ns % 1000;
    char d[4] = {'.', (char)('0' + f / 100), (char)('0' + f / 10 % 10), (char)('0' + f % 10)};
    pw_out_mem(o, d, 4);
}

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

static void on_span(void *ctx, int view, uint32_t row, int32_t channel, int64_t value, int64_t t0,
                    int64_t t1, int first)
{
    chrome_out *co = ctx;
    pw_outbuf *o = &co->out;
    if (first) {
        const char *name = co->st->channel_name(co->st, view, channel);
        char fallback[32];
        snprintf(fallback, sizeof fallback, "type %d", channel);
        metadata(o, "thread_name", pid_of(view, row), channel, name ? name : fallback);
        return;
    }
    if (!value)
        return;
    const char *label = co->st->value_label(co->st, view, channel, value);
    pw_out_str(o, ",\n{\"ph\":\"X\",\"pid\":");
    pw_out_u64(o, pid_of(view, row));
    pw_out_str(o, ",\"tid\":");
    pw_out_i64(o, channel);
    pw_out_str(o, ",\"ts\":");
    put_us(o, t0);
    pw_out_str(o, ",\"dur\":");
    put_us(o, t1 - t0);
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
    chrome_out co;
    memset(&co, 0, sizeof co);
    co.spans = (pw_state_spans){NULL, 0, 0, on_span, &co, 0};
    pw_states_file how = {&co.out, pw_state_spans_change, &co.spans, begin, end, &co, 0};
    pw_status s = pw_states_write_file(ds, src, path, &how, rep, err);
    pw_outbuf_free(&co.out);
    pw_state_spans_free(&co.spans);
    return s;
}
