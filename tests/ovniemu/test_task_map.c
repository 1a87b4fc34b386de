/* test_task_map.c — the task id map (src/analysis/ovniemu/emu_task_map.h)
 * against a plain array of every id, in the orders traces give ids: in
 * order with types repeating in a loop, a few ids apart (threads creating
 * and ending tasks at once), every other id (parallel tasks among
 * others), far below the newest (a long task), values changed (a
 * parallel task ending again), and big jumps.  Each also checks that the
 * runs stay within the bound the header states. */
#include "harness.h"
#include "xorshift.h"

#include "analysis/ovniemu/emu_task_map.h"

enum { IDS = 200000 };

static uint32_t *reference;

/* Sets id in both and checks every id the map could have touched. */
static void set(emu_task_map *m, uint32_t id, uint32_t value)
{
    CHECK_EQ_INT(emu_task_map_set(m, id, value), 0);
    reference[id] = value;
}

static int same_everywhere(const emu_task_map *m, uint32_t hi)
{
    for (uint32_t id = 0; id <= hi; id++)
        if (emu_task_map_get(m, id) != reference[id]) {
            fprintf(stderr, "id %u: %u, want %u\n", id, emu_task_map_get(m, id), reference[id]);
            return 0;
        }
    return 1;
}

static void start(void) { reference = calloc(IDS + 1, sizeof *reference); }

/* Types created by a loop of 1 to 12 constructs: one run per loop. */
static void periodic_types_in_order(void)
{
    start();
    emu_task_map m = {0};
    uint32_t id = 1;
    for (uint32_t period = 1; period <= EMU_TASK_MAP_PERIOD; period++)
        for (uint32_t k = 0; k < 10000; k++, id++)
            set(&m, id, 1 + (k % period) * 7);
    CHECK(same_everywhere(&m, id + 10));
    CHECK(m.n <= EMU_TASK_MAP_PERIOD + 1);
    emu_task_map_free(&m);
    free(reference);
}

/* Ids set in shuffled blocks of 64 (within the window), every other id
 * (tasks of another kind have the rest), with two alternating values. */
static void out_of_order_within_window(void)
{
    start();
    emu_task_map m = {0};
    uint64_t rng = 42;
    for (uint32_t block = 0; block < IDS / 128; block++) {
        uint32_t ids[64];
        for (uint32_t k = 0; k < 64; k++)
            ids[k] = 1 + 2 * (block * 64 + k);
        for (uint32_t k = 63; k > 0; k--) {
            uint32_t j = (uint32_t)(xorshift_next(&rng) % (k + 1)), t = ids[k];
            ids[k] = ids[j];
            ids[j] = t;
        }
        for (uint32_t k = 0; k < 64; k++)
            set(&m, ids[k], 1 + (ids[k] / 2) % 2);
    }
    CHECK(same_everywhere(&m, IDS));
    CHECK(m.n <= 2);
    emu_task_map_free(&m);
    free(reference);
}

/* Long tasks: ids set (and reset) far below the window, between and
 * inside runs, at their edges; the map stays exact. */
static void far_below_and_changed(void)
{
    start();
    emu_task_map m = {0};
    uint64_t rng = 7;
    for (uint32_t id = 1; id <= 50000; id++)
        if (id % 1000)
            set(&m, id, 1 + id % 3);
    for (int k = 0; k < 3000; k++) {
        uint32_t id = 1 + (uint32_t)(xorshift_next(&rng) % 49000);
        set(&m, id, 1 + (uint32_t)(xorshift_next(&rng) % 5));
    }
    set(&m, 1000, 9);
    set(&m, 1001, 9);
    set(&m, 999, 9);
    CHECK(same_everywhere(&m, 60000));
    CHECK(m.n <= 2 * 3000 + 3 * 60);
    emu_task_map_free(&m);
    free(reference);
}

/* A first id in the middle, ids below it, then jumps beyond the window. */
static void jumps(void)
{
    start();
    emu_task_map m = {0};
    set(&m, 5000, 3);
    set(&m, 4990, 4);
    set(&m, 4000, 5);
    set(&m, 5100, 3);
    set(&m, 90000, 6);
    set(&m, 90001, 6);
    set(&m, 190000, 7);
    set(&m, 5050, 8);
    CHECK(same_everywhere(&m, IDS));
    emu_task_map_free(&m);
    free(reference);
}

TEST_MAIN(T(periodic_types_in_order), T(out_of_order_within_window), T(far_below_and_changed),
          T(jumps))
