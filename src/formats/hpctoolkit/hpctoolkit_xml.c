/* hpctoolkit_xml.c — the prototype's experiment.xml (seed document
 * "experiment.xml version 4.0"), parsed as a stream with expat: identifier
 * names, metrics, trace time range, load module / file / procedure tables,
 * and the calling-context tree of PF (function), Pr (inlined function), L
 * (loop), S (statement) and C (call site) elements.
 *
 * Context ids: an element's `it` when present, else its `i` when not
 * negative.  An element whose id equals its parent's (a call site or
 * statement written under the function hpcprof2 merged it with, e.g.
 * <PF i="112"><C i="-112" it="112">) is the same context, not a child. */
#include <expat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/grow.h"
#include "core/error.h"
#include "core/input.h"
#include "formats/hpctoolkit/hpctoolkit.h"

typedef struct id_name {
    int64_t id;
    const char *name;
    uint32_t proc;
} id_name;

typedef struct id_table {
    id_name *items;
    size_t n, cap;
    int sorted;
} id_table;

typedef struct xml_state {
    pw_dataset *ds;
    hpc_dataset *h;
    XML_Parser parser;
    pw_error *err;
    pw_status status;
    int in_cct, in_idnames;
    id_table modules, files, procs;
    uint32_t *stack;        /* context id of each open CCT element */
    size_t depth, cap;
    /* the metric being read */
    int in_metric;
    int64_t metric_id;
    const char *metric_name, *metric_scope;
    int metric_is_view;
} xml_state;

static const char *attr(const XML_Char **a, const char *name)
{
    for (; a && a[0]; a += 2)
        if (!strcmp(a[0], name))
            return a[1];
    return NULL;
}

static int parse_i64(const char *s, int64_t *out)
{
    if (!s || !*s)
        return 0;
    char *end;
    long long v = strtoll(s, &end, 0);
    if (*end)
        return 0;
    *out = v;
    return 1;
}

/* Stops the parse with an error at the current byte. */
static void xml_fail(xml_state *x, const char *element, const char *expected)
{
    if (x->status != PW_OK)
        return;
    x->status = pw_fail(x->err, PW_E_DATA, x->h->xml_path,
                        (int64_t)XML_GetCurrentByteIndex(x->parser), "%s: %s expected", element,
                        expected);
    XML_StopParser(x->parser, XML_FALSE);
}

static void xml_nomem(xml_state *x)
{
    if (x->status == PW_OK)
        x->status = pw_fail(x->err, PW_E_NOMEM, x->ds->path, PW_NO_OFFSET, "out of memory");
    XML_StopParser(x->parser, XML_FALSE);
}

static int table_add(xml_state *x, id_table *t, const XML_Char **a)
{
    int64_t id;
    const char *n = attr(a, "n");
    if (!parse_i64(attr(a, "i"), &id) || !n) {
        xml_fail(x, "table entry", "attributes i (a number) and n");
        return 0;
    }
    if (!pw_grow((void **)&t->items, t->n, &t->cap, sizeof *t->items)) {
        xml_nomem(x);
        return 0;
    }
    const char *name = pw_ds_strdup(x->ds, n);
    if (!name) {
        xml_nomem(x);
        return 0;
    }
    t->items[t->n++] = (id_name){id, name, HPC_NONE};
    t->sorted = 0;
    return 1;
}

static int by_id(const void *a, const void *b)
{
    int64_t x = ((const id_name *)a)->id, y = ((const id_name *)b)->id;
    return x < y ? -1 : x > y;
}

static const id_name *table_find(id_table *t, const char *ref)
{
    int64_t id;
    if (!t->n || !parse_i64(ref, &id))
        return NULL;
    if (!t->sorted) {
        qsort(t->items, t->n, sizeof *t->items, by_id);
        t->sorted = 1;
    }
    id_name key = {.id = id};
    return bsearch(&key, t->items, t->n, sizeof *t->items, by_id);
}

static void on_identifier(xml_state *x, const XML_Char **a)
{
    int64_t kind;
    const char *n = attr(a, "n");
    if (!parse_i64(attr(a, "i"), &kind) || kind < 0 || kind > 0x3FFF || !n) {
        xml_fail(x, "Identifier", "i (0..16383) and n");
        return;
    }
    hpc_dataset *h = x->h;
    if ((uint32_t)kind >= h->n_kind_names) {
        const char **k = pw_ds_alloc(x->ds, ((size_t)kind + 1) * sizeof *k);
        if (!k) {
            xml_nomem(x);
            return;
        }
        if (h->n_kind_names)
            memcpy(k, h->kind_names, h->n_kind_names * sizeof *k);
        h->kind_names = k;
        h->n_kind_names = (uint32_t)kind + 1;
    }
    h->kind_names[kind] = pw_ds_strdup(x->ds, n);
}

static void on_metric(xml_state *x, const XML_Char **a)
{
    x->in_metric = 1;
    x->metric_is_view = 0;
    const char *md = attr(a, "md"), *n = attr(a, "n"), *t = attr(a, "t");
    if (!parse_i64(attr(a, "i"), &x->metric_id) || x->metric_id < 0 || x->metric_id > 0xFFFF) {
        xml_fail(x, "Metric", "i (0..65535)");
        return;
    }
    x->metric_name = pw_ds_strdup(x->ds, md ? md : n ? n : "?");
    x->metric_scope = pw_ds_strdup(x->ds, t ? t : "?");
}

static void add_metric(xml_state *x, uint16_t id, int summary, const char *name,
                       const char *scope)
{
    if (hpc_metric_add(x->ds, x->h, id, summary, name, scope, summary ? "sum" : NULL, x->err)) {
        x->status = PW_E_NOMEM;
        XML_StopParser(x->parser, XML_FALSE);
    }
}

/* MetricTable ids are the summary profile's; metrics computed by a "view"
 * formula are not stored at all. */
static void on_metric_end(xml_state *x)
{
    x->in_metric = 0;
    /* the old format has no summary profile: its MetricTable names no stored values */
    if (!x->metric_is_view && x->status == PW_OK && x->h->gen != HPC_OLD_XML)
        add_metric(x, (uint16_t)x->metric_id, 1, x->metric_name, x->metric_scope);
}

/* MetricDBTable ids are the thread profiles': "CPUTIME (sec) (I)" is the
 * inclusive, "(E)" the exclusive value of "CPUTIME (sec)". */
static void on_metric_db(xml_state *x, const XML_Char **a)
{
    int64_t id;
    const char *n = attr(a, "n");
    if (!parse_i64(attr(a, "i"), &id) || id < 0 || id > 0xFFFF || !n) {
        xml_fail(x, "MetricDB", "i (0..65535) and n");
        return;
    }
    size_t len = strlen(n);
    const char *scope = "?";
    if (len > 4 && !strcmp(n + len - 4, " (I)"))
        scope = "inclusive";
    else if (len > 4 && !strcmp(n + len - 4, " (E)"))
        scope = "exclusive";
    if (scope[0] != '?')
        len -= 4;
    add_metric(x, (uint16_t)id, 0, pw_ds_strndup(x->ds, n, len), scope);
}

static void on_trace_db(xml_state *x, const XML_Char **a)
{
    int64_t lo, hi;
    if (parse_i64(attr(a, "db-min-time"), &lo) && parse_i64(attr(a, "db-max-time"), &hi)) {
        x->h->has_trace_range = 1;
        x->h->trace_min = (uint64_t)lo;
        x->h->trace_max = (uint64_t)hi;
    }
}

static void on_procedure(xml_state *x, const XML_Char **a)
{
    if (!table_add(x, &x->procs, a))
        return;
    id_name *e = &x->procs.items[x->procs.n - 1];
    e->proc = hpc_proc_add(x->h, e->name, NULL, NULL, 0);
    if (e->proc == HPC_NONE)
        xml_nomem(x);
}

static const char *table_name(id_table *t, const char *ref)
{
    const id_name *e = ref ? table_find(t, ref) : NULL;
    return e ? e->name : NULL;
}

/* The context an element opens: a new one, or its parent's (merged). */
static void on_cct_element(xml_state *x, const char *tag, const XML_Char **a)
{
    uint32_t parent = x->depth ? x->stack[x->depth - 1] : 0;
    int64_t it = -1, i = -1, id;
    int has_it = parse_i64(attr(a, "it"), &it), has_i = parse_i64(attr(a, "i"), &i);
    id = has_it ? it : (has_i && i >= 0) ? i : -1;
    uint32_t self = parent;
    if (id >= 0 && (uint64_t)id != parent) {
        hpc_ctx_kind kind = tag[0] == 'P' ? HPC_CTX_FUNCTION : tag[0] == 'L' ? HPC_CTX_LOOP
                                                                            : HPC_CTX_LINE;
        int64_t off = (int64_t)XML_GetCurrentByteIndex(x->parser);
        if (hpc_tree_reserve(x->ds, x->h, (uint64_t)id, x->h->xml_path, off, x->err) != PW_OK ||
            hpc_tree_add(x->h, (uint32_t)id, parent, kind, x->h->xml_path, off, x->err) != PW_OK) {
            x->status = x->err->status;
            XML_StopParser(x->parser, XML_FALSE);
            return;
        }
        self = (uint32_t)id;
        hpc_ctx *c = &x->h->ctx[self];
        c->relation = tag[1] == 'r' ? 2 : tag[0] == 'P' ? 1 : 0;
        /* statements and call sites name no file: theirs is the enclosing one */
        c->file = attr(a, "f") ? table_name(&x->files, attr(a, "f")) : x->h->ctx[parent].file;
        c->module = table_name(&x->modules, attr(a, "lm"));
        int64_t v;
        if (parse_i64(attr(a, "l"), &v) && v >= 0 && v <= UINT32_MAX) {
            c->line = (uint32_t)v;
            c->has_line = 1;
        }
        if (parse_i64(attr(a, "v"), &v)) {
            c->offset = (uint64_t)v;
            c->has_offset = 1;
        }
        if (kind == HPC_CTX_FUNCTION) {
            const id_name *p = attr(a, "n") ? table_find(&x->procs, attr(a, "n")) : NULL;
            c->proc = p ? p->proc : HPC_NONE;
        }
    }
    if (!pw_grow((void **)&x->stack, x->depth, &x->cap, sizeof *x->stack)) {
        xml_nomem(x);
        return;
    }
    x->stack[x->depth++] = self;
}

static int is_cct_tag(const char *t)
{
    return !strcmp(t, "PF") || !strcmp(t, "Pr") || !strcmp(t, "L") || !strcmp(t, "S") ||
           !strcmp(t, "C");
}

static void XMLCALL on_start(void *ud, const XML_Char *tag, const XML_Char **a)
{
    xml_state *x = ud;
    if (x->status != PW_OK)
        return;
    if (x->in_cct && is_cct_tag(tag))
        on_cct_element(x, tag, a);
    else if (!strcmp(tag, "SecCallPathProfileData"))
        x->in_cct = 1;
    else if (!strcmp(tag, "Identifier"))
        on_identifier(x, a);
    else if (!strcmp(tag, "Metric"))
        on_metric(x, a);
    else if (!strcmp(tag, "MetricFormula") && x->in_metric) {
        const char *t = attr(a, "t");
        x->metric_is_view |= t && !strcmp(t, "view");
    } else if (!strcmp(tag, "MetricDB"))
        on_metric_db(x, a);
    else if (!strcmp(tag, "TraceDB"))
        on_trace_db(x, a);
    else if (!strcmp(tag, "LoadModule"))
        table_add(x, &x->modules, a);
    else if (!strcmp(tag, "File"))
        table_add(x, &x->files, a);
    else if (!strcmp(tag, "Procedure"))
        on_procedure(x, a);
}

static void XMLCALL on_end(void *ud, const XML_Char *tag)
{
    xml_state *x = ud;
    if (x->status != PW_OK)
        return;
    if (x->in_cct && is_cct_tag(tag) && x->depth)
        x->depth--;
    else if (!strcmp(tag, "SecCallPathProfileData"))
        x->in_cct = 0;
    else if (!strcmp(tag, "Metric"))
        on_metric_end(x);
}

/* Where expat stopped.  Expat has no position (-1) when the input ended
 * before any element, as in an empty file: the error is then at the end
 * of what was fed. */
static int64_t error_offset(const xml_state *x, uint64_t fed)
{
    XML_Index at = XML_GetCurrentByteIndex(x->parser);
    return at >= 0 ? (int64_t)at : (int64_t)fed;
}

/* Feeds the file to expat in window-sized pieces. */
static pw_status parse_file(xml_state *x, pw_error *err)
{
    hpc_file f;
    pw_status s = hpc_file_open(&f, x->h->xml_path, 0, 64 * 1024, err);
    if (s != PW_OK)
        return s;
    uint64_t size = f.w.file_size, off = 0;
    x->h->id_limit = size + 65536; /* an element takes more than a byte */
    while (s == PW_OK && x->status == PW_OK) {
        size_t n = size - off < 65536 ? (size_t)(size - off) : 65536;
        const uint8_t *p = (const uint8_t *)"";
        if (n && (s = hpc_need(&f, off, n, &p, "experiment.xml", err)) != PW_OK)
            break;
        off += n;
        int last = off >= size;
        if (XML_Parse(x->parser, (const char *)p, (int)n, last) == XML_STATUS_ERROR &&
            x->status == PW_OK)
            s = pw_fail(err, PW_E_DATA, x->h->xml_path, error_offset(x, off), "XML: %s (line %lu)",
                        XML_ErrorString(XML_GetErrorCode(x->parser)),
                        (unsigned long)XML_GetCurrentLineNumber(x->parser));
        if (last)
            break;
    }
    hpc_file_close(&f);
    return s != PW_OK ? s : x->status;
}

pw_status hpc_xml_read(pw_dataset *ds, hpc_dataset *h, pw_error *err)
{
    xml_state x = {.ds = ds, .h = h, .err = err, .status = PW_OK};
    x.parser = XML_ParserCreate(NULL);
    if (!x.parser)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    XML_SetUserData(x.parser, &x);
    XML_SetElementHandler(x.parser, on_start, on_end);
    h->id_limit = 65536;
    pw_status s = hpc_tree_reserve(ds, h, 0, h->xml_path, PW_NO_OFFSET, err);
    if (s == PW_OK)
        s = parse_file(&x, err);
    if (s == PW_OK)
        hpc_tree_finish(h);
    XML_ParserFree(x.parser);
    free(x.modules.items);
    free(x.files.items);
    free(x.procs.items);
    free(x.stack);
    return s;
}

/* The root element's version attribute; parsing stops there (the old
 * format carries a long DTD before it). */
static void XMLCALL on_root(void *ud, const XML_Char *tag, const XML_Char **a)
{
    char **version = XML_GetUserData(ud);
    const char *v = attr(a, "version");
    if (!strcmp(tag, "HPCToolkitExperiment") && v)
        *version = strdup(v);
    XML_StopParser(ud, XML_FALSE);
}

char *hpc_xml_version(const char *path)
{
    pw_input in;
    if (pw_input_open(path, &in, NULL) != PW_OK)
        return NULL;
    XML_Parser p = XML_ParserCreate(NULL);
    char *version = NULL;
    if (p) {
        XML_SetUserData(p, &version);
        XML_UseParserAsHandlerArg(p);
        XML_SetStartElementHandler(p, on_root);
        char buf[4096];
        ssize_t n;
        uint64_t off = 0;
        while ((n = pread(in.fd, buf, sizeof buf, (off_t)off)) > 0) {
            off += (uint64_t)n;
            if (XML_Parse(p, buf, (int)n, 0) != XML_STATUS_OK)
                break;
        }
        XML_ParserFree(p);
    }
    pw_input_close(&in);
    return version;
}
