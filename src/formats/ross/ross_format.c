/* ross_format.c — the ROSS entry of the format registry and its options. */
#include <stdlib.h>
#include <string.h>

#include "formats/ross/ross.h"

static const pw_format_option ross_options[] = {
    {"lp_layout", "ross-lp-layout", "48|36",
     "LP sample body size: 48 (ROSS since Dec 2023) or 36 (older); default: as each record says"},
    {"model_schema", "ross-model-schema", "FILE",
     "names the model-sample payload fields: one 'name:type' per line (u32, f64, pad4, ...)"},
    {"event_schema", "ross-event-schema", "FILE",
     "names the event-trace payload fields, in the same 'name:type' form"},
    {NULL, NULL, NULL, NULL},
};

/* ROSS files have no magic: the file names are the evidence. */
static int ross_probe(const char *path) { return ross_probe_path(path); }

static pw_status read_options(pw_dataset *ds, ross_dataset *rd, pw_error *err)
{
    const char *lp = pw_ds_option(ds, "lp_layout");
    if (lp) {
        if (strcmp(lp, "48") && strcmp(lp, "36"))
            return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                           "--ross-lp-layout takes 48 or 36, not '%s'", lp);
        rd->lp_forced = atoi(lp);
    }
    const char *model = pw_ds_option(ds, "model_schema");
    pw_status st = model ? ross_payload_schema_load(ds, model, &rd->model_schema, err) : PW_OK;
    const char *event = pw_ds_option(ds, "event_schema");
    if (st == PW_OK && event)
        st = ross_payload_schema_load(ds, event, &rd->event_schema, err);
    return st;
}

static pw_status ross_open(pw_dataset *ds, pw_error *err)
{
    ross_dataset *rd = calloc(1, sizeof *rd);
    if (!rd)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    ds->impl = rd;
    pw_status st = read_options(ds, rd, err);
    if (st == PW_OK)
        st = ross_layout_open(ds, rd, err);
    if (st == PW_OK)
        st = ross_schemas_build(ds, rd, err);
    return st;
}

static void ross_close(pw_dataset *ds)
{
    ross_dataset *rd = ds->impl;
    if (!rd)
        return;
    ross_layout_free(rd);
    ross_payload_schema_free(&rd->model_schema);
    ross_payload_schema_free(&rd->event_schema);
    free(rd);
    ds->impl = NULL;
}

const pw_format_ops pw_format_ross = {
    .name = "ross",
    .description = "ROSS instrumentation: gvt, rt, analysis-lps, evtrace and model files",
    .probe = ross_probe,
    .open = ross_open,
    .cursor_open = ross_cursor_open,
    .stats_part = ross_stats_part,
    .stats_join = ross_stats_join,
    .check = NULL,
    .close = ross_close,
    .options = ross_options,
    .tables = ross_table_decls,
    .stats_filtered = 1, /* every table from the samples the selection keeps */
};
