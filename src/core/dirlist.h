/* dirlist.h — the entries of a directory, sorted by name, so that every
 * run lists locations in the same order.  A compressed file NAME.zst or
 * NAME.gz is listed as NAME (input.h opens it under that name), once even
 * when several copies exist. */
#ifndef PW_CORE_DIRLIST_H
#define PW_CORE_DIRLIST_H
#include <stddef.h>

#include "perfweave.h"

typedef struct pw_dirent {
    char *name;
    int is_dir;
    /* A regular file.  Readers take every entry that is not a directory as
     * a file (a FIFO, a device, a broken link too), so that opening it
     * refuses it by name instead of skipping it unseen. */
    int is_file;
} pw_dirent;

typedef struct pw_dirlist {
    pw_dirent *items;
    size_t n;
} pw_dirlist;

/* Lists `path` without "." and "..".  Symbolic links are followed. */
pw_status pw_dirlist_read(const char *path, pw_dirlist *out, pw_error *err);
void pw_dirlist_free(pw_dirlist *l);

/* 1 when path is a directory, 0 when it is something else, -1 when absent
 * (a compressed NAME.zst / NAME.gz counts as NAME). */
int pw_path_is_dir(const char *path);
/* path + "/" + name in a new malloc'd string (NULL when out of memory). */
char *pw_path_join(const char *dir, const char *name);
#endif
