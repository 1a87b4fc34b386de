/* emu_chrome.c — the emulator's states as Chrome JSON trace events, which
 * chrome://tracing and ui.perfetto.dev open: a process per thread and per
 * CPU (named as the Paraver rows are), a track per channel in it (named by
 * the Paraver type), and one complete slice ("X") per value a channel held
 * (named by the value's label: "Running", "nOS-V: API: Submit" is shown as
 * "API: Submit" on the nOS-V subsystem track, "MPI_Allreduce", a task
 * type...; values without a label by their number).  Value 0 (no state)
 * draws nothing.  Written under a temporary name and renamed at the end. */
#include <stdio.h>
#include <string.h>

#include "analysis/ovniemu/emu.h"
#include "analysis/ovniemu/emu_spans.h"
#include "core/outbuf.h"

typedef struct chrome_out {
    pw_outbuf out;
    const emu *e;
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

static void on_span(void *ctx, int view, uint32_t row, int32_t type, int64_t value, int64_t t0,
                    int64_t t1, int first)
{
    chrome_out *co = ctx;
    pw_outbuf *o = &co->out;
    const emu_pcf_type *t = emu_pcf_find(&co->e->pcf[view], type);
    if (first) {
        char fallback[32];
        snprintf(fallback, sizeof fallback, "type %d", type);
        metadata(o, "thread_name", pid_of(view, row), type, t ? t->label : fallback);
        return;
    }
    if (!value)
        return;
    const char *label = emu_pcf_label(t, value);
    pw_out_str(o, ",\n{\"ph\":\"X\",\"pid\":");
    pw_out_u64(o, pid_of(view, row));
    pw_out_str(o, ",\"tid\":");
    pw_out_i64(o, type);
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

/* A process per row, named as the Paraver rows are. */
static void name_rows(pw_outbuf *o, const emu *e)
{
    for (uint32_t i = 0; i < e->sys.n_threads; i++)
        metadata(o, "process_name", pid_of(EMU_VIEW_THREAD, i), 0,
                 e->ds->locs[e->sys.threads[i].loc].path);
    for (uint32_t i = 0; i < e->sys.n_cpus; i++)
        metadata(o, "process_name", pid_of(EMU_VIEW_CPU, i), 0, e->sys.cpus[i].name);
}

pw_status pw_emu_write_chrome(pw_dataset *ds, const char *path, uint64_t *events, pw_error *err)
{
    char tmp[4096];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp)
        return pw_fail(err, PW_E_USAGE, path, PW_NO_OFFSET, "output path too long");
    FILE *f = fopen(tmp, "w");
    if (!f)
        return pw_fail_errno(err, tmp, "cannot create");
    chrome_out co;
    memset(&co, 0, sizeof co);
    emu e;
    co.e = &e;
    emu_spans spans = {NULL, 0, 0, on_span, &co, 0};
    pw_status s = pw_outbuf_init(&co.out, f, err);
    if (s == PW_OK)
        s = emu_start(&e, ds, emu_spans_change, &spans, err);
    else
        memset(&e, 0, sizeof e);
    if (s == PW_OK) {
        pw_out_str(&co.out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n{\"ph\":\"M\",\"name\":"
                            "\"process_name\",\"pid\":0,\"args\":{\"name\":\"ovni emulation\"}}");
        name_rows(&co.out, &e);
        s = emu_play(&e, err);
    }
    if (s == PW_OK) {
        emu_spans_close(&spans, e.last_time);
        pw_out_str(&co.out, "\n]}\n");
        if (spans.failed)
            s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    pw_error e2;
    pw_status fs = co.out.buf ? pw_outbuf_flush(&co.out, s == PW_OK ? err : &e2) : PW_OK;
    pw_outbuf_free(&co.out);
    if (s == PW_OK)
        s = fs;
    int bad = ferror(f);
    if ((fclose(f) != 0 || bad) && s == PW_OK)
        s = pw_fail_errno(err, tmp, "cannot write");
    if (s == PW_OK && rename(tmp, path) != 0)
        s = pw_fail_errno(err, path, "cannot rename into place");
    if (s != PW_OK)
        remove(tmp);
    if (events)
        *events = e.events;
    emu_free(&e);
    emu_spans_free(&spans);
    return s;
}
