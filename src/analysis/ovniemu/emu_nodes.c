/* emu_nodes.c — the NODES model (ovni src/emu/nodes/, doc
 * user/emulation/nodes.md): one stack channel of the NODES subsystem the
 * running thread is in, type 30, shown while the thread is active. */
#include "analysis/ovniemu/emu_pairs.h"
#include "analysis/ovniemu/emu_tracks.h"

#define SLOT_NODES 8

static const emu_label subsystems[] = {
    {1, "Dependencies: Registering task accesses"},
    {2, "Dependencies: Unregistering task accesses"},
    {3, "If0: Waiting for an If0 task"},
    {4, "If0: Executing an If0 task inline"},
    {5, "Taskwait: Taskwait"},
    {6, "Add Task: Creating a task"},
    {7, "Add Task: Submitting a task"},
    {8, "Spawn Function: Spawning a function"},
    {0, NULL}};

static const emu_pair events[] = {
    {'R', '[', ']', 0, 1}, {'U', '[', ']', 0, 2}, {'W', '[', ']', 0, 3}, {'I', '[', ']', 0, 4},
    {'T', '[', ']', 0, 5}, {'C', '[', ']', 0, 6}, {'S', '[', ']', 0, 7}, {'P', '[', ']', 0, 8},
};

static const emu_chan_spec nodes_chans[] = {
    {"subsystem", 1, 0, 30, "NODES subsystem", subsystems, EMU_PRV_SKIPDUP, EMU_TRACK_ACT,
     EMU_TRACK_RUN, 0},
};

static int nodes_event(emu *e, emu_ev *ev)
{
    if (!e->th->is_running) {
        e->fault = "the thread is not running";
        return -1;
    }
    return emu_pairs_apply(e, ev, SLOT_NODES, events, sizeof events / sizeof *events);
}

static int nodes_create(emu *e) { return emu_tracks_create(e, SLOT_NODES, nodes_chans, 1); }
static void nodes_destroy(emu *e) { emu_tracks_destroy(e, SLOT_NODES); }

const emu_model emu_model_nodes = {'D', "nodes", SLOT_NODES, nodes_create, nodes_event,
                                   nodes_destroy};
