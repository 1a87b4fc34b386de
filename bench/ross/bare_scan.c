/* bare_scan.c — the yardstick for the ROSS reader: the least work that
 * visits every record of a gvt/rt file (24-byte sample header + body) or an
 * event trace (24-byte header + model_data_sz), read() into a buffer, no
 * model, no checks, no output.  usage: bare_scan_ross FILE... (the name's
 * suffix -evtrace.bin selects the event-trace layout). */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The size of the record at p, or 0 when its header is not all in buffer. */
static size_t record_size(const uint8_t *p, size_t avail, int evtrace)
{
    uint32_t v;
    if (avail < 24)
        return 0;
    memcpy(&v, p + (evtrace ? 20 : 4), 4);
    return 24 + (size_t)v;
}

int main(int argc, char **argv)
{
    static uint8_t buf[1 << 18];
    uint64_t records = 0, sum = 0;
    for (int a = 1; a < argc; a++) {
        size_t n = strlen(argv[a]);
        int evtrace = n >= 12 && !strcmp(argv[a] + n - 12, "-evtrace.bin");
        int fd = open(argv[a], O_RDONLY);
        if (fd < 0)
            return 1;
        size_t have = 0;
        ssize_t r;
        while ((r = read(fd, buf + have, sizeof buf - have)) > 0) {
            have += (size_t)r;
            size_t pos = 0, size;
            while ((size = record_size(buf + pos, have - pos, evtrace)) && pos + size <= have) {
                sum += buf[pos + 24];
                pos += size;
                records++;
            }
            memmove(buf, buf + pos, have - pos);
            have -= pos;
        }
        close(fd);
    }
    printf("%llu records (checksum %llu)\n", (unsigned long long)records, (unsigned long long)sum);
    return 0;
}
