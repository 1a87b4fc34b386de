/* hpctoolkit_schemas.c — the record types of an HPCToolkit database, as
 * the dump --jsonl contract names them: contexts of the tree, metric values
 * (profile x context x metric), trace samples, and the enter/leave frames
 * the trace becomes for converters. */
#include "core/error.h"
#include "formats/hpctoolkit/hpctoolkit.h"

static const pw_field context_fields[] = {
    {"id", PW_T_U64, NULL, NULL},     {"parent", PW_T_I64, NULL, NULL},
    {"kind", PW_T_STR, NULL, NULL},   {"name", PW_T_STR, NULL, NULL},
    {"file", PW_T_STR, NULL, NULL},   {"line", PW_T_U64, NULL, NULL},
    {"module", PW_T_STR, NULL, NULL}, {"offset", PW_T_U64, NULL, NULL},
    {"relation", PW_T_STR, NULL, NULL},
};
static const pw_field value_fields[] = {
    {"profile", PW_T_U64, NULL, NULL},
    {"context", PW_T_U64, NULL, NULL},
    {"metric", PW_T_U64, NULL, NULL},
    {"value", PW_T_F64, NULL, NULL},
};
static const pw_field sample_fields[] = {
    {"context", PW_T_U64, NULL, NULL},
};
static const pw_field frame_fields[] = {
    {"context", PW_T_U64, NULL, NULL},
    {"kind", PW_T_STR, NULL, NULL},
    {"name", PW_T_STR, NULL, NULL},
};

#define N(a) (sizeof(a) / sizeof(a)[0])

pw_status hpc_schemas_build(pw_dataset *ds, pw_error *err)
{
    int ok = pw_ds_add_schema(ds, "context", "a calling context of the tree", PW_REC_META,
                              context_fields, N(context_fields)) == HPC_SCHEMA_CONTEXT &&
             pw_ds_add_schema(ds, "value", "a metric value of a profile at a context",
                              PW_REC_VALUE, value_fields, N(value_fields)) == HPC_SCHEMA_VALUE &&
             pw_ds_add_schema(ds, "sample", "a trace sample: the context running at t",
                              PW_REC_INSTANT, sample_fields, N(sample_fields)) ==
                 HPC_SCHEMA_SAMPLE &&
             pw_ds_add_schema(ds, "enter", "a CCT frame (function, loop) begins", PW_REC_BEGIN,
                              frame_fields, N(frame_fields)) == HPC_SCHEMA_ENTER &&
             pw_ds_add_schema(ds, "leave", "a CCT frame ends", PW_REC_END, frame_fields,
                              N(frame_fields)) == HPC_SCHEMA_LEAVE;
    return ok ? PW_OK : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
}
