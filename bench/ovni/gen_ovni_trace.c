/* gen_ovni_trace.c — writes a large synthetic ovni v3 trace for the
 * benchmarks: L looms x P processes x T threads, N events in all, with the
 * mix a real runtime trace has (mostly payload-less state changes, some
 * small payloads, rare jumbo events) and clocks that advance by 10-200 ns.
 *
 * usage: gen_ovni_trace OUT_DIR EVENTS [STREAMS]
 * (STREAMS defaults to 12: 2 looms x 2 processes x 3 threads) */
#include "ovni_writer.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* MCVs by payload size: a realistic vocabulary of the built-in models. */
static const char *const plain[] = {"OHp", "OHr", "OHc", "OHw", "6W[", "6W]", "VS[", "VS]", "MUi", "MUI"};
static const char *const with4[] = {"6Tx", "6Te", "VTx", "VTe", "OAs"};
static const char *const with8[] = {"6Tc", "OAr", "TCs", "TCe"};

static void put_jumbo(FILE *f, const char *mcv, uint64_t clock, size_t n)
{
    put_jumbo_header(f, mcv, clock, n);
    uint8_t data[1024];
    memset(data, 'x', sizeof data);
    fwrite(data, 1, n, f);
}

static void write_stream(const char *dir, int loom, int pid, int tid, uint64_t events, int first)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/stream.json", dir);
    FILE *j = open_or_exit(path, "w");
    fprintf(j, "{\n    \"version\": 3,\n    \"ovni\": {\n        \"lib\": {\"version\": \"1.14.0\", "
               "\"commit\": \"bench\"},\n        \"part\": \"thread\",\n        \"tid\": %d,\n"
               "        \"pid\": %d,\n        \"loom\": \"node%d\",\n        \"app_id\": 1,\n"
               "        \"require\": {\"ovni\": \"1.1.0\"},\n",
            tid, pid, loom);
    if (first) {
        fprintf(j, "        \"loom_cpus\": [");
        for (int c = 0; c < 8; c++)
            fprintf(j, "%s{\"index\": %d, \"phyid\": %d}", c ? ", " : "", c, c * 2);
        fprintf(j, "],\n");
    }
    fprintf(j, "        \"finished\": 1\n    }\n}\n");
    fclose(j);
    snprintf(path, sizeof path, "%s/stream.obs", dir);
    FILE *f = open_or_exit(path, "wb");
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    fwrite("ovni\1\0\0\0", 1, 8, f);
    uint64_t clock = 400000000000ull + (uint64_t)tid * 1000;
    uint8_t p[16] = {0};
    for (uint64_t i = 0; i < events; i++) {
        clock += 10 + rng() % 190;
        uint64_t r = rng() % 10000;
        uint32_t v = (uint32_t)rng();
        memcpy(p, &v, 4);
        if (i == 0)
            put_event(f, "OHx", clock, p, 16);
        else if (r < 6000)
            put_event(f, plain[r % 10], clock, p, 0);
        else if (r < 8500)
            put_event(f, with4[r % 5], clock, p, 4);
        else if (r < 9990)
            put_event(f, with8[r % 4], clock, p, 8);
        else
            put_jumbo(f, "OB.", clock, 64 + rng() % 512);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_ovni_trace OUT_DIR EVENTS [STREAMS]\n");
        return 2;
    }
    uint64_t events = strtoull(argv[2], NULL, 10);
    int streams = argc > 3 ? atoi(argv[3]) : 12;
    if (streams < 1)
        streams = 1;
    int per_proc = 3, procs_per_loom = 2;
    for (int s = 0; s < streams; s++) {
        int loom = s / (per_proc * procs_per_loom), proc = s / per_proc, t = s % per_proc;
        int pid = 1000 + proc, tid = pid * 10 + t;
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/ovni/loom.node%d/proc.%d/thread.%d", argv[1], loom, pid, tid);
        mkdirs(dir);
        write_stream(dir, loom, pid, tid, events / (uint64_t)streams, t == 0);
    }
    return 0;
}
