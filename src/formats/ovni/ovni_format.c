/* ovni_format.c — the ovni entry of the format registry. */
#include <stdlib.h>

#include "core/dirlist.h"

#include "formats/ovni/ovni.h"

/* A trace directory (or its parent) scores high; a single stream file with
 * the magic scores the same: both are certain. */
static int ovni_probe(const char *path)
{
    char *root = ovni_find_root(path);
    if (root) {
        free(root);
        return 90;
    }
    if (ovni_is_stream_file(path))
        return 100;
    /* A stream whose header is damaged is still recognised by its name,
     * weakly, so that check can say what is wrong with it. */
    return pw_path_is_dir(path) == 0 && ovni_looks_like_stream_name(path) ? 10 : 0;
}

static pw_status ovni_open(pw_dataset *ds, pw_error *err)
{
    ovni_dataset *od = calloc(1, sizeof *od);
    if (!od)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    ds->impl = od;
    pw_status s = ovni_layout_open(ds, err);
    if (s == PW_OK && !(od->big_of_loc = calloc(ds->n_locs ? ds->n_locs : 1, 1)))
        s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    if (s == PW_OK)
        s = ovni_schemas_build(ds, od, err);
    ds->time_ordered = ds->own_subtree = 1; /* one stream per thread, by clock */
    ds->share_by_node = 1; /* the emulator replays a loom's streams together */
    /* The records can be run through the ovni emulator
     * (src/analysis/ovniemu/): how convert, check and stats learn it
     * without testing the format's name. */
    if (s == PW_OK)
        s = pw_ds_set_prop(ds, "emulation", "ovni", err);
    return s;
}

static void ovni_close(pw_dataset *ds)
{
    ovni_dataset *od = ds->impl;
    if (!od)
        return;
    ovni_schemas_free(od);
    free(od->big_of_loc);
    free(od->seen_of_loc);
    free(od);
    ds->impl = NULL;
}

const pw_format_ops pw_format_ovni = {
    .name = "ovni",
    .description = "ovni runtime traces (libovni 1.0 - 1.14: metadata v1, v2, v3)",
    .probe = ovni_probe,
    .open = ovni_open,
    .cursor_open = ovni_cursor_open,
    .stats_part = ovni_stats_part,
    .stats_join = ovni_stats_join,
    .check = NULL,
    .close = ovni_close,
    .options = NULL,
    .tables = ovni_table_decls,
    .analyses = (const char *const[]){"ovniemu", NULL},
    .stats_filtered = 1,
};
