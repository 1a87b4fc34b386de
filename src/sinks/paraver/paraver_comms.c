/* paraver_comms.c — Paraver communication records (see paraver_comms.h). */
#include "sinks/paraver/paraver_comms.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sinks/convert/convert.h"

void prv_comms_free(prv_comms *cs)
{
    pw_keymap_free(&cs->by_flow);
    free(cs->c);
    memset(cs, 0, sizeof *cs);
}

int prv_comms_end(prv_comms *cs, uint64_t flow, int half, uint32_t task, uint32_t thread, int64_t t, uint64_t size,
                  int64_t tag)
{
    pw_key k = {{flow, 0, 0, 0}};
    int added;
    uint64_t *v = pw_keymap_get(&cs->by_flow, &k, cs->n + 1, &added);
    if (!v)
        return 0;
    if (added && (cs->n == UINT32_MAX || !pw_grow_zeroed((void **)&cs->c, &cs->cap, cs->n++, sizeof *cs->c)))
        return 0;
    prv_comm *c = &cs->c[*v - 1];
    c->halves |= half;
    if (half == 1) {
        c->send_t = t, c->send_task = task, c->send_thread = thread, c->size = size, c->tag = tag;
    } else {
        c->recv_t = t, c->recv_task = task, c->recv_thread = thread;
    }
    return 1;
}

uint64_t prv_comms_complete(const prv_comms *cs)
{
    uint64_t n = 0;
    for (size_t i = 0; i < cs->n; i++)
        n += cs->c[i].halves == 3;
    return n;
}

static int by_send_time(const void *a, const void *b)
{
    const prv_comm *x = a, *y = b;
    return (x->send_t > y->send_t) - (x->send_t < y->send_t);
}

static void write_comm(FILE *f, const prv_comm *c)
{
    fprintf(f, "3:0:1:%u:%u:%" PRId64 ":%" PRId64 ":0:1:%u:%u:%" PRId64 ":%" PRId64 ":%" PRIu64 ":%" PRId64 "\n",
            c->send_task, c->send_thread, c->send_t, c->send_t, c->recv_task, c->recv_thread, c->recv_t, c->recv_t,
            c->size, c->tag < 0 ? 0 : c->tag);
}

/* The time of a "2:cpu:appl:task:thread:time:..." line (its sixth field). */
static int64_t line_time(const char *line)
{
    for (int colons = 0; *line && colons < 5; line++)
        colons += *line == ':';
    return strtoll(line, NULL, 10);
}

pw_status prv_comms_merge(prv_comms *cs, const char *path, pw_error *err)
{
    size_t k = 0;
    for (size_t i = 0; i < cs->n; i++) /* complete ones first, then sorted */
        if (cs->c[i].halves == 3)
            cs->c[k++] = cs->c[i];
    if (!k)
        return PW_OK;
    qsort(cs->c, k, sizeof *cs->c, by_send_time);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.events", path);
    if (rename(path, tmp) != 0)
        return pw_fail_errno(err, path, "cannot rename");
    FILE *in = fopen(tmp, "r"), *out = in ? fopen(path, "w") : NULL;
    char *line = NULL;
    size_t cap = 0, next = 0;
    for (int first = 1; out && getline(&line, &cap, in) > 0; first = 0) {
        for (int64_t t = first ? INT64_MIN : line_time(line); next < k && cs->c[next].send_t <= t; next++)
            write_comm(out, &cs->c[next]);
        fputs(line, out);
    }
    for (; out && next < k; next++)
        write_comm(out, &cs->c[next]);
    free(line);
    int bad = !out || ferror(in) || fclose(out) != 0;
    if (in)
        fclose(in);
    remove(tmp);
    return bad ? pw_fail_errno(err, path, "cannot write the communication records") : PW_OK;
}
