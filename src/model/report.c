/* report.c — the report tree that stats fill.  Nodes are jansson values;
 * streamed arrays are in report_stream.c, the renderers in src/sinks/report/. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/report.h"

/* Set when an add fails for want of memory; pw_report_write reports it.
 * Thread-local because reports are filled on one thread at a time. */
static _Thread_local int report_nomem;

pw_report *pw_report_new(void)
{
    pw_report *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->root = json_object();
    if (!r->root) {
        free(r);
        return NULL;
    }
    report_nomem = 0;
    return r;
}

void pw_report_free(pw_report *r)
{
    if (!r)
        return;
    report_stream_free_all(r);
    json_decref(r->root);
    free(r->only_table);
    free(r->decls);
    free(r);
}

pw_rnode *pw_report_root(pw_report *r) { return (pw_rnode *)r->root; }

int pw_report_set_view(pw_report *r, size_t top_rows, const char *table, size_t width)
{
    free(r->only_table);
    r->top_rows = top_rows;
    r->width = width;
    r->only_table = table ? strdup(table) : NULL;
    return !table || r->only_table;
}
json_t *pw_report_json(const pw_report *r) { return r->root; }
int pw_report_nomem(void) { return report_nomem; }
void pw_report_set_nomem(void) { report_nomem = 1; }

/* Text from damaged input may not be UTF-8, which JSON (and jansson)
 * refuse: such text is kept with every non-ASCII byte shown as '?'. */
static json_t *text_value(const char *v, size_t n)
{
    json_t *j = json_stringn(v, n);
    if (j)
        return j;
    char *ascii = malloc(n ? n : 1);
    if (!ascii)
        return NULL;
    for (size_t i = 0; i < n; i++)
        ascii[i] = (unsigned char)v[i] < 0x80 && v[i] ? v[i] : '?';
    j = json_stringn(ascii, n);
    free(ascii);
    return j;
}

/* An object member under a key that may not be UTF-8 (see text_value). */
static int set_member(json_t *obj, const char *key, json_t *child)
{
    if (json_object_set_new(obj, key, json_incref(child)) == 0) {
        json_decref(child);
        return 0;
    }
    json_t *k = text_value(key, strlen(key));
    int rc = k ? json_object_set_new(obj, json_string_value(k), child) : -1;
    if (!k)
        json_decref(child);
    json_decref(k);
    return rc;
}

/* Attaches child to parent (an object under key, or an array); takes the
 * reference.  Returns child, or NULL when it could not be attached. */
static json_t *attach(pw_rnode *parent, const char *key, json_t *child)
{
    json_t *p = (json_t *)parent;
    int rc = -1;
    if (p)
        report_stream_before_add(p);
    if (p && child) {
        if (json_is_array(p))
            rc = json_array_append_new(p, child);
        else if (json_is_object(p) && key)
            rc = set_member(p, key, child);
        else
            json_decref(child);
    } else if (child) {
        json_decref(child);
    }
    if (rc != 0) {
        report_nomem = report_nomem || (p && (json_is_array(p) || key));
        return NULL;
    }
    return child;
}

pw_rnode *pw_rnode_object(pw_rnode *parent, const char *key)
{
    return (pw_rnode *)attach(parent, key, json_object());
}
pw_rnode *pw_rnode_array(pw_rnode *parent, const char *key)
{
    return (pw_rnode *)attach(parent, key, json_array());
}
void pw_rnode_int(pw_rnode *parent, const char *key, int64_t v)
{
    attach(parent, key, json_integer((json_int_t)v));
}
void pw_rnode_uint(pw_rnode *parent, const char *key, uint64_t v)
{
    /* JSON integers here are signed 64-bit; larger counts become reals. */
    attach(parent, key, v <= INT64_MAX ? json_integer((json_int_t)v) : json_real((double)v));
}
void pw_rnode_num(pw_rnode *parent, const char *key, double v)
{
    /* JSON has no NaN or infinity: an undefined figure is null. */
    attach(parent, key, isfinite(v) ? json_real(v) : json_null());
}
void pw_rnode_str(pw_rnode *parent, const char *key, const char *v)
{
    attach(parent, key, v ? text_value(v, strlen(v)) : json_null());
}
void pw_rnode_strn(pw_rnode *parent, const char *key, const char *v, size_t n)
{
    attach(parent, key, text_value(v, n));
}
void pw_rnode_bool(pw_rnode *parent, const char *key, int v)
{
    attach(parent, key, json_boolean(v));
}
void pw_rnode_null(pw_rnode *parent, const char *key) { attach(parent, key, json_null()); }
