/* info_dir.c — perfweave info on a folder that holds several datasets
 * (a folder of runs, a test suite's traces): one row per dataset found
 * among its subfolders and files, instead of "no known format". */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Adds a row for `path` when it opens as a dataset; 1 if it did. */
static int info_dir_row(cli_args *a, const char *path, pw_rnode *rows)
{
    pw_dataset *ds;
    pw_error err;
    if (pw_open(path, &a->opt, &ds, &err) != PW_OK)
        return 0;
    size_t with_records = 0;
    for (size_t i = 0; i < pw_location_count(ds); i++)
        with_records += pw_location_get(ds, i)->has_records != 0;
    pw_rnode *o = pw_rnode_object(rows, NULL);
    pw_rnode_str(o, "path", path);
    pw_rnode_str(o, "format", pw_dataset_format(ds));
    pw_rnode_str(o, "version", pw_dataset_version(ds));
    pw_rnode_uint(o, "locations", with_records);
    pw_close(ds);
    return 1;
}

int cli_info_collection(cli_args *a)
{
    struct dirent **names;
    int n = scandir(a->path, &names, NULL, alphasort);
    if (n < 0)
        return -1;
    pw_report *r = pw_report_new();
    pw_rnode *root = r ? pw_report_root(r) : NULL;
    pw_rnode *rows = root ? pw_rnode_array(root, "datasets") : NULL;
    size_t found = 0, other = 0;
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        if (rows && name[0] != '.') {
            size_t len = strlen(a->path) + strlen(name) + 2;
            char *path = malloc(len);
            if (path) {
                snprintf(path, len, "%s/%s", a->path, name);
                if (info_dir_row(a, path, rows))
                    found++;
                else
                    other++;
            }
            free(path);
        }
        free(names[i]);
    }
    free(names);
    int code = -1;
    if (found) {
        pw_rnode_str(root, "path", a->path);
        pw_rnode_uint(root, "other_entries", other);
        pw_error err;
        pw_status s = pw_report_write(r, stdout, a->json ? PW_REPORT_JSON : PW_REPORT_TEXT, &err);
        code = s == PW_OK ? EXIT_OK : cli_fail(&err);
    }
    pw_report_free(r);
    return code;
}
