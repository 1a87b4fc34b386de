/* cmd_info.c — perfweave info: what a path holds. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

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

static int info_run(cli_args *a)
{
    pw_dataset *ds;
    pw_error err = {.status = PW_E_NOMEM, .message = "out of memory"};
    pw_status s = pw_open(a->path, &a->opt, &ds, &err);
    if (s == PW_E_FORMAT && !a->opt.format) { /* a folder of several datasets lists them */
        int listed = cli_info_collection(a);
        if (listed >= 0)
            return listed;
    }
    if (s != PW_OK)
        return cli_fail(&err);
    int code = EXIT_OK;
    pw_report *r = pw_report_new();
    pw_summary sum;
    cli_progress *prog = cli_progress_start(a, ds, "reading");
    s = r ? pw_summarize(ds, &sum, &err) : PW_E_NOMEM;
    cli_progress_stop(prog);
    if (s == PW_OK) {
        pw_rnode *root = pw_report_root(r);
        pw_rnode_str(root, "path", pw_dataset_path(ds));
        pw_rnode_str(root, "format", pw_dataset_format(ds));
        pw_rnode_str(root, "version", pw_dataset_version(ds));
        info_summary(&sum, root);
        pw_rnode_uint(root, "record_types", sum.record_types); /* present, not described */
        info_locations(ds, root, a->locations);
        pw_rnode *props = pw_rnode_object(root, "properties");
        for (size_t i = 0; i < pw_dataset_prop_count(ds); i++) {
            const char *k, *v;
            pw_dataset_prop(ds, i, &k, &v);
            /* Per-location properties ("<location>:<key>") can number
             * thousands: only with --locations. */
            if (a->locations || !strchr(k, ':'))
                pw_rnode_str(props, k, v);
        }
        s = pw_report_write(r, stdout, a->json ? PW_REPORT_JSON : PW_REPORT_TEXT, &err);
    }
    if (s != PW_OK)
        code = cli_fail(&err);
    int dcode = cli_report_diags(ds);
    pw_report_free(r);
    pw_close(ds);
    return code ? code : dcode;
}

const cli_command cli_info = {
    "info",
    "what a path holds: format, version, locations, time span, record count",
    "Detects the format of PATH (a file or directory), reads every record once\n"
    "to count them and find the time span, and lists the metadata.  A folder\n"
    "that holds several datasets lists them.\n\n"
    "  --json        one JSON document instead of text\n"
    "  --locations   list every location (rank, thread, stream...)\n",
    CLI_WANT_JSON | CLI_WANT_LOCATIONS,
    info_run,
};
