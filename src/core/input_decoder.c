/* input_decoder.c — zstd (libzstd) and gzip (zlib) streaming decoders, and
 * the decompressed copies random-access readers read from. */
#define _GNU_SOURCE
#include "core/input_decoder.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef PW_HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef PW_HAVE_ZLIB
#include <zlib.h>
#endif

#include "core/error.h"

#define DECODER_IN_CAP ((size_t)128 * 1024)

struct pw_decoder {
    pw_codec codec;
    int fd;
    const char *path;
    uint64_t in_off;      /* compressed bytes consumed from the file */
    uint8_t *in;
    size_t in_len, in_pos;
    int in_eof;
    int in_frame;         /* inside a frame/member: its end is still due */
#ifdef PW_HAVE_ZSTD
    ZSTD_DStream *zs;
#endif
#ifdef PW_HAVE_ZLIB
    z_stream gz;
    int gz_ready;
#endif
};

pw_codec pw_codec_of_name(const char *name)
{
    size_t n = strlen(name);
    if (n > 4 && !strcmp(name + n - 4, ".zst"))
        return PW_CODEC_ZSTD;
    if (n > 3 && !strcmp(name + n - 3, ".gz"))
        return PW_CODEC_GZIP;
    return PW_CODEC_NONE;
}

pw_status pw_decoder_new(pw_codec codec, int fd, const char *path, pw_decoder **out,
                         pw_error *err)
{
    pw_decoder *d = calloc(1, sizeof *d);
    uint8_t *in = malloc(DECODER_IN_CAP);
    if (!d || !in) {
        free(d);
        free(in);
        return pw_fail(err, PW_E_NOMEM, path, PW_NO_OFFSET, "no memory to decompress");
    }
    d->codec = codec;
    d->fd = fd;
    d->path = path;
    d->in = in;
    pw_status s = PW_OK;
    if (codec == PW_CODEC_ZSTD) {
#ifdef PW_HAVE_ZSTD
        d->zs = ZSTD_createDStream();
        if (!d->zs)
            s = pw_fail(err, PW_E_NOMEM, path, PW_NO_OFFSET, "no memory to decompress");
#else
        s = pw_fail(err, PW_E_FORMAT, path, PW_NO_OFFSET,
                    "a zstd-compressed file, and perfweave was built without libzstd");
#endif
    } else if (codec == PW_CODEC_GZIP) {
#ifdef PW_HAVE_ZLIB
        /* 15 + 32: a zlib or gzip header, detected. */
        if (inflateInit2(&d->gz, 15 + 32) != Z_OK)
            s = pw_fail(err, PW_E_NOMEM, path, PW_NO_OFFSET, "no memory to decompress");
        else
            d->gz_ready = 1;
#else
        s = pw_fail(err, PW_E_FORMAT, path, PW_NO_OFFSET,
                    "a gzip-compressed file, and perfweave was built without zlib");
#endif
    } else {
        s = pw_fail(err, PW_E_USAGE, path, PW_NO_OFFSET, "not a compressed file name");
    }
    if (s != PW_OK) {
        pw_decoder_free(d);
        return s;
    }
    *out = d;
    return PW_OK;
}

void pw_decoder_free(pw_decoder *d)
{
    if (!d)
        return;
#ifdef PW_HAVE_ZSTD
    ZSTD_freeDStream(d->zs);
#endif
#ifdef PW_HAVE_ZLIB
    if (d->gz_ready)
        inflateEnd(&d->gz);
#endif
    free(d->in);
    free(d);
}

/* Refills the compressed input buffer when it is used up. */
static pw_status decoder_refill(pw_decoder *d, pw_error *err)
{
    if (d->in_pos < d->in_len || d->in_eof)
        return PW_OK;
    for (;;) {
        ssize_t r = pread(d->fd, d->in, DECODER_IN_CAP, (off_t)d->in_off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return pw_fail_errno(err, d->path, "read failed");
        d->in_len = (size_t)r;
        d->in_pos = 0;
        d->in_off += (uint64_t)r;
        d->in_eof = r == 0;
        return PW_OK;
    }
}

#ifdef PW_HAVE_ZSTD
/* One step of zstd: *got plain bytes from what the input buffer holds. */
static pw_status zstd_step(pw_decoder *d, uint8_t *out, size_t cap, size_t *got, pw_error *err)
{
    ZSTD_inBuffer ib = {d->in, d->in_len, d->in_pos};
    ZSTD_outBuffer ob = {out, cap, 0};
    size_t r = ZSTD_decompressStream(d->zs, &ob, &ib);
    if (ZSTD_isError(r))
        return pw_fail(err, PW_E_DATA, d->path, (int64_t)(d->in_off - d->in_len + d->in_pos),
                       "damaged zstd data: %s", ZSTD_getErrorName(r));
    d->in_pos = ib.pos;
    d->in_frame = r != 0; /* 0: a frame ended exactly here */
    *got = ob.pos;
    return PW_OK;
}
#endif

#ifdef PW_HAVE_ZLIB
/* One step of zlib; a gzip file may hold several members back to back. */
static pw_status gzip_step(pw_decoder *d, uint8_t *out, size_t cap, size_t *got, pw_error *err)
{
    d->gz.next_in = d->in + d->in_pos;
    d->gz.avail_in = (uInt)(d->in_len - d->in_pos);
    d->gz.next_out = out;
    d->gz.avail_out = (uInt)cap;
    int r = inflate(&d->gz, Z_NO_FLUSH);
    d->in_pos = d->in_len - d->gz.avail_in;
    *got = cap - d->gz.avail_out;
    if (r == Z_STREAM_END) {
        d->in_frame = 0;
        return inflateReset(&d->gz) == Z_OK ? PW_OK
               : pw_fail(err, PW_E_NOMEM, d->path, PW_NO_OFFSET, "no memory to decompress");
    }
    if (r != Z_OK && r != Z_BUF_ERROR)
        return pw_fail(err, PW_E_DATA, d->path, (int64_t)(d->in_off - d->in_len + d->in_pos),
                       "damaged gzip data: %s", d->gz.msg ? d->gz.msg : "inflate failed");
    d->in_frame = 1;
    return PW_OK;
}
#endif

pw_status pw_decoder_read(pw_decoder *d, uint8_t *out, size_t cap, size_t *got, pw_error *err)
{
    *got = 0;
    while (*got == 0) {
        pw_status s = decoder_refill(d, err);
        if (s != PW_OK)
            return s;
        if (d->in_eof && d->in_pos >= d->in_len) {
            if (d->in_frame)
                return pw_fail(err, PW_E_DATA, d->path, (int64_t)d->in_off,
                               "the compressed data is cut short (its last frame does not end)");
            return PW_OK;
        }
        size_t before = d->in_pos;
        s = PW_OK;
#ifdef PW_HAVE_ZSTD
        if (d->codec == PW_CODEC_ZSTD)
            s = zstd_step(d, out, cap, got, err);
#endif
#ifdef PW_HAVE_ZLIB
        if (d->codec == PW_CODEC_GZIP)
            s = gzip_step(d, out, cap, got, err);
#endif
        if (s != PW_OK)
            return s;
        /* No progress with input left: the decoder wants more than there is. */
        if (*got == 0 && d->in_pos == before && d->in_pos < d->in_len)
            return pw_fail(err, PW_E_DATA, d->path, (int64_t)(d->in_off - d->in_len + d->in_pos),
                           "damaged compressed data");
    }
    return PW_OK;
}

/* ---- decompressed copies ------------------------------------------------ */

/* Copies kept for reuse within a run; the oldest is dropped beyond this. */
#define PLAIN_COPIES_MAX 32

typedef struct plain_copy {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    uint64_t fingerprint; /* of the stored bytes' head and tail */
    int fd;
    uint64_t plain_size;
    uint64_t used;        /* last use, for dropping the oldest */
} plain_copy;

static pthread_mutex_t copies_lock = PTHREAD_MUTEX_INITIALIZER;
static plain_copy copies[PLAIN_COPIES_MAX];
static size_t n_copies;
static uint64_t copies_clock;

/* FNV-1a of the first and last 4 KiB of the stored file: a file rewritten
 * in place with the same size within one tick of the file system's clock
 * keeps its identity, and must not be served a stale copy. */
static uint64_t stored_fingerprint(int fd, off_t size)
{
    uint8_t buf[4096];
    uint64_t h = 1469598103934665603ull;
    off_t at[2] = {0, size > (off_t)sizeof buf ? size - (off_t)sizeof buf : 0};
    for (int k = 0; k < (at[1] > 0 ? 2 : 1); k++) {
        ssize_t n = pread(fd, buf, sizeof buf, at[k]);
        for (ssize_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 1099511628211ull;
    }
    return h;
}

static int same_stored(const plain_copy *c, const struct stat *st, uint64_t fingerprint)
{
    return c->dev == st->st_dev && c->ino == st->st_ino && c->size == st->st_size &&
           c->mtime.tv_sec == st->st_mtim.tv_sec && c->mtime.tv_nsec == st->st_mtim.tv_nsec &&
           c->fingerprint == fingerprint;
}

/* An unlinked file in $TMPDIR (or /tmp) for the plain bytes. */
static int temp_file(const char *path, pw_error *err)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
#ifdef O_TMPFILE
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
#endif
    size_t n = strlen(dir);
    char *tmpl = malloc(n + 32);
    if (!tmpl) {
        pw_fail(err, PW_E_NOMEM, path, PW_NO_OFFSET, "no memory to decompress");
        return -1;
    }
    memcpy(tmpl, dir, n);
    memcpy(tmpl + n, "/perfweave-plain-XXXXXX", 24);
    int t = mkstemp(tmpl);
    if (t < 0) {
        int e = errno;
        pw_fail(err, PW_E_IO, path, PW_NO_OFFSET,
                "cannot make a temporary file in %s to decompress into: %s", dir, strerror(e));
    } else {
        unlink(tmpl);
        (void)fcntl(t, F_SETFD, FD_CLOEXEC);
    }
    free(tmpl);
    return t;
}

static pw_status write_all(int fd, const uint8_t *p, size_t n, const char *path, pw_error *err)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            int e = errno;
            return pw_fail(err, PW_E_IO, path, PW_NO_OFFSET,
                           "cannot write the decompressed copy to the temporary directory: %s",
                           strerror(e));
        }
        p += w;
        n -= (size_t)w;
    }
    return PW_OK;
}

/* Decompresses the stored file into a new temporary file. */
static pw_status decompress_whole(pw_codec codec, int fd, const char *path, int *out_fd,
                                  uint64_t *out_size, pw_error *err)
{
    pw_decoder *d = NULL;
    pw_status s = pw_decoder_new(codec, fd, path, &d, err);
    if (s != PW_OK)
        return s;
    size_t cap = (size_t)256 * 1024;
    uint8_t *buf = malloc(cap);
    int t = buf ? temp_file(path, err) : -1;
    if (!buf)
        s = pw_fail(err, PW_E_NOMEM, path, PW_NO_OFFSET, "no memory to decompress");
    else if (t < 0)
        s = err ? err->status : PW_E_IO;
    uint64_t total = 0;
    while (s == PW_OK) {
        size_t got = 0;
        s = pw_decoder_read(d, buf, cap, &got, err);
        if (s != PW_OK || got == 0)
            break;
        s = write_all(t, buf, got, path, err);
        total += got;
    }
    free(buf);
    pw_decoder_free(d);
    if (s != PW_OK) {
        if (t >= 0)
            close(t);
        return s;
    }
    *out_fd = t;
    *out_size = total;
    return PW_OK;
}

/* Keeps c in the table, dropping the least recently used copy when full. */
static void copies_add(const plain_copy *c)
{
    size_t slot = n_copies;
    if (n_copies == PLAIN_COPIES_MAX) {
        slot = 0;
        for (size_t i = 1; i < n_copies; i++)
            if (copies[i].used < copies[slot].used)
                slot = i;
        close(copies[slot].fd);
    } else {
        n_copies++;
    }
    copies[slot] = *c;
}

pw_status pw_decoder_plain_copy(pw_codec codec, int fd, const char *path, int *out_fd,
                                uint64_t *out_size, pw_error *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return pw_fail_errno(err, path, "cannot stat");
    uint64_t fingerprint = stored_fingerprint(fd, st.st_size);
    /* Held while decompressing, so two threads never decompress one file twice. */
    pthread_mutex_lock(&copies_lock);
    pw_status s = PW_OK;
    int mine = -1;
    for (size_t i = 0; i < n_copies && mine < 0; i++)
        if (same_stored(&copies[i], &st, fingerprint)) {
            copies[i].used = ++copies_clock;
            mine = fcntl(copies[i].fd, F_DUPFD_CLOEXEC, 0);
            *out_size = copies[i].plain_size;
            if (mine < 0)
                s = pw_fail_errno(err, path, "cannot duplicate a descriptor");
        }
    if (mine < 0 && s == PW_OK) {
        plain_copy c = {st.st_dev, st.st_ino, st.st_size, st.st_mtim, fingerprint, -1, 0,
                        ++copies_clock};
        s = decompress_whole(codec, fd, path, &c.fd, &c.plain_size, err);
        if (s == PW_OK) {
            mine = fcntl(c.fd, F_DUPFD_CLOEXEC, 0);
            *out_size = c.plain_size;
            if (mine < 0) {
                s = pw_fail_errno(err, path, "cannot duplicate a descriptor");
                close(c.fd);
            } else {
                copies_add(&c);
            }
        }
    }
    pthread_mutex_unlock(&copies_lock);
    if (s == PW_OK)
        *out_fd = mine;
    return s;
}
