/* bare_scan.c — the yardstick: the least work that visits every ovni event
 * (read() into a buffer, step over each header), with no model, no checks
 * and no output.  usage: bare_scan STREAM_FILE... */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    static uint8_t buf[1 << 22];
    uint64_t events = 0, sum = 0;
    for (int a = 1; a < argc; a++) {
        int fd = open(argv[a], O_RDONLY);
        if (fd < 0)
            return 1;
        size_t have = 0, off = 8;
        ssize_t r;
        int first = 1;
        while ((r = read(fd, buf + have, sizeof buf - have)) > 0) {
            have += (size_t)r;
            size_t pos = first ? off : 0;
            first = 0;
            while (pos + 12 <= have) {
                uint8_t b0 = buf[pos];
                size_t size = 12 + ((b0 & 15) ? (size_t)(b0 & 15) + 1 : 0);
                if (b0 >> 4) {
                    uint32_t n;
                    if (pos + 16 > have)
                        break;
                    memcpy(&n, buf + pos + 12, 4);
                    size = 16 + n;
                }
                if (pos + size > have)
                    break;
                sum += buf[pos + 4];
                pos += size;
                events++;
            }
            memmove(buf, buf + pos, have - pos);
            have -= pos;
        }
        close(fd);
    }
    printf("%llu events (checksum %llu)\n", (unsigned long long)events, (unsigned long long)sum);
    return 0;
}
