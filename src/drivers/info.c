/* info.c — pw_info: the summary of what a dataset holds, as one report
 * tree, so that the CLI's `info` and the bindings print the same thing. */
#include <string.h>

#include "perfweave.h"

/* Per-kind location counts, and the full list with --locations. */
static void info_locations(const pw_dataset *ds, pw_rnode *root, int list)
{
    size_t counts[PW_LOC_OTHER + 1] = {0};
    size_t n = pw_location_count(ds);
    for (size_t i = 0; i < n; i++)
        counts[pw_location_get(ds, i)->kind]++;
    pw_rnode *kinds = pw_rnode_object(root, "locations");
    for (int k = 0; k <= PW_LOC_OTHER; k++)
        if (counts[k])
            pw_rnode_uint(kinds, pw_location_kind_name((pw_location_kind)k), counts[k]);
    if (!list)
        return;
    pw_rnode *arr = pw_rnode_array(root, "location_list");
    for (size_t i = 0; i < n; i++) {
        const pw_location *l = pw_location_get(ds, i);
        pw_rnode *o = pw_rnode_object(arr, NULL);
        pw_rnode_str(o, "path", l->path);
        pw_rnode_str(o, "kind", pw_location_kind_name(l->kind));
        pw_rnode_int(o, "id", l->id);
        if (l->file)
            pw_rnode_str(o, "file", l->file);
    }
}

static void info_summary(const pw_summary *s, pw_rnode *root)
{
    pw_rnode_uint(root, "records", s->records);
    if (s->has_ns) {
        pw_rnode_int(root, "time_first_ns", s->t_min);
        pw_rnode_int(root, "time_last_ns", s->t_max);
        pw_rnode_num(root, "time_span_s", (double)(s->t_max - s->t_min) / 1e9);
    }
    if (s->has_virtual) {
        pw_rnode_num(root, "virtual_time_first", s->vt_min);
        pw_rnode_num(root, "virtual_time_last", s->vt_max);
    }
}

pw_status pw_info(pw_dataset *ds, pw_report *r, int with_locations, pw_error *err)
{
    pw_summary sum;
    pw_status s = pw_summarize(ds, &sum, err);
    if (s != PW_OK)
        return s;
    pw_rnode *root = pw_report_root(r);
    pw_rnode_str(root, "path", pw_dataset_path(ds));
    pw_rnode_str(root, "format", pw_dataset_format(ds));
    pw_rnode_str(root, "version", pw_dataset_version(ds));
    info_summary(&sum, root);
    pw_rnode_uint(root, "record_types", sum.record_types); /* present, not described */
    info_locations(ds, root, with_locations);
    pw_rnode *props = pw_rnode_object(root, "properties");
    for (size_t i = 0; i < pw_dataset_prop_count(ds); i++) {
        const char *k, *v;
        pw_dataset_prop(ds, i, &k, &v);
        /* Per-location properties ("<location>:<key>") can number
         * thousands: only with the location list. */
        if (with_locations || !strchr(k, ':'))
            pw_rnode_str(props, k, v);
    }
    return PW_OK;
}
