/* input.h — opening the files a dataset reads.
 *
 * Every reader opens its files here, so that all formats share one set of
 * rules:
 *  - a file is opened without blocking (a FIFO cannot hang the run) and
 *    refused by name when it is not a regular file (a FIFO, a device);
 *  - a file stored compressed (NAME.zst or NAME.gz) is found under its plain
 *    name NAME and read as its plain bytes: it is decompressed once into an
 *    unlinked temporary file (memory stays the decompressor's buffers, the
 *    disk holds the plain bytes), which readers then access at random like
 *    any file;
 *  - the identity of the stored file (device, inode, size, modification
 *    time) is kept, so that a file which changes during the run is reported
 *    as such (PW_E_IO, naming the file), never read as a shorter trace. */
#ifndef PW_CORE_INPUT_H
#define PW_CORE_INPUT_H
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "perfweave.h"

/* What identifies one version of a stored file.  All zero: not known. */
typedef struct pw_input_id {
    uint64_t dev, ino;
    uint64_t size;      /* stored (possibly compressed) size */
    int64_t mtime_ns;
} pw_input_id;

typedef struct pw_input {
    int fd;             /* plain bytes, for pread */
    int stored_fd;      /* the file as stored, to see changes (== fd when plain) */
    uint64_t size;      /* size of the plain bytes */
    pw_input_id id;     /* identity of the stored file when opened */
    int compressed;     /* 1 when fd holds decompressed bytes */
} pw_input;

/* Opens path (or path.zst / path.gz when path itself does not exist).
 * Errors name path and the real errno; a non-regular file is PW_E_IO,
 * a damaged compressed file PW_E_DATA. */
pw_status pw_input_open(const char *path, pw_input *in, pw_error *err);
void pw_input_close(pw_input *in);

/* PW_OK when the stored file still has the identity it had when opened;
 * PW_E_IO naming path otherwise (it was truncated, grown or rewritten). */
pw_status pw_input_unchanged(const pw_input *in, const char *path, pw_error *err);

/* PW_OK when in has the identity `seen` (recorded when the file was first
 * read, e.g. while the dataset was opened); PW_E_IO naming path otherwise.
 * A zero `seen` matches anything. */
pw_status pw_input_same_as(const pw_input *in, const pw_input_id *seen, const char *path,
                           pw_error *err);

/* The identity of path as stored now (its compressed sibling when path
 * does not exist); all zero when it cannot be seen, which matches anything
 * later (the reader then reports the file itself). */
void pw_input_id_of(const char *path, pw_input_id *id);

/* stat() of path, or of path.zst / path.gz when path does not exist; for
 * probes and listings that ask whether a file is there.  Returns 0 or -1
 * with errno set, as stat does. */
int pw_input_stat(const char *path, struct stat *st);

/* Up to n first plain bytes of path (decompressing only what they need);
 * returns how many, 0 when the file cannot be read.  For cheap probes. */
size_t pw_input_peek(const char *path, void *buf, size_t n);

/* The whole plain content of a small file, NUL-terminated, in a new malloc'd
 * buffer; PW_E_DATA when it holds more than max bytes. */
pw_status pw_input_read_all(const char *path, size_t max, char **out, size_t *n, pw_error *err);

/* Length of a compression suffix (".zst", ".gz") that name ends with, else 0. */
size_t pw_input_suffix_len(const char *name);
#endif
