/* window.c — the refill logic behind pw_window_need. */
#define _GNU_SOURCE
#include "core/window.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"

pw_status pw_window_open(pw_window *w, const char *path, size_t cap, size_t max_cap,
                         pw_error *err)
{
    return pw_window_open_seen(w, path, cap, max_cap, NULL, err);
}

pw_status pw_window_open_seen(pw_window *w, const char *path, size_t cap, size_t max_cap,
                              const pw_input_id *seen, pw_error *err)
{
    memset(w, 0, sizeof *w);
    w->path = path;
    w->max_cap = max_cap < cap ? cap : max_cap;
    pw_status s = pw_input_open(path, &w->in, err);
    if (s != PW_OK)
        return s;
    if (seen && (s = pw_input_same_as(&w->in, seen, path, err)) != PW_OK) {
        pw_input_close(&w->in);
        return s;
    }
    /* Reading is forward and once: tell the kernel, so it reads ahead. */
    (void)posix_fadvise(w->in.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    w->file_size = w->in.size;
    /* A small file needs no more buffer than its size. */
    if ((uint64_t)cap > w->file_size)
        cap = w->file_size > 0 ? (size_t)w->file_size : 1;
    w->buf = malloc(cap);
    if (!w->buf) {
        pw_input_close(&w->in);
        return pw_fail(err, PW_E_NOMEM, path, PW_NO_OFFSET, "no memory for a %zu-byte window", cap);
    }
    w->cap = cap;
    return PW_OK;
}

void pw_window_close(pw_window *w)
{
    if (!w->buf) /* never opened (zeroed) or already closed */
        return;
    pw_input_close(&w->in);
    free(w->buf);
    w->buf = NULL;
}

/* Grows the buffer to hold at least n bytes (an event larger than the
 * default window, such as an ovni jumbo event). */
static pw_status window_grow(pw_window *w, size_t n, pw_error *err)
{
    size_t cap = w->cap;
    while (cap < n)
        cap = cap > w->max_cap / 2 ? w->max_cap : cap * 2;
    uint8_t *nb = realloc(w->buf, cap);
    if (!nb)
        return pw_fail(err, PW_E_NOMEM, w->path, PW_NO_OFFSET, "no memory for a %zu-byte window", cap);
    w->buf = nb;
    w->cap = cap;
    return PW_OK;
}

/* Reads file bytes into buf[have .. want) from file offset w->base + have. */
static pw_status window_read(pw_window *w, size_t have, size_t want, pw_error *err)
{
    while (have < want) {
        ssize_t r = pread(w->in.fd, w->buf + have, want - have, (off_t)(w->base + have));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return pw_fail_errno(err, w->path, "read failed");
        }
        if (r == 0 && pw_input_unchanged(&w->in, w->path, err) != PW_OK)
            return PW_E_IO;
        if (r == 0)
            return pw_fail(err, PW_E_IO, w->path, (int64_t)(w->base + have),
                           "file shrank while being read (expected %llu bytes)",
                           (unsigned long long)w->file_size);
        if (w->progress)
            atomic_fetch_add_explicit(w->progress, (uint64_t)r, memory_order_relaxed);
        have += (size_t)r;
    }
    w->len = have;
    return PW_OK;
}

pw_status pw_window_fill(pw_window *w, uint64_t off, size_t n, const uint8_t **p, pw_error *err)
{
    /* An end the reader did not expect may be a file cut while being read. */
    if (off > w->file_size || n > w->file_size - off)
        return pw_input_unchanged(&w->in, w->path, err) != PW_OK ? PW_E_IO : PW_END;
    if (n > w->max_cap)
        return pw_fail(err, PW_E_DATA, w->path, (int64_t)off,
                       "a single access of %zu bytes exceeds the %zu-byte limit", n, w->max_cap);
    if (n > w->cap) {
        pw_status s = window_grow(w, n, err);
        if (s != PW_OK)
            return s;
    }
    /* Keep the bytes already read that the new window still covers. */
    size_t keep = 0;
    if (off >= w->base && off < w->base + w->len) {
        keep = (size_t)(w->base + w->len - off);
        memmove(w->buf, w->buf + (off - w->base), keep);
    }
    w->base = off;
    w->len = keep;
    uint64_t left = w->file_size - off;
    size_t want = left < (uint64_t)w->cap ? (size_t)left : w->cap;
    pw_status s = window_read(w, keep, want, err);
    if (s != PW_OK)
        return s;
    *p = w->buf;
    return PW_OK;
}
