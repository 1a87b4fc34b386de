/* test_emu_mux.c — the channel rules propagation relies on
 * (src/analysis/ovniemu/emu_mux.h, emu_chan.h): a mux refuses a stack as
 * its output and an output another mux writes; a bay that never saw a
 * change (no dirty list yet) propagates nothing; a mux copies its
 * selected input and emits it once per event. */
#include <stdlib.h>

#include "harness.h"

#include "analysis/ovniemu/emu_mux.h"
#include "analysis/ovniemu/emu_thread.h"

static int emitted;
static int64_t last_value;

static void count_emit(void *ctx, int64_t time, int view, uint32_t row, int32_t type, int64_t value)
{
    (void)ctx, (void)time, (void)view, (void)row, (void)type;
    emitted++;
    last_value = value;
}

static void test_refused_outputs(void)
{
    emu_chan *c = emu_chan_alloc(3, sizeof *c);
    CHECK(c != NULL);
    emu_chan_init(&c[0], "select", 0);
    emu_chan_init(&c[1], "stack", 1);
    emu_chan_init(&c[2], "output", 0);
    emu_mux a = {0}, b = {0}, s = {0};
    CHECK_EQ_INT(emu_mux_init(&s, &c[0], &c[1], emu_select_running), -1);
    CHECK_EQ_INT(emu_mux_init(&a, &c[0], &c[2], emu_select_running), 0);
    CHECK_EQ_INT(emu_mux_init(&b, &c[0], &c[2], emu_select_active), -1);
    for (int i = 0; i < 3; i++)
        emu_chan_free(&c[i]);
    free(c);
}

static void test_propagation(void)
{
    emu_bay bay = {0};
    bay.emit = count_emit;
    CHECK_EQ_INT(emu_bay_propagate(&bay), 0); /* no change ever: the list is NULL */
    emu_chan *c = emu_chan_alloc(3, sizeof *c);
    CHECK(c != NULL);
    emu_chan_init(&c[0], "state", 0);
    emu_chan_init(&c[1], "input", 0);
    emu_chan_init(&c[2], "output", 0);
    emu_chan_bind(&c[2], 0, 0, 10, EMU_PRV_SKIPDUP);
    emu_mux m = {0};
    m.input = &c[1];
    CHECK_EQ_INT(emu_mux_init(&m, &c[0], &c[2], emu_select_running), 0);
    CHECK_EQ_INT(emu_chan_set(&bay, &c[1], emu_int(7)), 0);
    CHECK_EQ_INT(emu_chan_set(&bay, &c[0], emu_int(EMU_TH_RUNNING)), 0);
    CHECK_EQ_INT(emu_bay_propagate(&bay), 0);
    CHECK_EQ_INT(emitted, 1);
    CHECK_EQ_INT(last_value, 7);
    CHECK_EQ_INT(emu_bay_propagate(&bay), 0); /* nothing changed since */
    CHECK_EQ_INT(emitted, 1);
    for (int i = 0; i < 3; i++)
        emu_chan_free(&c[i]);
    free(c);
    emu_bay_free(&bay);
}

TEST_MAIN(T(test_refused_outputs), T(test_propagation))
