/* emu_tampi.c — the TAMPI model (ovni src/emu/tampi/, doc
 * user/emulation/tampi.md): one stack channel of the TAMPI subsystem the
 * thread is in, type 20, shown while the thread is active. */
#include "analysis/ovniemu/emu_pairs.h"
#include "analysis/ovniemu/emu_tracks.h"

#define SLOT_TAMPI 3

/* Subsystem values (tampi/tampi_priv.h) and labels (tampi/setup.c). */
static const emu_label subsystems[] = {
    {1, "Communication: Issuing a non-blocking operation"},
    {2, "Global array: Checking pending requests"},
    {3, "Library code: Interface function"},
    {4, "Library code: Polling function"},
    {5, "Queue: Adding to a queue"},
    {6, "Queue: Transfering to global array"},
    {8, "Request: Testing a request"},
    {7, "Request: Processing a completed request"},
    {9, "Request: Testing all requests"},
    {10, "Request: Testing some requests"},
    {11, "Ticket: Creating a ticket"},
    {12, "Ticket: Waiting a ticket"},
    {0, NULL}};

static const emu_pair events[] = {
    {'C', 'i', 'I', 0, 1}, {'G', 'c', 'C', 0, 2}, {'L', 'i', 'I', 0, 3}, {'L', 'p', 'P', 0, 4},
    {'Q', 'a', 'A', 0, 5}, {'Q', 't', 'T', 0, 6}, {'R', 'c', 'C', 0, 7}, {'R', 't', 'T', 0, 8},
    {'R', 'a', 'A', 0, 9}, {'R', 's', 'S', 0, 10}, {'T', 'c', 'C', 0, 11}, {'T', 'w', 'W', 0, 12},
};

static const emu_chan_spec tampi_chans[] = {
    {"subsystem", 1, 0, 20, "TAMPI subsystem", subsystems, EMU_PRV_SKIPDUP, EMU_TRACK_ACT,
     EMU_TRACK_RUN, 0},
};

static int tampi_event(emu *e, emu_ev *ev)
{
    if (!e->th->is_running) {
        e->fault = "the thread is not running";
        return -1;
    }
    return emu_pairs_apply(e, ev, SLOT_TAMPI, events, sizeof events / sizeof *events);
}

static int tampi_create(emu *e) { return emu_tracks_create(e, SLOT_TAMPI, tampi_chans, 1); }
static void tampi_destroy(emu *e) { emu_tracks_destroy(e, SLOT_TAMPI); }

const emu_model emu_model_tampi = {'T', "tampi", SLOT_TAMPI, tampi_create, tampi_event,
                                   tampi_destroy};
