/* value.c — reading field values as numbers. */
#include "core/decimal.h"
#include "model/value.h"

double pw_value_number(const pw_value *v)
{
    switch (v->type) {
    case PW_T_BOOL: return v->v.b;
    case PW_T_I64: return (double)v->v.i;
    case PW_T_U64: return (double)v->v.u;
    case PW_T_F64: return v->v.f;
    case PW_T_DECIMAL: return pw_decimal_f64(v->v.dec.units, v->v.dec.scale);
    default: return 0.0 / 0.0;
    }
}
