/* window.h — bounded, windowed reading of one file.
 *
 * A window keeps a private buffer over a part of the file and refills it
 * with pread as the reader moves forward, so memory stays the buffer's size
 * however large the file is.  Every access states how many bytes it needs;
 * the window either provides them all or says the file ends first.  Files
 * are opened by the rules of input.h (regular files only, compressed copies
 * read as plain, changes during the run reported as PW_E_IO). */
#ifndef PW_CORE_WINDOW_H
#define PW_CORE_WINDOW_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/input.h"
#include "perfweave.h"

typedef struct pw_window {
    pw_input in;            /* the open file (plain bytes, see input.h) */
    const char *path;       /* borrowed; names the file in errors */
    uint64_t file_size;     /* size of the plain bytes when opened */
    uint8_t *buf;
    size_t cap;             /* buffer capacity */
    size_t max_cap;         /* the largest single access allowed */
    uint64_t base;          /* file offset of buf[0] */
    size_t len;             /* valid bytes in buf */
    _Atomic uint64_t *progress; /* bytes read are added here, when not NULL */
} pw_window;

/* Default buffer: large enough that refills are rare, small enough that
 * thousands of open cursors stay within memory limits. */
#define PW_WINDOW_DEFAULT_CAP ((size_t)256 * 1024)

/* Opens `path` for reading.  `cap` is the initial buffer size; accesses up
 * to `max_cap` bytes grow the buffer on demand.  `path` must outlive w. */
pw_status pw_window_open(pw_window *w, const char *path, size_t cap, size_t max_cap,
                         pw_error *err);
/* pw_window_open for a file first read earlier in the run (its identity then
 * was `seen`, e.g. w->in.id of the window that listed it): a file changed
 * in between is PW_E_IO, not a shorter trace.  NULL `seen`: no check. */
pw_status pw_window_open_seen(pw_window *w, const char *path, size_t cap, size_t max_cap,
                              const pw_input_id *seen, pw_error *err);
void pw_window_close(pw_window *w);

/* Slow path of pw_window_need: refills the buffer. */
pw_status pw_window_fill(pw_window *w, uint64_t off, size_t n, const uint8_t **p, pw_error *err);

/* Makes bytes [off, off+n) available at *p.  Returns PW_OK, PW_END when the
 * file has fewer than off+n bytes (nothing is set: the caller reports the
 * truncation in its own terms; a file whose size or time changed since it
 * was opened is PW_E_IO instead), or PW_E_IO / PW_E_NOMEM / PW_E_DATA (an
 * access larger than max_cap) with err filled.  *p stays valid until the
 * next call on w. */
static inline pw_status pw_window_need(pw_window *w, uint64_t off, size_t n, const uint8_t **p,
                                       pw_error *err)
{
    if (off >= w->base && off - w->base <= w->len && n <= w->len - (off - w->base)) {
        *p = w->buf + (off - w->base);
        return PW_OK;
    }
    return pw_window_fill(w, off, n, p, err);
}

/* The bytes already buffered at off: their count (0 when off is not in
 * the buffer), at *p until the next call on w.  A reader that parses what
 * is there, and calls pw_window_need only for a record that runs past it,
 * never has the window move bytes it still holds. */
static inline size_t pw_window_have(const pw_window *w, uint64_t off, const uint8_t **p)
{
    if (off < w->base || off - w->base >= w->len)
        return 0;
    *p = w->buf + (off - w->base);
    return w->len - (size_t)(off - w->base);
}

/* Bytes of the file at and after off (0 when off is past the end). */
static inline uint64_t pw_window_left(const pw_window *w, uint64_t off)
{
    return off < w->file_size ? w->file_size - off : 0;
}
#endif
