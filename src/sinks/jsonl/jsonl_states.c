/* jsonl_states.c — states (views/states.h) as JSON Lines (dump
 * --states): one object per change of a row's channel, as the producer
 * emits it, with the names the description gives the row, the channel
 * and the value. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "views/states.h"
#include "core/outbuf.h"
#include "sinks/jsonl/jsonl_dump.h"

/* The JSON text of the names lines repeat (rows, channels, labels: a few
 * hundred, on millions of lines), kept from their first use so that each
 * is escaped once.  A slot is found by the name's address and trusted
 * only when the text there is still the same (a table may grow and move). */
enum { NAME_SLOTS = 512, NAME_MAX_RAW = 64, NAME_MAX_JSON = 6 * NAME_MAX_RAW + 2 };
typedef struct name_slot {
    const char *at;
    char raw[NAME_MAX_RAW];
    char json[NAME_MAX_JSON];
    uint16_t json_len;
} name_slot;

typedef struct states_out {
    pw_outbuf out;
    const pw_states *st;
    name_slot *names; /* NAME_SLOTS */
} states_out;

/* A NUL-terminated name as a JSON string, or null. */
static void put_str(states_out *so, const char *s)
{
    pw_outbuf *o = &so->out;
    if (!s) {
        pw_out_str(o, "null");
        return;
    }
    name_slot *slot = &so->names[((uintptr_t)s >> 3) % NAME_SLOTS];
    if (slot->at == s && !strcmp(slot->raw, s)) {
        pw_out_mem(o, slot->json, slot->json_len);
        return;
    }
    size_t n = strlen(s);
    if (n >= NAME_MAX_RAW) {
        pw_out_json_string(o, s, n);
        return;
    }
    pw_outbuf_reserve(o, NAME_MAX_JSON); /* the text stays in the buffer to be copied */
    size_t start = o->len;
    pw_out_json_string(o, s, n);
    if (o->failed || o->len < start || o->len - start > NAME_MAX_JSON)
        return;
    slot->at = s;
    memcpy(slot->raw, s, n + 1);
    slot->json_len = (uint16_t)(o->len - start);
    memcpy(slot->json, o->buf + start, slot->json_len);
}

static void on_change(void *ctx, int64_t time, int view, uint32_t row, int32_t channel, int64_t value)
{
    states_out *so = ctx;
    const pw_states *st = so->st;
    pw_outbuf *o = &so->out;
    pw_out_str(o, "{\"loc\":");
    put_str(so, st->views[view].rows[row].loc);
    pw_out_str(o, ",\"view\":\"");
    pw_out_str(o, st->views[view].name);
    pw_out_str(o, "\",\"t\":");
    pw_out_i64(o, time);
    pw_out_str(o, ",\"type\":");
    pw_out_i64(o, channel);
    pw_out_str(o, ",\"channel\":");
    put_str(so, st->channel_name(st, view, channel));
    pw_out_str(o, ",\"value\":");
    pw_out_i64(o, value);
    pw_out_str(o, ",\"label\":");
    put_str(so, st->value_label(st, view, channel, value));
    pw_out_str(o, "}\n");
}

pw_status pw_dump_jsonl_states(pw_dataset *ds, const pw_states_source *src, FILE *out, pw_error *err)
{
    states_out so;
    memset(&so, 0, sizeof so);
    so.names = calloc(NAME_SLOTS, sizeof *so.names);
    if (!so.names)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    pw_status s = pw_outbuf_init(&so.out, out, err);
    if (s != PW_OK) {
        free(so.names);
        return s;
    }
    pw_states *st = NULL;
    s = src->start(ds, on_change, &so, &st, err);
    so.st = st;
    if (s == PW_OK)
        s = src->play(st, err);
    pw_error e2;
    pw_status fs = pw_outbuf_flush(&so.out, s == PW_OK ? err : &e2);
    pw_outbuf_free(&so.out);
    free(so.names);
    src->release(st);
    return s == PW_OK ? fs : s;
}
