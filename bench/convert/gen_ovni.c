/* gen_ovni.c — writes a large synthetic ovni trace (metadata v3 layout)
 * for the converter benchmark: THREADS threads in 2 looms, EVENTS events
 * each, a mix shaped like a Nanos6 run: per round, a task body entered and
 * left (6Wt/6WT, drawn as a slice), a task created and executed (6Tc with
 * two u32, 6Tx with one u32: instants), so half the events are slice ends.
 *   usage: gen_ovni DIR THREADS EVENTS_PER_THREAD */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void mkdir_p(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        mkdir(buf, 0777);
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
        perror(buf);
        exit(1);
    }
}

/* One event: flags/size byte, MCV, u64 clock (little-endian host), payload. */
static size_t put_event(uint8_t *p, const char *mcv, uint64_t clock, const uint32_t *words, int n_words)
{
    size_t payload = (size_t)n_words * 4;
    p[0] = (uint8_t)(payload ? payload - 1 : 0);
    memcpy(p + 1, mcv, 3);
    memcpy(p + 4, &clock, 8);
    memcpy(p + 12, words, payload);
    return 12 + payload;
}

static void write_stream(const char *dir, const char *loom, int pid, int tid, long events, uint64_t seed)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/ovni/loom.%s/proc.%d/thread.%d", dir, loom, pid, tid);
    mkdir_p(path);
    char file[4200];
    snprintf(file, sizeof file, "%s/stream.json", path);
    FILE *j = fopen(file, "w");
    fprintf(j,
            "{\"version\": 3, \"ovni\": {\"lib\": {\"version\": \"1.14.0\", \"commit\": \"bench\"},"
            " \"part\": \"thread\", \"tid\": %d, \"pid\": %d, \"loom\": \"%s\", \"app_id\": 1,"
            " \"require\": {\"ovni\": \"1.1.0\", \"nanos6\": \"1.1.0\"},"
            " \"loom_cpus\": [{\"index\": 0, \"phyid\": 0}], \"finished\": 1}}\n",
            tid, pid, loom);
    fclose(j);
    snprintf(file, sizeof file, "%s/stream.obs", path);
    FILE *f = fopen(file, "wb");
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    fwrite("ovni\1\0\0\0", 1, 8, f);
    uint64_t clock = 1000000000ull + (uint64_t)tid, x = seed;
    uint8_t ev[32];
    uint32_t task = 1;
    for (long i = 0; i < events; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        clock += 20 + x % 400;
        uint32_t w[2] = {task, 7};
        size_t n;
        switch (i % 4) {
        case 0: n = put_event(ev, "6Tc", clock, w, 2); break;
        case 1: n = put_event(ev, "6Wt", clock, w, 0); break;
        case 2: n = put_event(ev, "6Tx", clock, w, 1); break;
        default: n = put_event(ev, "6WT", clock, w, 0); task++; break;
        }
        fwrite(ev, 1, n, f);
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: gen_ovni DIR THREADS EVENTS_PER_THREAD\n");
        return 2;
    }
    int threads = atoi(argv[2]);
    long events = atol(argv[3]);
    for (int t = 0; t < threads; t++)
        write_stream(argv[1], t % 2 ? "nodeB" : "nodeA", 1000 + t / 4, 2000 + t, events, 0x9e3779b97f4a7c15ull + (uint64_t)t);
    return 0;
}
