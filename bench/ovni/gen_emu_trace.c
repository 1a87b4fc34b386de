/* gen_emu_trace.c — writes a large emulable ovni trace (layout v3, libovni
 * 1.14) for the emulator's benchmarks: THREADS threads, each in a process
 * of its own on a CPU of its own, running one of three runtimes in turn,
 * every iteration a valid sequence of 16 events that creates, runs and
 * ends a new task:
 *   nOS-V with MPI, TAMPI and a mark;
 *   Nanos6 with NODES, MPI and a mark;
 *   OpenMP (tasks, worksharing, barriers) with MPI and a mark.
 * EVENTS in all; the tasks created grow with them (one per iteration), so
 * memory that grows with tasks shows at large sizes.
 *
 * usage: gen_emu_trace OUT_DIR EVENTS [THREADS]   (THREADS defaults to 8) */
#include "ovni_writer.h"

enum { NOSV, NANOS6, OPENMP, RUNTIMES };

/* An event without payload. */
static void plain(FILE *f, const char *mcv, uint64_t clock) { put_event(f, mcv, clock, (const uint8_t *)"", 0); }

/* Events whose payload is two u32 (a task and its type or body), or one. */
static void ev32(FILE *f, const char *mcv, uint64_t clock, uint32_t a, uint32_t b, int two)
{
    uint8_t p[8];
    put_le(p, a, 4);
    put_le(p + 4, b, 4);
    put_event(f, mcv, clock, p, two ? 8 : 4);
}

/* A task type declaration: jumbo event of u32 type id and the label. */
static void type_event(FILE *f, const char *mcv, uint64_t clock, uint32_t id, const char *label)
{
    size_t n = strlen(label) + 1;
    put_jumbo_header(f, mcv, clock, 4 + n);
    uint8_t idb[4];
    put_le(idb, id, 4);
    fwrite(idb, 1, 4, f);
    fwrite(label, 1, n, f);
}

/* A mark value (i64) of type 1 (i32). */
static void mark(FILE *f, uint64_t clock, uint64_t value)
{
    uint8_t p[12];
    put_le(p, value, 8);
    put_le(p + 8, 1, 4);
    put_event(f, "OM=", clock, p, 12);
}

static const char *const requires[RUNTIMES] = {
    "\"nosv\": \"2.7.0\", \"mpi\": \"1.0.0\", \"tampi\": \"1.0.0\"",
    "\"nanos6\": \"1.1.0\", \"nodes\": \"1.0.0\", \"mpi\": \"1.0.0\"",
    "\"openmp\": \"1.2.1\", \"mpi\": \"1.0.0\""};

static void write_meta(const char *dir, int i, int threads)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/stream.json", dir);
    FILE *j = open_or_exit(path, "w");
    fprintf(j, "{\"version\": 3, \"ovni\": {\"lib\": {\"version\": \"1.14.0\", \"commit\": \"bench\"}, "
               "\"part\": \"thread\", \"tid\": %d, \"pid\": %d, \"loom\": \"bench\", \"app_id\": 1, "
               "\"require\": {\"ovni\": \"1.1.0\", %s}, \"rank\": %d, \"nranks\": %d, ",
            1000 + i, 1000 + i, requires[i % RUNTIMES], i, threads);
    if (i == 0) {
        fprintf(j, "\"loom_cpus\": [");
        for (int c = 0; c < threads; c++)
            fprintf(j, "%s{\"index\": %d, \"phyid\": %d}", c ? ", " : "", c, c);
        fprintf(j, "], ");
    }
    fprintf(j, "\"mark\": {\"1\": {\"title\": \"Iteration\", \"chan_type\": \"single\"}}, "
               "\"finished\": 1}}\n");
    fclose(j);
}

/* One iteration of 16 events running task `task`; returns the next clock. */
static uint64_t iteration(FILE *f, int runtime, uint64_t t, uint32_t task)
{
    static const char *const loops[RUNTIMES][16] = {
        {"VAs", "VTc", "VAS", "VTx", "MAr", "TLi", "TLI", "MAR", "OM=", "VTe", "VSh", "VPr",
         "VPp", "VSf", "Ms[", "Ms]"},
        {"6C[", "6Tc", "6C]", "DC[", "DC]", "6Tx", "MAr", "MAR", "OM=", "6Te", "6Sa", "6SA",
         "6Pr", "6Pp", "DR[", "DR]"},
        {"PTa", "PPc", "PTA", "PTs", "PPx", "PWs", "PWS", "PPe", "PTS", "PBb", "PBB", "PQx",
         "PQe", "MAr", "MAR", "OM="}};
    for (int k = 0; k < 16; k++, t += 37) {
        const char *m = loops[runtime][k];
        if (!strcmp(m, "OM="))
            mark(f, t, task);
        else if (m[1] == 'T' && m[2] == 'c')
            ev32(f, m, t, task, 1, 1);
        else if (!strcmp(m, "VTx") || !strcmp(m, "VTe"))
            ev32(f, m, t, task, 0, 1);
        else if (!strcmp(m, "6Tx") || !strcmp(m, "6Te") || !strcmp(m, "PPx") || !strcmp(m, "PPe"))
            ev32(f, m, t, task, 0, 0);
        else if (!strcmp(m, "PPc"))
            ev32(f, m, t, task, 1, 1);
        else if (m[1] == 'Q')
            ev32(f, m, t, 2, 0, 0);
        else
            plain(f, m, t);
    }
    return t;
}

static void write_stream(const char *dir, int i, uint64_t iterations)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/stream.obs", dir);
    FILE *f = open_or_exit(path, "wb");
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    fwrite("ovni\1\0\0\0", 1, 8, f);
    int runtime = i % RUNTIMES;
    uint8_t x[16] = {0};
    put_le(x, (uint32_t)i, 4);
    put_le(x + 4, (uint32_t)-1, 4);
    put_event(f, "OHx", 1000 + (uint64_t)i, x, 16);
    static const char *const decl[RUNTIMES] = {"VYc", "6Yc", "POc"};
    static const char *const start[RUNTIMES] = {"VHw", "6Hw", "PH["};
    static const char *const end[RUNTIMES] = {"VHW", "6HW", "PH]"};
    type_event(f, decl[runtime], 1001 + (uint64_t)i, 1, "work");
    if (runtime == OPENMP)
        type_event(f, decl[runtime], 1001 + (uint64_t)i, 2, "loop");
    plain(f, start[runtime], 1002 + (uint64_t)i);
    uint64_t t = 2000 + (uint64_t)i;
    for (uint64_t k = 0; k < iterations; k++)
        t = iteration(f, runtime, t, (uint32_t)(k + 1));
    plain(f, end[runtime], t);
    plain(f, "OHe", t + 1);
    if (fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_emu_trace OUT_DIR EVENTS [THREADS]\n");
        return 2;
    }
    uint64_t events = strtoull(argv[2], NULL, 10);
    int threads = argc > 3 ? atoi(argv[3]) : 8;
    if (threads < 1)
        threads = 1;
    uint64_t iterations = events / (uint64_t)threads / 16;
    for (int i = 0; i < threads; i++) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/ovni/loom.bench/proc.%d/thread.%d", argv[1], 1000 + i, 1000 + i);
        mkdirs(dir);
        write_meta(dir, i, threads);
        write_stream(dir, i, iterations ? iterations : 1);
    }
    return 0;
}
