/* emu_mpi.c — the MPI model (ovni src/emu/mpi/, doc user/emulation/mpi.md):
 * one stack channel of the MPI function the running thread is in, type 25.
 * Every M event opens (lower-case value or '[') or closes a function. */
#include "analysis/ovniemu/emu_pairs.h"
#include "analysis/ovniemu/emu_tracks.h"

#define SLOT_MPI 2

/* The function values and their labels (mpi/mpi_priv.h, mpi/setup.c). */
static const emu_label functions[] = {
    {1, "MPI_Init"},           {2, "MPI_Init_thread"},       {3, "MPI_Finalize"},
    {4, "MPI_Wait"},           {5, "MPI_Waitall"},           {6, "MPI_Waitany"},
    {7, "MPI_Waitsome"},       {8, "MPI_Test"},              {9, "MPI_Testall"},
    {10, "MPI_Testany"},       {11, "MPI_Testsome"},         {12, "MPI_Recv"},
    {13, "MPI_Send"},          {14, "MPI_Bsend"},            {15, "MPI_Rsend"},
    {16, "MPI_Ssend"},         {17, "MPI_Sendrecv"},         {18, "MPI_Sendrecv_replace"},
    {19, "MPI_Irecv"},         {20, "MPI_Isend"},            {21, "MPI_Ibsend"},
    {22, "MPI_Irsend"},        {23, "MPI_Issend"},           {24, "MPI_Isendrecv"},
    {25, "MPI_Isendrecv_replace"}, {26, "MPI_Allgather"},    {27, "MPI_Allreduce"},
    {28, "MPI_Alltoall"},      {29, "MPI_Barrier"},          {30, "MPI_Bcast"},
    {31, "MPI_Gather"},        {32, "MPI_Reduce"},           {33, "MPI_Reduce_scatter"},
    {34, "MPI_Reduce_scatter_block"}, {35, "MPI_Scatter"},   {36, "MPI_Scan"},
    {37, "MPI_Exscan"},        {38, "MPI_Iallgather"},       {39, "MPI_Iallreduce"},
    {40, "MPI_Ialltoall"},     {41, "MPI_Ibarrier"},         {42, "MPI_Ibcast"},
    {43, "MPI_Igather"},       {44, "MPI_Ireduce"},          {45, "MPI_Ireduce_scatter"},
    {46, "MPI_Ireduce_scatter_block"}, {47, "MPI_Iscatter"}, {48, "MPI_Iscan"},
    {49, "MPI_Iexscan"},       {0, NULL}};

/* mpi/event.c: category, opening and closing value, function. */
static const emu_pair events[] = {
    {'U', 'i', 'I', 0, 1},  {'U', 't', 'T', 0, 2},  {'U', 'f', 'F', 0, 3},
    {'W', '[', ']', 0, 4},  {'W', 'a', 'A', 0, 5},  {'W', 'y', 'Y', 0, 6},
    {'W', 's', 'S', 0, 7},  {'T', '[', ']', 0, 8},  {'T', 'a', 'A', 0, 9},
    {'T', 'y', 'Y', 0, 10}, {'T', 's', 'S', 0, 11}, {'R', '[', ']', 0, 12},
    {'S', '[', ']', 0, 13}, {'S', 'b', 'B', 0, 14}, {'S', 'r', 'R', 0, 15},
    {'S', 's', 'S', 0, 16}, {'R', 's', 'S', 0, 17}, {'R', 'o', 'O', 0, 18},
    {'r', '[', ']', 0, 19}, {'s', '[', ']', 0, 20}, {'s', 'b', 'B', 0, 21},
    {'s', 'r', 'R', 0, 22}, {'s', 's', 'S', 0, 23}, {'r', 's', 'S', 0, 24},
    {'r', 'o', 'O', 0, 25}, {'A', 'g', 'G', 0, 26}, {'A', 'r', 'R', 0, 27},
    {'A', 'a', 'A', 0, 28}, {'C', 'b', 'B', 0, 29}, {'D', 'b', 'B', 0, 30},
    {'D', 'g', 'G', 0, 31}, {'E', '[', ']', 0, 32}, {'E', 's', 'S', 0, 33},
    {'E', 'b', 'B', 0, 34}, {'D', 's', 'S', 0, 35}, {'C', 's', 'S', 0, 36},
    {'C', 'e', 'E', 0, 37}, {'a', 'g', 'G', 0, 38}, {'a', 'r', 'R', 0, 39},
    {'a', 'a', 'A', 0, 40}, {'c', 'b', 'B', 0, 41}, {'d', 'b', 'B', 0, 42},
    {'d', 'g', 'G', 0, 43}, {'e', '[', ']', 0, 44}, {'e', 's', 'S', 0, 45},
    {'e', 'b', 'B', 0, 46}, {'d', 's', 'S', 0, 47}, {'c', 's', 'S', 0, 48},
    {'c', 'e', 'E', 0, 49},
};

static const emu_chan_spec mpi_chans[] = {
    {"function", 1, 0, 25, "MPI function", functions, EMU_PRV_SKIPDUP, EMU_TRACK_RUN,
     EMU_TRACK_RUN, 0},
};

static int mpi_event(emu *e, emu_ev *ev)
{
    if (!e->th->is_running) {
        e->fault = "the thread is not running";
        return -1;
    }
    return emu_pairs_apply(e, ev, SLOT_MPI, events, sizeof events / sizeof *events);
}

static int mpi_create(emu *e) { return emu_tracks_create(e, SLOT_MPI, mpi_chans, 1); }
static void mpi_destroy(emu *e) { emu_tracks_destroy(e, SLOT_MPI); }

const emu_model emu_model_mpi = {'M', "mpi", SLOT_MPI, mpi_create, mpi_event, mpi_destroy};
