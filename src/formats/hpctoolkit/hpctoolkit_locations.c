/* hpctoolkit_locations.c — profiles become locations named by their
 * identifier tuples: each identification is one level of the location
 * tree ("NODE.0" / "RANK.1" / "THREAD.0"), so ranks group their threads and
 * GPU streams.  The calling-context tree is a location of its own ("cct"),
 * whose records are the contexts. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "formats/hpctoolkit/hpctoolkit.h"

/* The child of `parent` named name[0..n), created when absent. */
static int32_t child_named(pw_dataset *ds, int32_t parent, const char *name, size_t n,
                           pw_location_kind kind)
{
    for (size_t i = ds->n_locs; i-- > 0;) {
        const pw_location *l = &ds->locs[i];
        if (l->parent == parent && strlen(l->name) == n && !memcmp(l->name, name, n))
            return (int32_t)i;
    }
    char buf[256];
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    memcpy(buf, name, n);
    buf[n] = '\0';
    return pw_ds_add_location(ds, parent, kind, -1, buf, NULL, 0);
}

static pw_location_kind kind_of(const char *name, size_t n)
{
    if (n > 5 && !memcmp(name, "RANK.", 5))
        return PW_LOC_PROCESS;
    if (n > 7 && !memcmp(name, "THREAD.", 7))
        return PW_LOC_THREAD;
    if (n > 5 && !memcmp(name, "NODE.", 5))
        return PW_LOC_NODE;
    if (n > 3 && !memcmp(name, "GPU", 3))
        return PW_LOC_GPU;
    return PW_LOC_OTHER;
}

static pw_status add_profile(pw_dataset *ds, hpc_dataset *h, uint32_t i, pw_error *err)
{
    hpc_profile *p = &h->profs[i];
    int32_t parent = -1;
    const char *s = p->tuple;
    for (;;) {
        const char *slash = strchr(s, '/');
        size_t n = slash ? (size_t)(slash - s) : strlen(s);
        parent = child_named(ds, parent, s, n, kind_of(s, n));
        if (parent < 0)
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
        if (!slash)
            break;
        s = slash + 1;
    }
    pw_location *loc = &ds->locs[parent];
    if (loc->has_records) {
        /* Two profiles with one tuple: keep both, the second by index. */
        char buf[64];
        snprintf(buf, sizeof buf, "profile.%u", i);
        parent = pw_ds_add_location(ds, parent, PW_LOC_PROFILE, i, buf, NULL, 0);
        if (parent < 0)
            return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
        loc = &ds->locs[parent];
    }
    loc->has_records = 1;
    loc->id = i;
    loc->file = p->path;
    if (loc->kind == PW_LOC_OTHER)
        loc->kind = PW_LOC_PROFILE;
    p->location = parent;
    return PW_OK;
}

pw_status hpc_locations_build(pw_dataset *ds, hpc_dataset *h, pw_error *err)
{
    h->cct_location = pw_ds_add_location(ds, -1, PW_LOC_OTHER, -1, "cct",
                                         h->meta_path ? h->meta_path : h->xml_path, 1);
    if (h->cct_location < 0)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; i < h->n_profs; i++) {
        pw_status s = add_profile(ds, h, i, err);
        if (s != PW_OK)
            return s;
    }
    return PW_OK;
}
