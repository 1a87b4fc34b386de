/* dirlist.c — sorted directory listings. */
#include "core/dirlist.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"
#include "core/grow.h"
#include "core/input.h"

static int dirent_cmp(const void *a, const void *b)
{
    return strcmp(((const pw_dirent *)a)->name, ((const pw_dirent *)b)->name);
}

char *pw_path_join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *s = malloc(a + b + 2);
    if (!s)
        return NULL;
    memcpy(s, dir, a);
    s[a] = '/';
    memcpy(s + a + 1, name, b + 1);
    return s;
}

int pw_path_is_dir(const char *path)
{
    struct stat st;
    if (pw_input_stat(path, &st) != 0)
        return -1;
    return S_ISDIR(st.st_mode) ? 1 : 0;
}

/* Fills the type of one entry, following links as stat does. */
static void dirent_classify(const char *dir, pw_dirent *e)
{
    char *full = pw_path_join(dir, e->name);
    struct stat st;
    if (full && stat(full, &st) == 0) {
        e->is_dir = S_ISDIR(st.st_mode);
        e->is_file = S_ISREG(st.st_mode);
    }
    free(full);
    /* A compressed file is listed under its plain name. */
    size_t k = e->is_file ? pw_input_suffix_len(e->name) : 0;
    if (k)
        e->name[strlen(e->name) - k] = '\0';
}

/* Drops entries listed twice (NAME and NAME.zst both present): the name
 * opens the plain copy first.  The list is sorted. */
static void dirlist_unique(pw_dirlist *l)
{
    size_t kept = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (kept && !strcmp(l->items[kept - 1].name, l->items[i].name)) {
            free(l->items[i].name);
            continue;
        }
        l->items[kept++] = l->items[i];
    }
    l->n = kept;
}

pw_status pw_dirlist_read(const char *path, pw_dirlist *out, pw_error *err)
{
    out->items = NULL;
    out->n = 0;
    DIR *d = opendir(path);
    if (!d)
        return pw_fail_errno(err, path, "cannot list directory");
    size_t cap = 0;
    struct dirent *de;
    pw_status st = PW_OK;
    while ((de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (!pw_grow((void **)&out->items, out->n, &cap, sizeof *out->items)) {
            st = pw_fail(err, PW_E_NOMEM, path, PW_NO_OFFSET, "no memory to list directory");
            break;
        }
        pw_dirent *e = &out->items[out->n];
        memset(e, 0, sizeof *e);
        e->name = strdup(de->d_name);
        if (!e->name) {
            st = pw_fail(err, PW_E_NOMEM, path, PW_NO_OFFSET, "no memory to list directory");
            break;
        }
        out->n++;
        dirent_classify(path, e);
    }
    closedir(d);
    if (st != PW_OK) {
        pw_dirlist_free(out);
        return st;
    }
    if (out->n > 1)
        qsort(out->items, out->n, sizeof *out->items, dirent_cmp);
    dirlist_unique(out);
    return PW_OK;
}

void pw_dirlist_free(pw_dirlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->items[i].name);
    free(l->items);
    l->items = NULL;
    l->n = 0;
}
