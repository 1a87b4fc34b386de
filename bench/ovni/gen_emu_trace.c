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
 * The shape "tasks" makes what fragments task bookkeeping: task types
 * that alternate in id order (three, in a loop) in every runtime, and
 * nOS-V parallel tasks (VTC) with two bodies ended out of order: body 2
 * in the task's own iteration, body 1 in the next block of 8 iterations
 * in reverse order, so tasks also end out of id order and up to 16 stay
 * in flight per thread (the last block's never end).
 *
 * usage: gen_emu_trace OUT_DIR EVENTS [THREADS [tasks]]   (THREADS defaults to 8) */
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

/* The "tasks" shape (see the top). */
static int tasks_shape;
enum { TYPES = 3, BLOCK = 8 };

/* A task's type: in a loop of three, or always the first. */
static uint32_t type_of(uint32_t task) { return tasks_shape ? 1 + task % TYPES : 1; }

/* The task whose body 1 runs in iteration `task` (1-based): the previous
 * block's, last first; 0 in the first block. */
static uint32_t late_body_task(uint32_t task)
{
    uint32_t block = (task - 1) / BLOCK, slot = (task - 1) % BLOCK;
    return block ? (block - 1) * BLOCK + (BLOCK - 1 - slot) + 1 : 0;
}

/* One iteration of the "tasks" shape for nOS-V: parallel task `task`
 * created, its body 2 run, and an older task's body 1. */
static uint64_t parallel_iteration(FILE *f, uint64_t t, uint32_t task)
{
    static const char *const loop[16] = {"VAs", "VTC", "VAS", "VTx", "MAr", "MAR", "OM=", "VTe",
                                         "late", "TLi", "TLI", "late", "VSh", "VSf", "Ms[", "Ms]"};
    uint32_t late = late_body_task(task);
    for (int k = 0; k < 16; k++, t += 37) {
        const char *m = loop[k];
        if (!strcmp(m, "OM="))
            mark(f, t, task);
        else if (!strcmp(m, "VTC"))
            ev32(f, m, t, task, type_of(task), 1);
        else if (!strcmp(m, "VTx") || !strcmp(m, "VTe"))
            ev32(f, m, t, task, 2, 1);
        else if (strcmp(m, "late"))
            plain(f, m, t);
        else if (late)
            ev32(f, k == 8 ? "VTx" : "VTe", t, late, 1, 1);
        else
            plain(f, k == 8 ? "VPr" : "VPp", t);
    }
    return t;
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
            ev32(f, m, t, task, type_of(task), 1);
        else if (!strcmp(m, "VTx") || !strcmp(m, "VTe"))
            ev32(f, m, t, task, 0, 1);
        else if (!strcmp(m, "6Tx") || !strcmp(m, "6Te") || !strcmp(m, "PPx") || !strcmp(m, "PPe"))
            ev32(f, m, t, task, 0, 0);
        else if (!strcmp(m, "PPc"))
            ev32(f, m, t, task, type_of(task) == 2 ? 3 : type_of(task), 1);
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
    if (runtime == OPENMP || tasks_shape)
        type_event(f, decl[runtime], 1001 + (uint64_t)i, 2, runtime == OPENMP ? "loop" : "halo");
    if (tasks_shape)
        type_event(f, decl[runtime], 1001 + (uint64_t)i, 3, "reduce");
    plain(f, start[runtime], 1002 + (uint64_t)i);
    uint64_t t = 2000 + (uint64_t)i;
    for (uint64_t k = 0; k < iterations; k++)
        t = tasks_shape && runtime == NOSV ? parallel_iteration(f, t, (uint32_t)(k + 1))
                                           : iteration(f, runtime, t, (uint32_t)(k + 1));
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
        fprintf(stderr, "usage: gen_emu_trace OUT_DIR EVENTS [THREADS [tasks]]\n");
        return 2;
    }
    tasks_shape = argc > 4 && !strcmp(argv[4], "tasks");
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
