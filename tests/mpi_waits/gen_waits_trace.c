/* gen_waits_trace.c — a 4-rank DUMPI trace with known wait states, for
 * waits_synthetic.py (which holds the expected values and the story):
 * late senders through MPI_Recv, MPI_Wait and MPI_Waitall, a late
 * receiver through MPI_Ssend and MPI_Issend + MPI_Wait, a wildcard
 * receive, every collective kind with one late rank,
 * and a split communicator with a dup of it.
 *
 * With a mode and a count N, a 2-rank trace of N iterations instead:
 *   abandoned  rank 0 posts an MPI_Irecv from rank 1 that it never
 *              completes (even iterations: its handle is reused by the
 *              next; odd: MPI_Request_free), then an MPI_Recv of the next
 *              message; rank 1's second send is 10 us late every 1000th
 *              iteration (Late Sender), early otherwise;
 *   path       a Send/Recv per iteration whose sender alternates and
 *              enters 10 us after the receiver: every wait is on the
 *              critical path.
 *   threads    as path, and rank 0's thread 1 calls MPI_Comm_rank during
 *              every other receive: that thread's gaps span many windows
 *              while the main thread's records move on (the forward
 *              path's frontier must wait for them).
 * and with mode "tangle", 4 ranks: per iteration a Send/Recv both ways
 * between pairs of ranks, then a Barrier, Allreduce or Bcast, at times
 * drawn from a 10 us grid, so that many waits end at one time and point
 * at each other (the critical path's short walks at one time); in a
 * third of the iterations both ranks of a pair receive first and leave
 * at one time before the other sends (two waits ending at one time, each
 * caused by the other).
 *
 * usage: gen_waits_trace OUTDIR [abandoned|path|threads|tangle N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dumpi_synth.h"

enum { SEND = 0, RECV = 1, SSEND = 4, ISEND = 8, ISSEND = 10, IRECV = 12, WAIT = 13, REQUEST_FREE = 15, WAITALL = 18, COMM_RANK = 82,
       BARRIER = 52,
       BCAST = 53, GATHER = 54, SCATTER = 56, ALLGATHER = 58, ALLTOALL = 60, REDUCE = 62, ALLREDUCE = 65,
       REDUCE_SCATTER = 66, SCAN = 67, COMM_DUP = 84, COMM_SPLIT = 86, INIT = 124, FINALIZE = 125,
       EXSCAN = 156 };
enum { WORLD = 2, SPLIT = 4, DUP = 5, RANKS = 4 };

/* A call of thread `thread` from enter to exit (microseconds after the
 * bias). */
static void at_on(synth *s, uint16_t thread, uint16_t label, uint64_t enter_us, uint64_t exit_us)
{
    uint64_t a = enter_us * 1000, b = exit_us * 1000;
    synth_call(s, label, 1, thread, (uint16_t)(a / 1000000000u), (uint32_t)(a % 1000000000u),
               (uint16_t)(b / 1000000000u), (uint32_t)(b % 1000000000u));
}

/* A call of the main thread. */
static void at(synth *s, uint16_t label, uint64_t enter_us, uint64_t exit_us) { at_on(s, 0, label, enter_us, exit_us); }

static void p2p(synth *s, int32_t peer, int32_t tag, uint16_t comm)
{
    synth_u32(s, 8);  /* count */
    synth_u16(s, 14); /* MPI_DOUBLE */
    synth_u32(s, (uint32_t)peer);
    synth_u32(s, (uint32_t)tag);
    synth_u16(s, comm);
}

static void status(synth *s, int32_t source, int32_t tag)
{
    synth_u32(s, 64);
    synth_u32(s, (uint32_t)source);
    synth_u8(s, 0);
    synth_u8(s, 0);
    synth_u32(s, (uint32_t)tag);
}

static void send(synth *s, uint16_t label, int32_t dest, int32_t tag, uint16_t comm, uint64_t a, uint64_t b)
{
    at(s, label, a, b);
    p2p(s, dest, tag, comm);
}

/* source -1: MPI_ANY_SOURCE, from `from` as the status says */
static void recv(synth *s, int32_t source, int32_t from, int32_t tag, uint16_t comm, uint64_t a, uint64_t b)
{
    at(s, RECV, a, b);
    p2p(s, source, tag, comm);
    synth_u32(s, 1);
    status(s, from, tag);
}

static void nonblocking(synth *s, uint16_t label, int32_t peer, int32_t tag, uint32_t req, uint64_t a, uint64_t b)
{
    at(s, label, a, b);
    p2p(s, peer, tag, WORLD);
    synth_u32(s, req);
}

static void wait(synth *s, uint32_t req, int32_t source, int32_t tag, uint64_t a, uint64_t b)
{
    at(s, WAIT, a, b);
    synth_u32(s, req);
    synth_u32(s, 1);
    status(s, source, tag);
}

/* The point-to-point part (before t = 100 us). */
static void p2p_part(synth *s, int rank)
{
    switch (rank) {
    case 0:
        recv(s, 1, 1, 1, WORLD, 10, 30); /* late sender: 20 - 10 */
        nonblocking(s, IRECV, 2, 3, 1, 40, 41);
        nonblocking(s, IRECV, 3, 3, 2, 41, 42);
        at(s, WAITALL, 43, 80); /* late sender: the latest send, 60 - 43 */
        synth_u32(s, 2);
        synth_u32(s, 2);
        synth_u32(s, 1);
        synth_u32(s, 2);
        synth_u32(s, 2);
        status(s, 2, 3);
        status(s, 3, 3);
        break;
    case 1:
        send(s, SEND, 0, 1, WORLD, 20, 21);
        send(s, SSEND, 3, 4, WORLD, 30, 70); /* late receiver: 65 - 30 */
        recv(s, 2, 2, 6, WORLD, 75, 80);
        break;
    case 2:
        nonblocking(s, IRECV, 3, 2, 5, 10, 11);
        wait(s, 5, 3, 2, 12, 40); /* late sender: 25 - 12 */
        send(s, SEND, 0, 3, WORLD, 50, 51);
        nonblocking(s, ISSEND, 1, 6, 8, 52, 53);
        wait(s, 8, 0, 0, 54, 90); /* late receiver: 75 - 54 */
        break;
    case 3:
        nonblocking(s, ISEND, 2, 2, 7, 25, 26);
        wait(s, 7, 0, 0, 27, 28);
        send(s, SEND, 0, 3, WORLD, 60, 61);
        recv(s, -1, 1, 4, WORLD, 65, 71);
        break;
    }
}

/* One collective in window [base, base + 100): members enter at +10, the
 * late one at +50; all leave at +60. */
static void coll(synth *s, uint16_t label, int rank, int late, int32_t root, uint16_t comm, int32_t comm_rank,
                 uint64_t base)
{
    at(s, label, base + (rank == late ? 50 : 10), base + 60);
    switch (label) {
    case BARRIER: break;
    case ALLREDUCE:
    case SCAN:
    case EXSCAN:
        synth_u32(s, 4);
        synth_u16(s, 14);
        synth_u8(s, 3);
        break;
    case ALLGATHER:
    case ALLTOALL:
        synth_u32(s, 4);
        synth_u16(s, 14);
        synth_u32(s, 4);
        synth_u16(s, 14);
        break;
    case REDUCE_SCATTER:
        synth_u32(s, RANKS);
        synth_u32(s, RANKS);
        for (int i = 0; i < RANKS; i++)
            synth_u32(s, 2);
        synth_u16(s, 14);
        synth_u8(s, 3);
        break;
    case BCAST:
        synth_u32(s, 4);
        synth_u16(s, 14);
        synth_u32(s, (uint32_t)root);
        break;
    case REDUCE:
        synth_u32(s, 4);
        synth_u16(s, 14);
        synth_u8(s, 3);
        synth_u32(s, (uint32_t)root);
        break;
    case SCATTER:
    case GATHER:
        synth_u32(s, (uint32_t)comm_rank);
        synth_u32(s, 4);
        synth_u16(s, 14);
        synth_u32(s, (uint32_t)root);
        break;
    }
    synth_u16(s, comm);
    if ((label == SCATTER || label == GATHER) && comm_rank == root) {
        synth_u32(s, 4);
        synth_u16(s, 14);
    }
}

static const struct {
    uint16_t label;
    int late;
    int32_t root;
} world_colls[] = {
    {ALLREDUCE, 0, -1}, {ALLGATHER, 1, -1}, {ALLTOALL, 2, -1}, {REDUCE_SCATTER, 3, -1},
    {SCAN, 0, -1},      {EXSCAN, 1, -1},    {BARRIER, 2, -1},  {BCAST, 1, 1},
    {SCATTER, 2, 0},    {REDUCE, 3, 0},     {GATHER, 2, 2},
};

/* Split by parity, key -rank (so members run from the highest rank), dup
 * of it, then on the dup an Allreduce (world 0 late), on the split a Bcast
 * from comm rank 0 (world 2, late) and a message comm rank 0 -> 1 on the
 * odd half (world 3 -> 1, the receiver waits 5 us). */
static uint64_t comm_part(synth *s, int rank, uint64_t base)
{
    at(s, COMM_SPLIT, base + 10, base + 20);
    synth_u16(s, WORLD);
    synth_u32(s, (uint32_t)(rank % 2));
    synth_u32(s, (uint32_t)-rank);
    synth_u16(s, SPLIT);
    at(s, COMM_DUP, base + 30, base + 40);
    synth_u16(s, SPLIT);
    synth_u16(s, DUP);
    base += 100;
    int32_t comm_rank = rank < 2 ? 1 : 0;
    coll(s, ALLREDUCE, rank, 0, -1, DUP, comm_rank, base);
    base += 100;
    coll(s, BCAST, rank, 2, 0, SPLIT, comm_rank, base);
    base += 100;
    if (rank == 3)
        send(s, SEND, 1, 9, SPLIT, base + 15, base + 16);
    if (rank == 1)
        recv(s, 0, 0, 9, SPLIT, base + 10, base + 20);
    return base + 100;
}

/* Rank `rank`'s file opened and its MPI_Init (argc 1, argv "./app")
 * written; NULL when the file cannot be created. */
static synth *begin_rank(const char *dir, int rank)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/waits-%04d.bin", dir, rank);
    static synth s;
    if (synth_begin(&s, path, 0, 100) != 0)
        return NULL;
    at(&s, INIT, 0, 1);
    synth_u32(&s, 1);
    synth_u32(&s, 5);
    synth_bytes(&s, "./app", 5);
    return &s;
}

static int write_rank(const char *dir, int rank)
{
    synth *s = begin_rank(dir, rank);
    if (!s)
        return -1;
    p2p_part(s, rank);
    uint64_t base = 100;
    for (size_t k = 0; k < sizeof world_colls / sizeof world_colls[0]; k++, base += 100)
        coll(s, world_colls[k].label, rank, world_colls[k].late, world_colls[k].root, WORLD, rank, base);
    base = comm_part(s, rank, base);
    at(s, FINALIZE, base, base + 5);
    return synth_finish(s, 1795300000);
}

/* Mode "abandoned", iteration i of rank 0 (receiver) or 1. */
static void abandoned_iteration(synth *s, int rank, uint64_t i, uint64_t base)
{
    uint32_t req = i % 2 ? 2 : 1;
    if (rank == 0) {
        nonblocking(s, IRECV, 1, 7, req, base, base + 1);
        if (i % 2) {
            at(s, REQUEST_FREE, base + 2, base + 3);
            synth_u32(s, req);
        }
        recv(s, 1, 1, 7, WORLD, base + 10, base + 30);
        return;
    }
    send(s, SEND, 0, 7, WORLD, base + 5, base + 6);
    uint64_t late = i % 1000 == 0 ? 20 : 7;
    send(s, SEND, 0, 7, WORLD, base + late, base + late + 1);
}

/* Mode "path", iteration i: rank i % 2 sends late. */
static void path_iteration(synth *s, int rank, uint64_t i, uint64_t base)
{
    if (rank == (int)(i % 2))
        send(s, SEND, 1 - rank, 8, WORLD, base + 20, base + 21);
    else
        recv(s, 1 - rank, 1 - rank, 8, WORLD, base + 10, base + 30);
}

/* Mode "threads", iteration i: as "path", and on odd iterations rank 0
 * (receiving) calls MPI_Comm_rank on thread 1 while it waits. */
static void threads_iteration(synth *s, int rank, uint64_t i, uint64_t base)
{
    path_iteration(s, rank, i, base);
    if (rank == 0 && i % 2) {
        at_on(s, 1, COMM_RANK, base + 12, base + 14);
        synth_u16(s, WORLD);
        synth_u32(s, 0);
    }
}

/* A number drawn from (i, rank, what): every rank draws the iteration's
 * shape alike (rank -1). */
static uint64_t draw(uint64_t i, int rank, uint64_t what, uint64_t n)
{
    uint64_t z = i * 0x9e3779b97f4a7c15ull + (uint64_t)(rank + 1) * 0xbf58476d1ce4e5b9ull + what * 0x94d049bb133111ebull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (z ^ (z >> 31)) % n;
}

/* Mode "tangle", iteration i of `rank`: a message each way with its
 * partner (the lower rank sends first), then a collective. */
static void tangle_iteration(synth *s, int rank, uint64_t i, uint64_t base)
{
    static const int partner[3][4] = {{1, 0, 3, 2}, {2, 3, 0, 1}, {3, 2, 1, 0}};
    int peer = partner[draw(i, -1, 0, 3)][rank];
    uint64_t end; /* the exchange's last exit */
    if (draw(i, -1, 8, 3) == 0) { /* both receive first and leave at one time, before the other sends */
        recv(s, peer, peer, 5, WORLD, base + 10 * draw(i, rank, 1, 2), base + 20);
        end = base + 40 + 10 * draw(i, rank, 3, 2);
        send(s, SEND, peer, 5, WORLD, end, end + 1);
        end++;
    } else if (rank < peer) {
        uint64_t x = base + 10 * draw(i, rank, 1, 3);
        send(s, SEND, peer, 5, WORLD, x, x + 1);
        end = base + 50 + 10 * draw(i, rank, 2, 2);
        recv(s, peer, peer, 5, WORLD, base + 30, end);
    } else {
        uint64_t y = base + 10 * draw(i, rank, 1, 2);
        recv(s, peer, peer, 5, WORLD, y, y + 20 + 10 * draw(i, rank, 2, 2));
        end = base + 40 + 10 * draw(i, rank, 3, 3);
        send(s, SEND, peer, 5, WORLD, end, end + 1);
        end++;
    }
    uint64_t enter = base + 50 + 10 * draw(i, rank, 4, 3), kind = draw(i, -1, 5, 3);
    static const uint16_t colls[3] = {BARRIER, ALLREDUCE, BCAST};
    enter = enter < end ? end : enter;
    at(s, colls[kind], enter, base + 80 + 10 * draw(i, rank, 6, 2));
    if (kind == 1) {
        synth_u32(s, 4);
        synth_u16(s, 14);
        synth_u8(s, 3);
    } else if (kind == 2) {
        synth_u32(s, 4);
        synth_u16(s, 14);
        synth_u32(s, (uint32_t)draw(i, -1, 7, RANKS));
    }
    synth_u16(s, WORLD);
}

static int write_mode_rank(const char *dir, const char *mode, int rank, uint64_t n)
{
    synth *s = begin_rank(dir, rank);
    if (!s)
        return -1;
    uint64_t base = 100;
    for (uint64_t i = 0; i < n; i++, base += 100)
        if (!strcmp(mode, "abandoned"))
            abandoned_iteration(s, rank, i, base);
        else if (!strcmp(mode, "tangle"))
            tangle_iteration(s, rank, i, base);
        else if (!strcmp(mode, "threads"))
            threads_iteration(s, rank, i, base);
        else
            path_iteration(s, rank, i, base);
    at(s, FINALIZE, base, base + 5);
    return synth_finish(s, 1795300000);
}

int main(int argc, char **argv)
{
    if (argc == 4 && (!strcmp(argv[2], "abandoned") || !strcmp(argv[2], "path") || !strcmp(argv[2], "threads") ||
                       !strcmp(argv[2], "tangle"))) {
        uint64_t n = strtoull(argv[3], NULL, 10);
        int ranks = strcmp(argv[2], "tangle") ? 2 : RANKS;
        for (int r = 0; r < ranks; r++)
            if (write_mode_rank(argv[1], argv[2], r, n) != 0) {
                perror(argv[1]);
                return 1;
            }
        return synth_meta(argv[1], "waits", ranks, 1795300000) == 0 ? 0 : 1;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: gen_waits_trace OUTDIR [abandoned|path|threads|tangle N]\n");
        return 2;
    }
    for (int r = 0; r < RANKS; r++)
        if (write_rank(argv[1], r) != 0) {
            perror(argv[1]);
            return 1;
        }
    return synth_meta(argv[1], "waits", RANKS, 1795300000) == 0 ? 0 : 1;
}
