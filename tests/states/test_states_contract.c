/* test_states_contract.c — the sinks write states from their description
 * alone: a hand-made producer (two views, rows named here, a state channel
 * with labels, a counter channel, a label added while the changes stream)
 * goes through the Paraver, Chrome, Perfetto and JSON Lines states
 * writers, and each output holds exactly its changes. */
#include "harness.h"

#include "views/states.h"
#include "model/dataset.h"
#include "sinks/convert/convert.h"
#include "sinks/jsonl/jsonl_dump.h"

enum { STATE = 1, COUNTER = 200 };

typedef struct step {
    int64_t t;
    int view;
    uint32_t row;
    int32_t channel;
    int64_t value;
} step;

/* Thread 0 runs, pauses (a label the producer adds while playing) and
 * runs again; the CPU's counter climbs. */
static const step steps[] = {
    {0, 0, 0, STATE, 1}, {0, 1, 0, COUNTER, 0}, {10, 0, 1, STATE, 1}, {20, 0, 0, STATE, 2},
    {25, 1, 0, COUNTER, 7}, {30, 0, 0, STATE, 1}, {40, 0, 1, STATE, 0}};
enum { N_CHANGES = sizeof steps / sizeof *steps };

static const pw_state_row thread_rows[] = {{"node/t0", "TH 1.1", "node/t0"}, {"node/t1", "TH 1.2", "node/t1"}};
static const pw_state_row cpu_rows[] = {{"CPU 0", "CPU 0", "node/cpu.0"}};
static const pw_state_view views[] = {{"thread", 2, thread_rows, 0}, {"cpu", 1, cpu_rows, 0}};

typedef struct fake {
    pw_states st;
    pw_state_change_fn change;
    void *ctx;
    int paused_known; /* the label of value 2 comes with its first change */
} fake;

static size_t n_channels(const pw_states *st, int view)
{
    (void)st;
    return view == 0 ? 1 : 1;
}

static pw_state_channel channel_at(const pw_states *st, int view, size_t i)
{
    (void)i;
    const fake *f = (const fake *)st;
    if (view == 0)
        return (pw_state_channel){STATE, "Thread state", 0, f->paused_known ? 2u : 1u};
    return (pw_state_channel){COUNTER, "Cycles", PW_STATE_COUNTER, 0};
}

static const char *label_at(const pw_states *st, int view, size_t i, size_t k, int64_t *value)
{
    (void)st, (void)view, (void)i;
    *value = (int64_t)k + 1;
    return k ? "Paused" : "Running";
}

static const char *channel_name(const pw_states *st, int view, int32_t id)
{
    (void)st;
    if (view == 0 && id == STATE)
        return "Thread state";
    return view == 1 && id == COUNTER ? "Cycles" : NULL;
}

static const char *value_label(const pw_states *st, int view, int32_t id, int64_t value)
{
    const fake *f = (const fake *)st;
    if (view != 0 || id != STATE)
        return NULL;
    return value == 1 ? "Running" : value == 2 && f->paused_known ? "Paused" : NULL;
}

static int offers(const pw_dataset *ds) { return ds != NULL; }

static pw_status start(pw_dataset *ds, pw_state_change_fn change, void *ctx, pw_states **st, pw_error *err)
{
    (void)err;
    fake *f = calloc(1, sizeof *f);
    *st = (pw_states *)f;
    if (!f)
        return PW_E_NOMEM;
    f->st = (pw_states){ds, "hand-made", 2, views, n_channels, channel_at, label_at, channel_name,
                        value_label, 0, 0, 0};
    f->change = change;
    f->ctx = ctx;
    return PW_OK;
}

static pw_status play(pw_states *st, pw_error *err)
{
    (void)err;
    fake *f = (fake *)st;
    for (int i = 0; i < N_CHANGES; i++) {
        const step *c = &steps[i];
        f->paused_known |= c->value == 2;
        if (f->change)
            f->change(f->ctx, c->t, c->view, c->row, c->channel, c->value);
    }
    st->end = 50;
    st->events = N_CHANGES;
    return PW_OK;
}

static void release(pw_states *st) { free(st); }

static const pw_states_source source = {offers, start, play, release};

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Does the n bytes at p hold the string s? */
static int holds(const char *p, size_t n, const char *s)
{
    size_t k = strlen(s);
    for (size_t i = 0; p && i + k <= n; i++)
        if (!memcmp(p + i, s, k))
            return 1;
    return 0;
}

static pw_dataset *dataset(void)
{
    static const pw_format_ops none = {.name = "none"};
    return pw_ds_new(&none, "hand-made");
}

static void paraver_states(void)
{
    pw_dataset *ds = dataset();
    pw_convert_report rep = {0};
    pw_error err;
    CHECK_EQ_INT(pw_convert_paraver_states(ds, &source, "pv", &rep, &err), PW_OK);
    CHECK_EQ_INT(rep.records_in, N_CHANGES);
    CHECK_STR(slurp("pv/thread.prv"), "#Paraver (19/01/38 at 03:14):00000000000000000050_ns:0:1:1(2:1)\n"
                                      "2:0:1:1:1:0:1:1\n2:0:1:1:2:10:1:1\n2:0:1:1:1:20:1:2\n"
                                      "2:0:1:1:1:30:1:1\n2:0:1:1:2:40:1:0\n");
    CHECK_STR(slurp("pv/cpu.prv"), "#Paraver (19/01/38 at 03:14):00000000000000000050_ns:0:1:1(1:1)\n"
                                   "2:0:1:1:1:0:200:0\n2:0:1:1:1:25:200:7\n");
    CHECK_STR(slurp("pv/thread.row"), "LEVEL NODE SIZE 1\nhostname\n\nLEVEL THREAD SIZE 2\nTH 1.1\nTH 1.2\n");
    const char *pcf = slurp("pv/thread.pcf");
    CHECK(pcf && strstr(pcf, "EVENT_TYPE\n0 1          Thread state\nVALUES\n1    Running\n2    Paused\n"));
    pw_close(ds);
}

static void chrome_states(void)
{
    pw_dataset *ds = dataset();
    pw_convert_report rep = {0};
    pw_error err;
    CHECK_EQ_INT(pw_convert_chrome_states(ds, &source, "x.states.json", &rep, &err), PW_OK);
    const char *json = slurp("x.states.json");
    CHECK(json && strstr(json, "\"args\":{\"name\":\"hand-made\"}"));
    CHECK(json && strstr(json, "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0.000,\"dur\":0.020,"
                               "\"name\":\"Running\",\"args\":{\"value\":1}}"));
    CHECK(json && strstr(json, "\"ts\":0.020,\"dur\":0.010,\"name\":\"Paused\""));
    CHECK(json && strstr(json, "\"ts\":0.030,\"dur\":0.020,\"name\":\"Running\""));
    CHECK(json && strstr(json, "{\"ph\":\"X\",\"pid\":1000001,\"tid\":200,\"ts\":0.025,\"dur\":0.025,"
                               "\"name\":\"7\""));
    pw_close(ds);
}

static void perfetto_states(void)
{
    pw_dataset *ds = dataset();
    pw_convert_report rep = {0};
    pw_error err;
    CHECK_EQ_INT(pw_convert_perfetto_states(ds, &source, "x.states.pftrace", &rep, &err), PW_OK);
    CHECK(rep.bytes_out > 0);
    const char *pb = slurp("x.states.pftrace");
    /* The names go as strings: the row titles, the channels, the labels. */
    CHECK(holds(pb, rep.bytes_out, "node/t1") && holds(pb, rep.bytes_out, "Cycles"));
    CHECK(holds(pb, rep.bytes_out, "Paused") && holds(pb, rep.bytes_out, "Running"));
    pw_close(ds);
}

static void jsonl_states(void)
{
    pw_dataset *ds = dataset();
    pw_error err;
    FILE *f = fopen("states.jsonl", "wb");
    CHECK(f != NULL);
    CHECK_EQ_INT(pw_dump_jsonl_states(ds, &source, f, &err), PW_OK);
    fclose(f);
    const char *text = slurp("states.jsonl");
    CHECK(text && strstr(text, "{\"loc\":\"node/t0\",\"view\":\"thread\",\"t\":20,\"type\":1,"
                               "\"channel\":\"Thread state\",\"value\":2,\"label\":\"Paused\"}\n"));
    CHECK(text && strstr(text, "{\"loc\":\"node/cpu.0\",\"view\":\"cpu\",\"t\":25,\"type\":200,"
                               "\"channel\":\"Cycles\",\"value\":7,\"label\":null}\n"));
    pw_close(ds);
}

TEST_MAIN(T(paraver_states), T(chrome_states), T(perfetto_states), T(jsonl_states))
