/* emu_pcf.h — the event types and value labels of one Paraver trace, in
 * the order the models declare them (ovni src/emu/pv/pcf.c). */
#ifndef PW_EMU_PCF_H
#define PW_EMU_PCF_H
#include <stddef.h>
#include <stdint.h>

typedef struct emu_label {
    int64_t value;
    const char *label;
} emu_label;

typedef struct emu_pcf_type {
    int32_t id;
    char *label;
    emu_label *values;  /* labels owned (copied) */
    size_t n_values, cap_values;
} emu_pcf_type;

typedef struct emu_pcf {
    emu_pcf_type *types;
    size_t n_types, cap_types;
    int failed;         /* memory ran out */
} emu_pcf;

/* Adds type id (index into pcf->types returned, -1 when it exists). */
long emu_pcf_add_type(emu_pcf *pcf, int32_t id, const char *label);
/* Adds a value label to type index t, unless the value has one already. */
void emu_pcf_add_value(emu_pcf *pcf, long t, int64_t value, const char *label);
/* Adds the labels of a table ended by a NULL label. */
void emu_pcf_add_values(emu_pcf *pcf, long t, const emu_label *table);
/* The type of id `id`, or NULL. */
const emu_pcf_type *emu_pcf_find(const emu_pcf *pcf, int32_t id);
/* The label of `value` in type t (which may be NULL), or NULL. */
const char *emu_pcf_label(const emu_pcf_type *t, int64_t value);
void emu_pcf_free(emu_pcf *pcf);
#endif
