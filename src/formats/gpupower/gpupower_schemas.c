/* gpupower_schemas.c — the record types, as data: a gpu-power.csv row with
 * its metrics in the file's units (gpu-power-data-model.rst, facts §3.8),
 * an external meter channel's power, an NVML sample, and the phase spans
 * of timestamps.csv. */
#include "formats/gpupower/gpupower.h"

static const pw_field gpu_fields[GP_GPU_METRICS] = {
    {"clock-mem", PW_T_F64, "MHz", NULL},
    {"clock-gpu", PW_T_F64, "MHz", NULL},
    {"app-clock-mem", PW_T_F64, "MHz", NULL},
    {"app-clock-gpu", PW_T_F64, "MHz", NULL},
    {"enforced-power-limit", PW_T_F64, "mW", NULL},
    {"total-energy", PW_T_F64, "mJ", NULL},
    {"power-state", PW_T_F64, NULL, NULL},
    {"power", PW_T_F64, "mW", NULL},
    {"tmp", PW_T_F64, "C", NULL},
    {"pci-tx", PW_T_F64, "KB/s", NULL},
    {"pci-rx", PW_T_F64, "KB/s", NULL},
    {"util-gpu", PW_T_F64, "%", NULL},
    {"util-mem", PW_T_F64, "%", NULL},
};

/* power: the channel in watts (the unit option applied); raw: the cell. */
static const pw_field external_fields[] = {
    {"power", PW_T_F64, "W", NULL},
    {"raw", PW_T_F64, NULL, NULL},
};

static const pw_field sample_fields[GP_SAMPLE_KINDS][1] = {
    {{"value", PW_T_F64, "mW", NULL}},
    {{"value", PW_T_F64, "%", NULL}},
    {{"value", PW_T_F64, "%", NULL}},
    {{"value", PW_T_F64, NULL, NULL}},
};
static const char *const sample_schema_names[GP_SAMPLE_KINDS] = {
    "total_power_samples", "gpu_utilization_samples", "memory_utilization_samples", "samples"};

/* event: the name as written ("epoch_begin"); data: its index when set. */
static const pw_field phase_fields[] = {
    {"event", PW_T_STR, NULL, NULL},
    {"data", PW_T_I64, NULL, NULL},
};

pw_status gp_schemas_build(pw_dataset *ds, gp_dataset *gd, pw_error *err)
{
    gd->schema_gpu = pw_ds_add_schema(ds, "gpu_power", "a gpu-power.csv row (nvidia-smi/NVML)",
                                      PW_REC_SAMPLE, gpu_fields, GP_GPU_METRICS);
    gd->schema_external = pw_ds_add_schema(ds, "external_power",
                                           "a power-external.csv channel (external meter)",
                                           PW_REC_SAMPLE, external_fields, 2);
    int ok = gd->schema_gpu >= 0 && gd->schema_external >= 0;
    for (int k = 0; k < GP_SAMPLE_KINDS; k++) {
        gd->schema_samples[k] = pw_ds_add_schema(ds, sample_schema_names[k], "an NVML sample",
                                                 PW_REC_SAMPLE, sample_fields[k], 1);
        ok = ok && gd->schema_samples[k] >= 0;
    }
    gd->schema_begin = pw_ds_add_schema(ds, "phase_begin", "a phase begins (timestamps.csv)",
                                        PW_REC_BEGIN, phase_fields, 2);
    gd->schema_end = pw_ds_add_schema(ds, "phase_end", "a phase ends (timestamps.csv)",
                                      PW_REC_END, phase_fields, 2);
    gd->schema_event = pw_ds_add_schema(ds, "event", "another timestamps.csv event",
                                        PW_REC_INSTANT, phase_fields, 2);
    ok = ok && gd->schema_begin >= 0 && gd->schema_end >= 0 && gd->schema_event >= 0;
    return ok ? PW_OK : pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
}
