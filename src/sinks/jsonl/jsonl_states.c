/* jsonl_states.c — states (analysis/states.h) as JSON Lines (dump
 * --states): one object per change of a row's channel, as the producer
 * emits it, with the names the description gives the row, the channel
 * and the value. */
#include <string.h>

#include "analysis/states.h"
#include "core/outbuf.h"
#include "sinks/jsonl/jsonl_dump.h"

typedef struct states_out {
    pw_outbuf out;
    const pw_states *st;
} states_out;

/* A NUL-terminated name as a JSON string, or null. */
static void put_str(pw_outbuf *o, const char *s)
{
    if (s)
        pw_out_json_string(o, s, strlen(s));
    else
        pw_out_str(o, "null");
}

static void on_change(void *ctx, int64_t time, int view, uint32_t row, int32_t channel, int64_t value)
{
    states_out *so = ctx;
    const pw_states *st = so->st;
    pw_outbuf *o = &so->out;
    pw_out_str(o, "{\"loc\":");
    put_str(o, st->views[view].rows[row].loc);
    pw_out_str(o, ",\"view\":\"");
    pw_out_str(o, st->views[view].name);
    pw_out_str(o, "\",\"t\":");
    pw_out_i64(o, time);
    pw_out_str(o, ",\"type\":");
    pw_out_i64(o, channel);
    pw_out_str(o, ",\"channel\":");
    put_str(o, st->channel_name(st, view, channel));
    pw_out_str(o, ",\"value\":");
    pw_out_i64(o, value);
    pw_out_str(o, ",\"label\":");
    put_str(o, st->value_label(st, view, channel, value));
    pw_out_str(o, "}\n");
}

pw_status pw_dump_jsonl_states(pw_dataset *ds, const pw_states_source *src, FILE *out, pw_error *err)
{
    states_out so;
    memset(&so, 0, sizeof so);
    pw_status s = pw_outbuf_init(&so.out, out, err);
    if (s != PW_OK)
        return s;
    pw_states *st = NULL;
    s = src->start(ds, on_change, &so, &st, err);
    so.st = st;
    if (s == PW_OK)
        s = src->play(st, err);
    pw_error e2;
    pw_status fs = pw_outbuf_flush(&so.out, s == PW_OK ? err : &e2);
    pw_outbuf_free(&so.out);
    src->release(st);
    return s == PW_OK ? fs : s;
}
