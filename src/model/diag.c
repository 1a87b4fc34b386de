/* diag.c — diagnostics: findings about the data, kept on the dataset. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "model/dataset.h"

static void diag_add(pw_dataset *ds, pw_severity sev, const char *code, const char *file,
                     int64_t offset, const char *message)
{
    pthread_mutex_lock(&ds->diag_lock);
    if ((int)sev > ds->worst)
        ds->worst = (int)sev;
    if (ds->n_diags >= PW_MAX_DIAGS) {
        ds->diags_dropped++;
        pthread_mutex_unlock(&ds->diag_lock);
        return;
    }
    if (!pw_grow((void **)&ds->diags, ds->n_diags, &ds->cap_diags, sizeof *ds->diags)) {
        ds->diags_dropped++;
        pthread_mutex_unlock(&ds->diag_lock);
        return;
    }
    pw_diag *d = &ds->diags[ds->n_diags];
    d->severity = sev;
    d->code = code; /* codes are string literals */
    d->file = file ? strdup(file) : NULL;
    d->has_offset = offset >= 0;
    d->offset = offset >= 0 ? (uint64_t)offset : 0;
    d->message = strdup(message);
    if (d->message)
        ds->n_diags++;
    else
        ds->diags_dropped++;
    pthread_mutex_unlock(&ds->diag_lock);
}

void pw_ds_diag(pw_dataset *ds, pw_severity sev, const char *code, const char *file,
                int64_t offset, const char *fmt, ...)
{
    pw_error e;
    va_list ap;
    va_start(ap, fmt);
    char text[1024];
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    pw_fail(&e, PW_E_DATA, file, offset, "%s", text);
    diag_add(ds, sev, code, file, offset, e.message);
}

void pw_ds_diag_error(pw_dataset *ds, pw_severity sev, const char *code, const pw_error *e)
{
    /* A file that cannot be opened or read is no fact about the data: the
     * run ends with the system-fault status, the same in every format. */
    if (e->status == PW_E_IO || e->status == PW_E_NOMEM)
        ds->system_fault = 1;
    diag_add(ds, sev, code, e->file[0] ? e->file : NULL, e->has_offset ? (int64_t)e->offset : -1,
             e->message);
}

size_t pw_dataset_diag_count(const pw_dataset *ds) { return ds->n_diags; }
const pw_diag *pw_dataset_diag(const pw_dataset *ds, size_t i)
{
    return i < ds->n_diags ? &ds->diags[i] : NULL;
}
uint64_t pw_dataset_diag_dropped(const pw_dataset *ds) { return ds->diags_dropped; }
int pw_dataset_worst_severity(const pw_dataset *ds) { return ds->worst; }
int pw_dataset_system_fault(const pw_dataset *ds) { return ds->system_fault; }

void pw_ds_diag_copy(pw_dataset *ds, const pw_diag *d)
{
    const char *code = pw_ds_strdup(ds, d->code); /* the original's may not outlive it */
    diag_add(ds, d->severity, code ? code : "?", d->file, d->has_offset ? (int64_t)d->offset : -1, d->message);
}

void pw_ds_diag_take_back(pw_dataset *ds, size_t n, uint64_t dropped, int worst)
{
    pthread_mutex_lock(&ds->diag_lock);
    for (size_t i = n; i < ds->n_diags; i++) {
        free((char *)ds->diags[i].file);
        free((char *)ds->diags[i].message);
    }
    ds->n_diags = n < ds->n_diags ? n : ds->n_diags;
    ds->diags_dropped = dropped;
    ds->worst = worst;
    pthread_mutex_unlock(&ds->diag_lock);
}
