/* share.c — one process of several reads a share of the locations: the
 * locations with records, in dataset order, cut into consecutive runs of
 * about equal bytes (the size of each location's file), so that a program
 * running P processes (perfweave-mpi) splits the reading without the
 * library knowing how the processes talk. */
#include <stdlib.h>
#include <sys/stat.h>

#include "model/dataset.h"

uint64_t pw_ds_file_weight(const char *file)
{
    struct stat st;
    if (file && stat(file, &st) == 0 && st.st_size > 0)
        return (uint64_t)st.st_size;
    return 1;
}

/* The node a location lies under, or -1. */
static int32_t node_of(const pw_dataset *ds, uint32_t loc)
{
    int32_t i = (int32_t)loc;
    while (i >= 0 && ds->locs[i].kind != PW_LOC_NODE)
        i = ds->locs[i].parent;
    return i;
}

void pw_share_cut(const uint64_t *weight, const int32_t *group, size_t n, unsigned index, unsigned count,
                  size_t *first_out, size_t *end_out)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += weight[i];
    /* Share k starts at the first item whose preceding bytes reach k/count
     * of the total; an item of the group before it goes where that went. */
    uint64_t before = 0;
    size_t first = n, end = n;
    unsigned owner = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t g = group ? group[i] : -1;
        /* before * count < 2^64 while bytes * processes < 1.8e19 (100 TB on 100,000) */
        if (g < 0 || i == 0 || g != group[i - 1])
            owner = (unsigned)(before * count / (total ? total : 1));
        if (owner >= index && first == n)
            first = i;
        if (owner > index) {
            end = i;
            break;
        }
        before += weight[i];
    }
    *first_out = first;
    *end_out = end < first ? first : end;
}

/* Whether items [first, end) are what a two-step open walked (any share
 * when the open walked every location; empty shares are alike). */
static int walked_it(const pw_dataset *ds, size_t first, size_t end)
{
    if (!ds->run->walked_part)
        return 1;
    if (first == end)
        return ds->run->walked_first == ds->run->walked_end;
    return first == ds->run->walked_first && end == ds->run->walked_end;
}

pw_status pw_dataset_set_share(pw_dataset *ds, unsigned index, unsigned count, pw_error *err)
{
    if (count == 0 || index >= count)
        return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET, "share %u of %u does not exist", index,
                       count);
    size_t n;
    uint32_t *locs = pw_ds_record_locations(ds, &n);
    uint64_t *weight = locs ? malloc((n ? n : 1) * sizeof *weight) : NULL;
    int32_t *group = weight && ds->share_by_node ? malloc((n ? n : 1) * sizeof *group) : NULL;
    if (!weight || (ds->share_by_node && !group)) {
        free(weight);
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        weight[i] = pw_ds_file_weight(ds->locs[locs[i]].file);
        if (group)
            group[i] = node_of(ds, locs[i]);
    }
    size_t first, end;
    pw_share_cut(weight, group, n, index, count, &first, &end);
    free(weight);
    free(group);
    if (!walked_it(ds, first, end))
        return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                       "share %u of %u holds record locations [%zu, %zu), but the open walked [%zu, %zu) only: "
                       "set the share pw_open_share opened",
                       index, count, first, end, ds->run->walked_first, ds->run->walked_end);
    ds->run->share_first = first;
    ds->run->share_end = end;
    ds->run->share_index = index;
    return PW_OK;
}

void pw_ds_share(const pw_dataset *ds, size_t n, size_t *first, size_t *end)
{
    *first = ds->run->share_first < n ? ds->run->share_first : n;
    *end = ds->run->share_end < n ? ds->run->share_end : n;
}

uint8_t *pw_ds_share_owned(pw_dataset *ds, int *whole)
{
    size_t n, first, end;
    uint32_t *locs = pw_ds_record_locations(ds, &n);
    pw_ds_share(ds, n, &first, &end);
    *whole = locs && first == 0 && end == n;
    uint8_t *owned = locs && !*whole ? calloc(ds->n_locs ? ds->n_locs : 1, 1) : NULL;
    for (size_t i = 0; owned && i < ds->n_locs; i++)
        owned[i] = !ds->locs[i].has_records && ds->run->share_index == 0;
    for (size_t i = first; owned && i < end; i++)
        owned[locs[i]] = 1;
    return owned;
}

void pw_dataset_set_collectives(pw_dataset *ds, const pw_collectives *c) { ds->run->collectives = c; }

uint64_t pw_ds_locations_digest(const pw_dataset *ds)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the paths, NUL-separated */
    for (size_t i = 0; i < ds->n_locs; i++)
        for (const char *p = ds->locs[i].path;; p++) {
            h = (h ^ (uint8_t)*p) * 1099511628211ull;
            if (!*p)
                break;
        }
    return h;
}
