/* emu_pcf.c — event types and value labels, kept in declaration order. */
#include "analysis/ovniemu/emu_pcf.h"

#include <stdlib.h>
#include <string.h>

long emu_pcf_add_type(emu_pcf *pcf, int32_t id, const char *label)
{
    for (size_t i = 0; i < pcf->n_types; i++)
        if (pcf->types[i].id == id)
            return -1;
    if (pcf->n_types == pcf->cap_types) {
        size_t cap = pcf->cap_types ? pcf->cap_types * 2 : 16;
        emu_pcf_type *t = realloc(pcf->types, cap * sizeof *t);
        if (!t) {
            pcf->failed = 1;
            return -1;
        }
        pcf->types = t;
        pcf->cap_types = cap;
    }
    emu_pcf_type *t = &pcf->types[pcf->n_types];
    memset(t, 0, sizeof *t);
    t->id = id;
    t->label = strdup(label);
    if (!t->label) {
        pcf->failed = 1;
        return -1;
    }
    return (long)pcf->n_types++;
}

void emu_pcf_add_value(emu_pcf *pcf, long ti, int64_t value, const char *label)
{
    if (ti < 0)
        return;
    emu_pcf_type *t = &pcf->types[ti];
    for (size_t i = 0; i < t->n_values; i++)
        if (t->values[i].value == value)
            return;
    if (t->n_values == t->cap_values) {
        size_t cap = t->cap_values ? t->cap_values * 2 : 8;
        emu_label *v = realloc(t->values, cap * sizeof *v);
        if (!v) {
            pcf->failed = 1;
            return;
        }
        t->values = v;
        t->cap_values = cap;
    }
    char *copy = strdup(label);
    if (!copy) {
        pcf->failed = 1;
        return;
    }
    t->values[t->n_values++] = (emu_label){value, copy};
}

void emu_pcf_add_values(emu_pcf *pcf, long t, const emu_label *table)
{
    for (; table && table->label; table++)
        emu_pcf_add_value(pcf, t, table->value, table->label);
}

const emu_pcf_type *emu_pcf_find(const emu_pcf *pcf, int32_t id)
{
    for (size_t i = 0; i < pcf->n_types; i++)
        if (pcf->types[i].id == id)
            return &pcf->types[i];
    return NULL;
}

const char *emu_pcf_label(const emu_pcf_type *t, int64_t value)
{
    for (size_t k = 0; t && k < t->n_values; k++)
        if (t->values[k].value == value)
            return t->values[k].label;
    return NULL;
}

void emu_pcf_free(emu_pcf *pcf)
{
    for (size_t i = 0; i < pcf->n_types; i++) {
        for (size_t k = 0; k < pcf->types[i].n_values; k++)
            free((char *)pcf->types[i].values[k].label);
        free(pcf->types[i].values);
        free(pcf->types[i].label);
    }
    free(pcf->types);
    memset(pcf, 0, sizeof *pcf);
}
