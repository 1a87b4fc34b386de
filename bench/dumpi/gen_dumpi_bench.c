/* gen_dumpi_bench.c — writes a large synthetic DUMPI trace for the
 * benchmark: R ranks in a ring, each iteration a realistic mix of
 * nonblocking neighbour exchange (2 Irecv, 2 Isend, Waitall with
 * statuses), a blocking Send/Recv pair, MPI_Wtime calls, and every few
 * iterations Allreduce, Bcast and Barrier on MPI_COMM_WORLD.
 *
 * usage: gen_dumpi_bench OUTDIR RANKS CALLS_PER_RANK */
#include <stdio.h>
#include <stdlib.h>

#include "dumpi_synth.h"

enum { SEND = 0, RECV = 1, ISEND = 8, IRECV = 12, WAITALL = 18, BARRIER = 52, BCAST = 53,
       ALLREDUCE = 65, COMM_RANK = 82, COMM_SIZE = 81, WTIME = 122, INIT = 124, FINALIZE = 125 };

typedef struct clock_state {
    uint64_t ns; /* since the bias */
} clock_state;

/* A call lasting `dur` ns after a gap of 300 ns. */
static void call(synth *s, clock_state *c, uint16_t label, uint64_t dur)
{
    c->ns += 300;
    uint64_t a = c->ns, b = c->ns + dur;
    c->ns = b;
    synth_call(s, label, 1, 0, (uint16_t)(a / 1000000000u), (uint32_t)(a % 1000000000u),
               (uint16_t)(b / 1000000000u), (uint32_t)(b % 1000000000u));
}

static void p2p_args(synth *s, int32_t count, uint16_t type, int32_t peer, int32_t tag)
{
    synth_u32(s, (uint32_t)count);
    synth_u16(s, type);
    synth_u32(s, (uint32_t)peer);
    synth_u32(s, (uint32_t)tag);
    synth_u16(s, 2);
}

static void status(synth *s, int32_t bytes, int32_t source, int32_t tag)
{
    synth_u32(s, (uint32_t)bytes);
    synth_u32(s, (uint32_t)source);
    synth_u8(s, 0);
    synth_u8(s, 0);
    synth_u32(s, (uint32_t)tag);
}

/* Tags name the direction of travel, so that every receive matches its
 * neighbour's send: tag 5 goes leftward (to rank - 1), tag 6 rightward. */
enum { TAG_LEFTWARD = 5, TAG_RIGHTWARD = 6 };

static void exchange(synth *s, clock_state *c, int rank, int ranks, int32_t count)
{
    int left = (rank + ranks - 1) % ranks, right = (rank + 1) % ranks;
    const int peers[4] = {left, right, left, right};
    /* receive from the left what travels rightward, and vice versa */
    const int32_t tags[4] = {TAG_RIGHTWARD, TAG_LEFTWARD, TAG_LEFTWARD, TAG_RIGHTWARD};
    for (int i = 0; i < 4; i++) {
        call(s, c, i < 2 ? IRECV : ISEND, 400);
        p2p_args(s, count, 14, peers[i], tags[i]);
        synth_u32(s, (uint32_t)(2 + i));
    }
    call(s, c, WAITALL, 3000);
    synth_u32(s, 4);
    synth_u32(s, 4);
    for (int i = 0; i < 4; i++)
        synth_u32(s, (uint32_t)(2 + i));
    synth_u32(s, 4);
    for (int i = 0; i < 4; i++)
        status(s, count * 8, i < 2 ? peers[i] : 0, tags[i]);
}

static void sendrecv_pair(synth *s, clock_state *c, int rank, int ranks, int32_t count)
{
    int partner = rank ^ 1;
    if (partner >= ranks)
        return;
    for (int i = 0; i < 2; i++) {
        int sending = (i == 0) == (rank % 2 == 0);
        call(s, c, sending ? SEND : RECV, 2000);
        p2p_args(s, count, 9, partner, 9);
        if (!sending) {
            synth_u32(s, 1);
            status(s, count * 4, partner, 9);
        }
    }
}

static void collectives(synth *s, clock_state *c, uint64_t it)
{
    call(s, c, ALLREDUCE, 8000);
    synth_u32(s, 1);
    synth_u16(s, 14);
    synth_u8(s, 3);
    synth_u16(s, 2);
    if (it % 4 == 0) {
        call(s, c, BCAST, 6000);
        synth_u32(s, 256);
        synth_u16(s, 5);
        synth_u32(s, 0);
        synth_u16(s, 2);
    }
    if (it % 16 == 0) {
        call(s, c, BARRIER, 9000);
        synth_u16(s, 2);
    }
}

static int write_rank(const char *dir, int rank, int ranks, uint64_t calls)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/bench-%04d.bin", dir, rank);
    static synth s;
    if (synth_begin(&s, path, 0, 416) != 0)
        return -1;
    clock_state c = {0};
    call(&s, &c, INIT, 1000);
    synth_u32(&s, 1);
    synth_u32(&s, 11);
    synth_bytes(&s, "./bench_app", 11);
    call(&s, &c, COMM_RANK, 500);
    synth_u16(&s, 2);
    synth_u32(&s, (uint32_t)rank);
    call(&s, &c, COMM_SIZE, 500);
    synth_u16(&s, 2);
    synth_u32(&s, (uint32_t)ranks);
    uint64_t done = 3;
    for (uint64_t it = 0; done + 16 < calls; it++) {
        call(&s, &c, WTIME, 100);
        int32_t count = 1 << (it % 12);
        exchange(&s, &c, rank, ranks, count);
        sendrecv_pair(&s, &c, rank, ranks, count * 3);
        if (it % 2 == 0)
            collectives(&s, &c, it);
        call(&s, &c, WTIME, 100);
        done = s.calls[290];
    }
    call(&s, &c, FINALIZE, 50000);
    return synth_finish(&s, 1795300000);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: gen_dumpi_bench OUTDIR RANKS CALLS_PER_RANK\n");
        return 2;
    }
    int ranks = atoi(argv[2]);
    uint64_t calls = strtoull(argv[3], NULL, 10);
    if (ranks < 2 || calls < 20)
        return 2;
    for (int r = 0; r < ranks; r++)
        if (write_rank(argv[1], r, ranks, calls) != 0) {
            perror(argv[1]);
            return 1;
        }
    return synth_meta(argv[1], "bench", ranks, 1795300000) == 0 ? 0 : 1;
}
