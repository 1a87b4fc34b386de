/* value.h — filling a pw_value in place.  Decoders write each field
 * straight into the caller's value: a pw_value built on the stack and then
 * copied is stored in pieces and reloaded whole, which the processor
 * cannot forward and pays for with a stall on every field. */
#ifndef PW_MODEL_VALUE_H
#define PW_MODEL_VALUE_H
#include <stddef.h>
#include <stdint.h>

#include "perfweave.h"

static inline void pw_set_i64(pw_value *v, int64_t i)
{
    v->type = PW_T_I64;
    v->present = 1;
    v->v.i = i;
}

static inline void pw_set_u64(pw_value *v, uint64_t u)
{
    v->type = PW_T_U64;
    v->present = 1;
    v->v.u = u;
}

static inline void pw_set_f64(pw_value *v, double f)
{
    v->type = PW_T_F64;
    v->present = 1;
    v->v.f = f;
}

static inline void pw_set_decimal(pw_value *v, int64_t units, int scale)
{
    v->type = PW_T_DECIMAL;
    v->present = 1;
    v->v.dec.units = units;
    v->v.dec.scale = scale;
}

static inline void pw_set_str(pw_value *v, const char *p, size_t n)
{
    v->type = PW_T_STR;
    v->present = 1;
    v->v.s.p = p;
    v->v.s.n = n;
}

static inline void pw_set_bytes(pw_value *v, const uint8_t *p, size_t n)
{
    v->type = PW_T_BYTES;
    v->present = 1;
    v->v.bytes.p = p;
    v->v.bytes.n = n;
}

/* A list, or (fields != NULL) an object whose items are named by fields. */
static inline void pw_set_items(pw_value *v, const pw_value *items, size_t n, const pw_field *fields)
{
    v->type = fields ? PW_T_OBJECT : PW_T_LIST;
    v->present = 1;
    v->v.list.items = items;
    v->v.list.n = n;
    v->v.list.fields = fields;
}
#endif
