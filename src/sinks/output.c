/* output.c — the output discipline shared by every sink (see output.h and
 * perfweave.h "Outputs").  A temporary directory `.<name>.pw-XXXXXX` is
 * made beside the final name; the writer creates its file, directory or
 * files there; on success each entry is renamed to the final directory
 * (the main one last), so no reader ever sees a partial output under the
 * final name.  Temporaries in progress are listed in a fixed table that
 * pw_output_abandon_all can empty from a signal handler. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/error.h"
#include "core/path_name.h"
#include "sinks/output.h"
#include "sinks/sink.h"

/* ---- temporaries in progress, removable from a signal handler ---------- */

#define MAX_TEMPORARIES 8
static char temporaries[MAX_TEMPORARIES][4096];
static volatile sig_atomic_t temporary_used[MAX_TEMPORARIES];

static int temporary_add(const char *path)
{
    for (int i = 0; i < MAX_TEMPORARIES; i++) {
        if (temporary_used[i])
            continue;
        memcpy(temporaries[i], path, strlen(path) + 1);
        temporary_used[i] = 1;
        return i;
    }
    return -1;
}

/* The entries of a directory as the kernel lists them (getdents64 is a
 * plain system call, safe in a signal handler, unlike readdir). */
struct dirent64_raw {
    unsigned long long ino;
    long long off;
    unsigned short reclen;
    unsigned char type;
    char name[];
};

/* Removes name (in dirfd) and, for a directory, everything under it,
 * with async-signal-safe calls only.  Never follows a symbolic link. */
static void remove_tree_at(int dirfd, const char *name, int depth)
{
    if (unlinkat(dirfd, name, 0) == 0 || (errno != EISDIR && errno != EPERM) || depth > 16)
        return;
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[4096] __attribute__((aligned(8)));
    long n;
    int removed = 1;
    while (removed) { /* rescan until a pass finds only "." and ".." */
        removed = 0;
        lseek(fd, 0, SEEK_SET);
        while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
            for (long off = 0; off < n;) {
                struct dirent64_raw *e = (struct dirent64_raw *)(buf + off);
                off += e->reclen;
                if (strcmp(e->name, ".") && strcmp(e->name, "..")) {
                    remove_tree_at(fd, e->name, depth + 1);
                    removed = 1;
                }
            }
        }
    }
    close(fd);
    unlinkat(dirfd, name, AT_REMOVEDIR);
}

static void remove_tree(const char *path) { remove_tree_at(AT_FDCWD, path, 0); }

void pw_output_abandon_all(void)
{
    for (int i = 0; i < MAX_TEMPORARIES; i++) {
        if (temporary_used[i]) {
            remove_tree(temporaries[i]);
            temporary_used[i] = 0;
        }
    }
}

/* ---- preparing and finishing an output --------------------------------- */

/* Splits path (trailing '/' dropped) into final and dir. */
static pw_status split_path(pw_output *o, const char *path, pw_error *err)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    if (n == 0 || n >= sizeof o->final)
        return pw_fail(err, PW_E_USAGE, path, PW_NO_OFFSET, "not a usable output name");
    memcpy(o->final, path, n);
    o->final[n] = '\0';
    const char *slash = strrchr(o->final, '/');
    if (!slash)
        strcpy(o->dir, ".");
    else if (slash == o->final)
        strcpy(o->dir, "/");
    else
        snprintf(o->dir, sizeof o->dir, "%.*s", (int)(slash - o->final), o->final);
    return PW_OK;
}

static void release(pw_output *o)
{
    if (o->slot >= 0)
        temporary_used[o->slot] = 0;
    free(o);
}

/* Writes in place: standard output, a FIFO, a device. */
static pw_status begin_stream(pw_output *o, const char *path, unsigned caps, pw_error *err)
{
    if (!(caps & PW_SINK_STREAMS))
        return pw_fail(err, PW_E_USAGE, o->final, PW_NO_OFFSET,
                       "not a regular file: this target writes files, not streams");
    snprintf(o->work, sizeof o->work, "%s", strcmp(path, "-") ? o->final : "/dev/stdout");
    return PW_OK;
}

/* The temporary directory is listed for pw_output_abandon_all before it
 * exists (mkdtemp fills in the listed name), so no signal can orphan it. */
static pw_status begin_temporary(pw_output *o, pw_error *err)
{
    int n = snprintf(o->tmpdir, sizeof o->tmpdir, "%s/.%s.pw-XXXXXX", o->dir, pw_base_name(o->final));
    if (n < 0 || (size_t)n >= sizeof o->tmpdir)
        return pw_fail(err, PW_E_USAGE, o->final, PW_NO_OFFSET, "output name too long");
    o->slot = temporary_add(o->tmpdir);
    char *name = o->slot >= 0 ? temporaries[o->slot] : o->tmpdir;
    if (!mkdtemp(name)) {
        pw_status s = pw_fail_errno(err, o->dir, "cannot create a temporary output in the directory");
        o->tmpdir[0] = '\0';
        return s;
    }
    memcpy(o->tmpdir, name, (size_t)n + 1);
    snprintf(o->work, sizeof o->work, "%s/%s", o->tmpdir, pw_base_name(o->final));
    return PW_OK;
}

pw_status pw_output_begin(const char *path, unsigned flags, unsigned caps, pw_output **out, pw_error *err)
{
    *out = NULL;
    pw_output *o = calloc(1, sizeof *o);
    if (!o)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    o->slot = -1;
    o->flags = flags;
    int to_stdout = !strcmp(path, "-");
    pw_status s = split_path(o, to_stdout ? "<stdout>" : path, err);
    struct stat st;
    int exists = s == PW_OK && !to_stdout && stat(o->final, &st) == 0;
    if (s == PW_OK && (to_stdout || (exists && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))))
        s = begin_stream(o, path, caps, err);
    else if (s == PW_OK && exists && !(flags & PW_OUTPUT_FORCE))
        s = pw_fail(err, PW_E_USAGE, o->final, PW_NO_OFFSET, "exists; --force replaces it");
    else if (s == PW_OK && exists && !S_ISDIR(st.st_mode) != !(caps & PW_SINK_DIRECTORY))
        s = pw_fail(err, PW_E_USAGE, o->final, PW_NO_OFFSET, "exists as a %s; this output is a %s, left as it is",
                    S_ISDIR(st.st_mode) ? "directory" : "file", caps & PW_SINK_DIRECTORY ? "directory" : "file");
    else if (s == PW_OK)
        s = begin_temporary(o, err);
    if (s != PW_OK) {
        release(o);
        return s;
    }
    *out = o;
    return PW_OK;
}

void pw_output_rename_in(const pw_output *o, pw_error *err)
{
    size_t n = strlen(o->work);
    if (!err || !o->tmpdir[0] || !n)
        return;
    char *at = strstr(err->message, o->work);
    if (at) {
        char rest[sizeof err->message];
        snprintf(rest, sizeof rest, "%s", at + n);
        snprintf(at, sizeof err->message - (size_t)(at - err->message), "%s%s", o->final, rest);
    }
    if (!strncmp(err->file, o->work, n)) {
        size_t k = strlen(o->final) < sizeof err->file ? strlen(o->final) : sizeof err->file - 1;
        memcpy(err->file, o->final, k);
        err->file[k] = '\0';
    }
}

/* Renames tmpdir/name to dir/name; an existing one is first moved into
 * the temporary directory, then removed with it. */
static pw_status place(pw_output *o, const char *name, pw_error *err)
{
    char from[8192], to[8192], aside[8192];
    snprintf(from, sizeof from, "%s/%s", o->tmpdir, name);
    snprintf(to, sizeof to, "%s/%s", o->dir, name);
    snprintf(aside, sizeof aside, "%s/.replaced.%s", o->tmpdir, name);
    struct stat st;
    if (lstat(to, &st) == 0) {
        if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) && !S_ISLNK(st.st_mode))
            return pw_fail(err, PW_E_IO, to, PW_NO_OFFSET, "not a regular file; left as it is");
        if (rename(to, aside) != 0)
            return pw_fail_errno(err, to, "cannot replace");
    }
    if (rename(from, to) != 0)
        return pw_fail_errno(err, to, "cannot rename the finished output to");
    return PW_OK;
}

pw_status pw_output_finish(pw_output *o, pw_error *err)
{
    if (!o->tmpdir[0]) {
        release(o);
        return PW_OK;
    }
    /* The writer's entries: the main output and its siblings (.pcf, .row). */
    char names[16][256];
    size_t n = 0;
    DIR *d = opendir(o->tmpdir);
    struct dirent *e;
    while (d && (e = readdir(d)) && n < 16)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, pw_base_name(o->final)))
            snprintf(names[n++], sizeof names[0], "%s", e->d_name);
    if (d)
        closedir(d);
    pw_status s = d ? PW_OK : pw_fail_errno(err, o->tmpdir, "cannot list");
    for (size_t i = 0; s == PW_OK && i < n; i++)
        s = place(o, names[i], err);
    if (s == PW_OK)
        s = place(o, pw_base_name(o->final), err);
    remove_tree(o->tmpdir);
    release(o);
    return s;
}

void pw_output_discard(pw_output *o)
{
    if (!o)
        return;
    if (o->f && o->f != stdout)
        fclose(o->f);
    if (o->tmpdir[0])
        remove_tree(o->tmpdir);
    release(o);
}

/* ---- outputs written as one stream by the caller (dump, stats) ---------- */

pw_status pw_output_open(const char *path, unsigned flags, pw_output **out, pw_error *err)
{
    pw_status s = pw_output_begin(path, flags, PW_SINK_STREAMS, out, err);
    if (s != PW_OK)
        return s;
    pw_output *o = *out;
    o->f = !strcmp(path, "-") ? stdout : fopen(o->work, "wb");
    if (!o->f) {
        s = pw_fail_errno(err, o->final, "cannot create");
        pw_output_discard(o);
        *out = NULL;
    }
    return s;
}

FILE *pw_output_stream(pw_output *o) { return o ? o->f : NULL; }

pw_status pw_output_commit(pw_output *o, pw_error *err)
{
    errno = 0;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int saved = errno ? errno : EIO; /* a failed earlier write left no errno */
    if (o->f != stdout && fclose(o->f) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    o->f = NULL;
    if (bad) {
        errno = saved;
        pw_status s = pw_fail_errno(err, o->final, "write failed");
        pw_output_discard(o);
        return s;
    }
    return pw_output_finish(o, err);
}
