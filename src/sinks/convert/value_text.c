/* value_text.c — field values as text in a growable buffer. */
#include "sinks/convert/value_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pw_text_add(pw_text *t, const char *s, size_t n)
{
    if (t->cap - t->n < n + 1) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap - t->n < n + 1)
            cap *= 2;
        char *p = realloc(t->p, cap);
        if (!p) {
            t->failed = 1;
            return;
        }
        t->p = p;
        t->cap = cap;
    }
    memcpy(t->p + t->n, s, n);
    t->n += n;
    t->p[t->n] = '\0';
}

void pw_text_free(pw_text *t)
{
    free(t->p);
    memset(t, 0, sizeof *t);
}

static void text_u64(pw_text *t, uint64_t v)
{
    char d[24];
    size_t i = sizeof d;
    do
        d[--i] = (char)('0' + v % 10);
    while (v /= 10);
    pw_text_add(t, d + i, sizeof d - i);
}

static void text_value(pw_text *t, const pw_value *v)
{
    char num[40];
    if (!v->present)
        return;
    switch (v->type) {
    case PW_T_BOOL: pw_text_add(t, v->v.b ? "true" : "false", v->v.b ? 4 : 5); break;
    case PW_T_I64:
        if (v->v.i < 0)
            pw_text_add(t, "-", 1);
        text_u64(t, v->v.i < 0 ? 0 - (uint64_t)v->v.i : (uint64_t)v->v.i);
        break;
    case PW_T_U64: text_u64(t, v->v.u); break;
    case PW_T_F64:
    case PW_T_DECIMAL:
        pw_text_add(t, num, (size_t)snprintf(num, sizeof num, "%.17g", pw_value_number(v)));
        break;
    case PW_T_STR: pw_text_add(t, v->v.s.p, v->v.s.n); break;
    case PW_T_BYTES:
        for (size_t i = 0; i < v->v.bytes.n; i++) {
            static const char hex[] = "0123456789abcdef";
            char h[3] = {':', hex[v->v.bytes.p[i] >> 4], hex[v->v.bytes.p[i] & 15]};
            pw_text_add(t, h, 3);
        }
        break;
    case PW_T_LIST:
    case PW_T_OBJECT: {
        int object = v->type == PW_T_OBJECT;
        pw_text_add(t, object ? "{" : "[", 1);
        for (size_t i = 0; i < v->v.list.n; i++) {
            if (i)
                pw_text_add(t, ";", 1);
            if (object) {
                const char *name = v->v.list.fields[i].name;
                pw_text_add(t, name, strlen(name));
                pw_text_add(t, "=", 1);
            }
            text_value(t, &v->v.list.items[i]);
        }
        pw_text_add(t, object ? "}" : "]", 1);
        break;
    }
    }
}

void pw_value_text(pw_text *t, const pw_value *v)
{
    t->n = 0;
    pw_text_add(t, "", 0);
    text_value(t, v);
}
