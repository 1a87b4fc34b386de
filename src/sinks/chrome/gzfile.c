/* gzfile.c — glibc's fopencookie over zlib's gzwrite. */
#define _GNU_SOURCE
#include "sinks/chrome/gzfile.h"

#include <errno.h>

#ifdef PW_HAVE_ZLIB
#include <zlib.h>

static ssize_t gz_cookie_write(void *cookie, const char *buf, size_t n)
{
    size_t done = 0;
    while (done < n) { /* gzwrite takes an unsigned length */
        unsigned chunk = n - done > (1u << 30) ? 1u << 30 : (unsigned)(n - done);
        int w = gzwrite((gzFile)cookie, buf + done, chunk);
        if (w <= 0) {
            errno = EIO;
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

static int gz_cookie_close(void *cookie) { return gzclose((gzFile)cookie) == Z_OK ? 0 : EOF; }

FILE *pw_gzfile_create(const char *path)
{
    /* level 1: JSON traces are large and repetitive, speed matters more */
    gzFile gz = gzopen(path, "wb1");
    if (!gz)
        return NULL;
    cookie_io_functions_t io = {NULL, gz_cookie_write, NULL, gz_cookie_close};
    FILE *f = fopencookie(gz, "w", io);
    if (!f)
        gzclose(gz);
    return f;
}
#else
FILE *pw_gzfile_create(const char *path)
{
    (void)path;
    errno = ENOSYS;
    return NULL;
}
#endif
