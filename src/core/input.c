/* input.c — the rules every input file is opened by (see input.h). */
#define _GNU_SOURCE
#include "core/input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/input_decoder.h"

static const char *const suffixes[] = {".zst", ".gz"};

size_t pw_input_suffix_len(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        size_t k = strlen(suffixes[i]);
        if (n > k && !strcmp(name + n - k, suffixes[i]))
            return k;
    }
    return 0;
}

/* What a non-regular file is, for the message that refuses it. */
static const char *file_kind(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

static void id_from_stat(pw_input_id *id, const struct stat *st)
{
    id->dev = (uint64_t)st->st_dev;
    id->ino = (uint64_t)st->st_ino;
    id->size = (uint64_t)st->st_size;
    id->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

/* Opens one name without blocking; -1 with errno set when it cannot. */
static int open_nonblocking(const char *name)
{
    int fd;
    do
        fd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    while (fd < 0 && errno == EINTR);
    return fd;
}

/* Opens path, or its compressed sibling when path does not exist; *stored
 * receives the name actually opened (malloc'd when it differs from path). */
static int open_stored(const char *path, char **stored)
{
    *stored = NULL;
    int fd = open_nonblocking(path);
    if (fd >= 0 || errno != ENOENT)
        return fd;
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        char *alt = malloc(n + 8);
        if (!alt)
            break;
        snprintf(alt, n + 8, "%s%s", path, suffixes[i]);
        fd = open_nonblocking(alt);
        if (fd >= 0) {
            *stored = alt;
            return fd;
        }
        free(alt);
    }
    errno = ENOENT;
    return -1;
}

pw_status pw_input_open(const char *path, pw_input *in, pw_error *err)
{
    memset(in, 0, sizeof *in);
    in->fd = in->stored_fd = -1;
    char *stored = NULL;
    int fd = open_stored(path, &stored);
    if (fd < 0)
        return pw_fail_errno(err, path, "cannot open");
    struct stat st;
    pw_status s = PW_OK;
    if (fstat(fd, &st) != 0)
        s = pw_fail_errno(err, path, "cannot stat");
    else if (!S_ISREG(st.st_mode))
        s = pw_fail(err, PW_E_IO, path, PW_NO_OFFSET, "%s, not a regular file: refused",
                    file_kind(st.st_mode));
    /* Regular files ignore O_NONBLOCK; clear it all the same, for clarity. */
    if (s == PW_OK)
        (void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    pw_codec codec = pw_codec_of_name(stored ? stored : path);
    if (s == PW_OK) {
        id_from_stat(&in->id, &st);
        in->stored_fd = fd;
        in->fd = fd;
        in->size = (uint64_t)st.st_size;
    }
    if (s == PW_OK && codec != PW_CODEC_NONE) {
        s = pw_decoder_plain_copy(codec, fd, path, &in->fd, &in->size, err);
        in->compressed = s == PW_OK;
        if (s != PW_OK)
            in->fd = -1;
    }
    free(stored);
    if (s != PW_OK) {
        close(fd);
        in->stored_fd = -1;
    }
    return s;
}

void pw_input_close(pw_input *in)
{
    if (in->fd >= 0 && in->fd != in->stored_fd)
        close(in->fd);
    if (in->stored_fd >= 0)
        close(in->stored_fd);
    in->fd = in->stored_fd = -1;
}

/* The message for a file whose identity differs from the one expected. */
static pw_status changed(const pw_input_id *was, const pw_input_id *now, const char *path,
                         const char *when, pw_error *err)
{
    if (was->size != now->size)
        return pw_fail(err, PW_E_IO, path, PW_NO_OFFSET,
                       "the file changed %s (%llu bytes, now %llu): its data cannot be trusted",
                       when, (unsigned long long)was->size, (unsigned long long)now->size);
    return pw_fail(err, PW_E_IO, path, PW_NO_OFFSET,
                   "the file changed %s (it was rewritten): its data cannot be trusted", when);
}

static int same_id(const pw_input_id *a, const pw_input_id *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns;
}

pw_status pw_input_unchanged(const pw_input *in, const char *path, pw_error *err)
{
    struct stat st;
    if (in->stored_fd < 0)
        return PW_OK;
    if (fstat(in->stored_fd, &st) != 0)
        return pw_fail_errno(err, path, "cannot stat");
    pw_input_id now;
    id_from_stat(&now, &st);
    return same_id(&in->id, &now) ? PW_OK : changed(&in->id, &now, path, "while it was read", err);
}

pw_status pw_input_same_as(const pw_input *in, const pw_input_id *seen, const char *path,
                           pw_error *err)
{
    static const pw_input_id unknown;
    if (same_id(seen, &unknown) || same_id(seen, &in->id))
        return PW_OK;
    /* A file replaced by another (new inode) is as much a change as a cut. */
    return changed(seen, &in->id, path, "since the dataset was opened", err);
}

int pw_input_stat(const char *path, struct stat *st)
{
    int r0 = stat(path, st);
    if (r0 == 0 || errno != ENOENT)
        return r0;
    size_t n = strlen(path);
    char *alt = malloc(n + 8);
    if (!alt)
        return -1;
    int r = -1;
    for (size_t i = 0; r != 0 && i < sizeof suffixes / sizeof *suffixes; i++) {
        snprintf(alt, n + 8, "%s%s", path, suffixes[i]);
        r = stat(alt, st);
    }
    free(alt);
    if (r != 0)
        errno = ENOENT;
    return r;
}

void pw_input_id_of(const char *path, pw_input_id *id)
{
    struct stat st;
    memset(id, 0, sizeof *id);
    if (pw_input_stat(path, &st) == 0 && S_ISREG(st.st_mode))
        id_from_stat(id, &st);
}

size_t pw_input_peek(const char *path, void *buf, size_t n)
{
    char *stored = NULL;
    int fd = open_stored(path, &stored);
    if (fd < 0)
        return 0;
    struct stat st;
    size_t got = 0;
    pw_codec codec = pw_codec_of_name(stored ? stored : path);
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        pw_decoder *d = NULL;
        if (codec == PW_CODEC_NONE) {
            ssize_t r = pread(fd, buf, n, 0);
            got = r > 0 ? (size_t)r : 0;
        } else if (pw_decoder_new(codec, fd, path, &d, NULL) == PW_OK) {
            size_t step = 1;
            while (got < n && step > 0 &&
                   pw_decoder_read(d, (uint8_t *)buf + got, n - got, &step, NULL) == PW_OK)
                got += step;
            pw_decoder_free(d);
        }
    }
    close(fd);
    free(stored);
    return got;
}

pw_status pw_input_read_all(const char *path, size_t max, char **out, size_t *n, pw_error *err)
{
    pw_input in;
    pw_status s = pw_input_open(path, &in, err);
    if (s != PW_OK)
        return s;
    char *buf = NULL;
    if (in.size > max)
        s = pw_fail(err, PW_E_DATA, path, (int64_t)max, "larger than the %zu bytes expected", max);
    else if (!(buf = malloc((size_t)in.size + 1)))
        s = pw_fail(err, PW_E_NOMEM, path, PW_NO_OFFSET, "no memory to read the file");
    size_t have = 0;
    while (s == PW_OK && have < in.size) {
        ssize_t r = pread(in.fd, buf + have, (size_t)in.size - have, (off_t)have);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            s = pw_fail_errno(err, path, "read failed");
        else if (r == 0)
            s = pw_input_unchanged(&in, path, err) != PW_OK
                    ? PW_E_IO
                    : pw_fail(err, PW_E_IO, path, (int64_t)have, "the file ends early");
        else
            have += (size_t)r;
    }
    if (s == PW_OK)
        s = pw_input_unchanged(&in, path, err);
    pw_input_close(&in);
    if (s != PW_OK) {
        free(buf);
        return s;
    }
    buf[have] = '\0';
    *out = buf;
    *n = have;
    return PW_OK;
}
