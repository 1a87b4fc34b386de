/* hpctoolkit_meta.c — the released meta.db (FORMATS.md "meta.db version
 * 4.0"): general properties, identifier names, metrics, load modules,
 * files, functions and the context tree.  Every array is read with the
 * structure size stored in the file, so newer minor versions still read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/error.h"
#include "formats/hpctoolkit/hpctoolkit.h"

enum { SEC_GENERAL, SEC_IDNAMES, SEC_METRICS, SEC_CONTEXT, SEC_STRINGS, SEC_MODULES, SEC_FILES,
       SEC_FUNCTIONS, N_SECTIONS };

typedef struct meta_reader {
    pw_dataset *ds;
    hpc_dataset *h;
    hpc_file f;
    uint64_t sz[N_SECTIONS], p[N_SECTIONS];
    /* modules, files, functions: their arrays, to turn pointers into entries */
    uint64_t arr[N_SECTIONS], stride[N_SECTIONS];
    uint32_t count[N_SECTIONS];
    const char **module_path, **file_path;
    uint32_t *func_proc;
    uint8_t minor;
} meta_reader;

static const char *const section_names[N_SECTIONS] = {
    "General", "IdNames", "Metrics", "Context", "Strings", "Modules", "Files", "Functions"};

static pw_status read_header(meta_reader *m, pw_error *err)
{
    const uint8_t *b;
    pw_status s = hpc_need(&m->f, 0, 0x10 + 16 * N_SECTIONS, &b, "meta.db header", err);
    if (s != PW_OK)
        return s;
    if (memcmp(b, "HPCTOOLKIT", 10) || memcmp(b + 10, "meta", 4))
        return pw_fail(err, PW_E_DATA, m->f.path, 0, "magic \"HPCTOOLKITmeta\" expected");
    if (b[14] != 4)
        return pw_fail(err, PW_E_DATA, m->f.path, 14, "major version 4 expected, found %u", b[14]);
    m->minor = b[15];
    for (int i = 0; i < N_SECTIONS; i++) {
        m->sz[i] = pw_le64(b + 0x10 + 16 * i);
        m->p[i] = pw_le64(b + 0x18 + 16 * i);
        char what[64];
        snprintf(what, sizeof what, "section %s", section_names[i]);
        s = hpc_within(&m->f, 0x10 + 16 * (uint64_t)i, m->p[i], m->sz[i], 0, m->f.w.file_size, what, err);
        if (s != PW_OK)
            return s;
    }
    return PW_OK;
}

/* A pointer field: 0 or inside section `sec`. */
static pw_status string_in(meta_reader *m, uint64_t at, uint64_t ptr, int sec, const char **out,
                           const char *what, pw_error *err)
{
    *out = NULL;
    if (ptr == 0)
        return PW_OK;
    pw_status s = hpc_within(&m->f, at, ptr, 1, m->p[sec], m->p[sec] + m->sz[sec], what, err);
    return s != PW_OK ? s : hpc_string(m->ds, &m->f, ptr, m->p[sec] + m->sz[sec], out, what, err);
}

static pw_status read_general(meta_reader *m, pw_error *err)
{
    const uint8_t *b;
    pw_status s = hpc_need(&m->f, m->p[SEC_GENERAL], 16, &b, "general properties", err);
    if (s != PW_OK)
        return s;
    uint64_t pt = pw_le64(b), pd = pw_le64(b + 8);
    const char *title, *desc;
    if ((s = string_in(m, m->p[SEC_GENERAL], pt, SEC_GENERAL, &title, "database title", err)) != PW_OK ||
        (s = string_in(m, m->p[SEC_GENERAL] + 8, pd, SEC_GENERAL, &desc, "database description", err)) != PW_OK)
        return s;
    if (title && (s = pw_ds_set_prop(m->ds, "title", title, err)) != PW_OK)
        return s;
    return desc ? pw_ds_set_prop(m->ds, "description", desc, err) : PW_OK;
}

static pw_status read_id_names(meta_reader *m, pw_error *err)
{
    const uint8_t *b;
    uint64_t sec = m->p[SEC_IDNAMES];
    pw_status s = hpc_need(&m->f, sec, 9, &b, "identifier names header", err);
    if (s != PW_OK)
        return s;
    uint64_t pp = pw_le64(b);
    uint32_t n = b[8];
    if ((s = hpc_within(&m->f, sec, pp, 8ull * n, sec, sec + m->sz[SEC_IDNAMES], "identifier name array",
                        err)) != PW_OK)
        return s;
    m->h->kind_names = pw_ds_alloc(m->ds, (n ? n : 1) * sizeof(char *));
    if (!m->h->kind_names)
        return pw_fail(err, PW_E_NOMEM, m->ds->path, PW_NO_OFFSET, "out of memory");
    m->h->n_kind_names = n;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t ptr;
        if ((s = hpc_u64(&m->f, pp + 8ull * i, &ptr, "identifier name pointer", err)) != PW_OK ||
            (s = string_in(m, pp + 8ull * i, ptr, SEC_IDNAMES, &m->h->kind_names[i], "identifier name", err)) !=
                PW_OK)
            return s;
    }
    return PW_OK;
}

/* The propagation scope at `ptr`: its name. */
static pw_status scope_name(meta_reader *m, uint64_t at, uint64_t ptr, const char **name,
                            pw_error *err)
{
    uint64_t sec = m->p[SEC_METRICS], end = sec + m->sz[SEC_METRICS];
    pw_status s = hpc_within(&m->f, at, ptr, 16, sec, end, "propagation scope", err);
    uint64_t pn;
    if (s == PW_OK)
        s = hpc_u64(&m->f, ptr, &pn, "propagation scope", err);
    return s != PW_OK ? s : string_in(m, ptr, pn, SEC_METRICS, name, "scope name", err);
}

static const char *combine_name(uint8_t c)
{
    return c == 0 ? "sum" : c == 1 ? "min" : c == 2 ? "max" : "unknown";
}

static pw_status read_metric(meta_reader *m, uint64_t at, uint8_t sz_inst, uint8_t sz_sum,
                             pw_error *err)
{
    uint64_t sec = m->p[SEC_METRICS], end = sec + m->sz[SEC_METRICS];
    const uint8_t *b;
    pw_status s = hpc_need(&m->f, at, 0x1c, &b, "metric description", err);
    if (s != PW_OK)
        return s;
    uint64_t pname = pw_le64(b), pinst = pw_le64(b + 8), psum = pw_le64(b + 0x10);
    uint16_t ninst = pw_le16(b + 0x18), nsum = pw_le16(b + 0x1a);
    const char *name;
    if ((s = string_in(m, at, pname, SEC_METRICS, &name, "metric name", err)) != PW_OK)
        return s;
    if ((s = hpc_within(&m->f, at + 8, pinst, (uint64_t)ninst * sz_inst, sec, end, "scope instances",
                        err)) != PW_OK ||
        (s = hpc_within(&m->f, at + 0x10, psum, (uint64_t)nsum * sz_sum, sec, end, "summary statistics",
                        err)) != PW_OK)
        return s;
    for (uint16_t i = 0; i < ninst; i++) {
        if ((s = hpc_need(&m->f, pinst + (uint64_t)i * sz_inst, 10, &b, "scope instance", err)))
            return s;
        uint64_t pscope = pw_le64(b);
        uint16_t id = pw_le16(b + 8);
        const char *scope;
        if ((s = scope_name(m, pinst + (uint64_t)i * sz_inst, pscope, &scope, err)) != PW_OK ||
            (s = hpc_metric_add(m->ds, m->h, id, 0, name, scope, NULL, err)) != PW_OK)
            return s;
    }
    for (uint16_t i = 0; i < nsum; i++) {
        if ((s = hpc_need(&m->f, psum + (uint64_t)i * sz_sum, 0x14, &b, "summary statistic", err)))
            return s;
        uint64_t pscope = pw_le64(b);
        uint8_t combine = b[0x10];
        uint16_t id = pw_le16(b + 0x12);
        const char *scope;
        if ((s = scope_name(m, psum + (uint64_t)i * sz_sum, pscope, &scope, err)) != PW_OK ||
            (s = hpc_metric_add(m->ds, m->h, id, 1, name, scope, combine_name(combine), err)))
            return s;
    }
    return PW_OK;
}

static pw_status read_metrics(meta_reader *m, pw_error *err)
{
    uint64_t sec = m->p[SEC_METRICS], end = sec + m->sz[SEC_METRICS];
    const uint8_t *b;
    pw_status s = hpc_need(&m->f, sec, 0x1b, &b, "metrics header", err);
    if (s != PW_OK)
        return s;
    uint64_t pm = pw_le64(b);
    uint32_t n = pw_le32(b + 8);
    uint8_t szm = b[0xc], szi = b[0xd], szs = b[0xe];
    if (szm < 0x1c || szi < 10 || szs < 0x14)
        return pw_fail(err, PW_E_DATA, m->f.path, (int64_t)sec + 0xc,
                       "metric structure sizes (%u, %u, %u) smaller than version 4.0's (32, 16, 24)",
                       szm, szi, szs);
    if ((s = hpc_within(&m->f, sec, pm, (uint64_t)n * szm, sec, end, "metric array", err)) != PW_OK)
        return s;
    for (uint32_t i = 0; i < n; i++)
        if ((s = read_metric(m, pm + (uint64_t)i * szm, szi, szs, err)) != PW_OK)
            return s;
    return PW_OK;
}

/* Modules, files and functions share a header shape: pointer, u32 count,
 * u16 stride. */
static pw_status read_array_header(meta_reader *m, int sec, uint16_t min_stride, pw_error *err)
{
    const uint8_t *b;
    char what[64];
    snprintf(what, sizeof what, "%s header", section_names[sec]);
    pw_status s = hpc_need(&m->f, m->p[sec], 0xe, &b, what, err);
    if (s != PW_OK)
        return s;
    m->arr[sec] = pw_le64(b);
    m->count[sec] = pw_le32(b + 8);
    m->stride[sec] = pw_le16(b + 0xc);
    if (m->stride[sec] < min_stride)
        return pw_fail(err, PW_E_DATA, m->f.path, (int64_t)m->p[sec] + 0xc,
                       "%s: entry size %llu smaller than version 4.0's %u", section_names[sec],
                       (unsigned long long)m->stride[sec], min_stride);
    snprintf(what, sizeof what, "%s array", section_names[sec]);
    return hpc_within(&m->f, m->p[sec], m->arr[sec], m->count[sec] * m->stride[sec], m->p[sec],
                      m->p[sec] + m->sz[sec], what, err);
}

/* Index of the entry a pointer names in section sec's array. */
static pw_status entry_of(meta_reader *m, int sec, uint64_t ptr, uint64_t at, uint32_t *idx,
                          pw_error *err)
{
    uint64_t a = m->arr[sec], st = m->stride[sec];
    if (ptr < a || (ptr - a) % st || (ptr - a) / st >= m->count[sec])
        return pw_fail(err, PW_E_DATA, m->f.path, (int64_t)at,
                       "pointer 0x%llx expected to name an entry of the %s array",
                       (unsigned long long)ptr, section_names[sec]);
    *idx = (uint32_t)((ptr - a) / st);
    return PW_OK;
}

/* Paths of modules and files (both: u32 flags, char* path). */
static pw_status read_paths(meta_reader *m, int sec, const char ***out, pw_error *err)
{
    pw_status s = read_array_header(m, sec, 16, err);
    if (s != PW_OK)
        return s;
    *out = pw_ds_alloc(m->ds, (m->count[sec] ? m->count[sec] : 1) * sizeof(char *));
    if (!*out)
        return pw_fail(err, PW_E_NOMEM, m->ds->path, PW_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; i < m->count[sec]; i++) {
        uint64_t ptr, at = m->arr[sec] + i * m->stride[sec] + 8;
        if ((s = hpc_u64(&m->f, at, &ptr, "path pointer", err)) ||
            (s = string_in(m, at, ptr, SEC_STRINGS, &(*out)[i], "path", err)))
            return s;
    }
    return PW_OK;
}

static pw_status read_functions(meta_reader *m, pw_error *err)
{
    pw_status s = read_array_header(m, SEC_FUNCTIONS, 0x28, err);
    if (s != PW_OK)
        return s;
    uint32_t n = m->count[SEC_FUNCTIONS];
    m->func_proc = pw_ds_alloc(m->ds, (n ? n : 1) * sizeof *m->func_proc);
    if (!m->func_proc)
        return pw_fail(err, PW_E_NOMEM, m->ds->path, PW_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        uint64_t at = m->arr[SEC_FUNCTIONS] + i * m->stride[SEC_FUNCTIONS];
        const uint8_t *b;
        if ((s = hpc_need(&m->f, at, 0x28, &b, "function", err)) != PW_OK)
            return s;
        uint64_t pn = pw_le64(b), pm = pw_le64(b + 8), pf = pw_le64(b + 0x18);
        uint32_t line = pw_le32(b + 0x20), mi = 0, fi = 0;
        const char *name;
        if (pm && (s = entry_of(m, SEC_MODULES, pm, at + 8, &mi, err)) != PW_OK)
            return s;
        if (pf && (s = entry_of(m, SEC_FILES, pf, at + 0x18, &fi, err)) != PW_OK)
            return s;
        if ((s = string_in(m, at, pn, SEC_STRINGS, &name, "function name", err)) != PW_OK)
            return s;
        m->func_proc[i] = hpc_proc_add(m->h, name, pm ? m->module_path[mi] : NULL,
                                       pf ? m->file_path[fi] : NULL, line);
        if (m->func_proc[i] == HPC_NONE)
            return pw_fail(err, PW_E_NOMEM, m->ds->path, PW_NO_OFFSET, "out of memory");
    }
    return PW_OK;
}

/* The flex words of a context: pFunction, pFile, line, pModule, offset,
 * packed in that order (u64 take a whole word, u32 share one). */
static pw_status read_flex(meta_reader *m, uint64_t at, uint32_t id, uint8_t flags, uint8_t words,
                           pw_error *err)
{
    const uint8_t *b;
    pw_status s = hpc_need(&m->f, at + 0x20, 8u * words, &b, "context flex words", err);
    if (s != PW_OK)
        return s;
    unsigned next = 0; /* next free word (4.0 has one u32, line, in a word of its own) */
    uint64_t fptr = 0, fileptr = 0, modptr = 0, offset = 0;
    uint32_t line = 0;
    unsigned need = ((flags & 1) ? 1 : 0) + ((flags & 2) ? 2 : 0) + ((flags & 4) ? 2 : 0);
    if (need > words)
        return pw_fail(err, PW_E_DATA, m->f.path, (int64_t)at + 0x17,
                       "context %u: %u flex words expected for flags 0x%x, found %u", id, need,
                       flags, words);
    if (flags & 1)
        fptr = pw_le64(b + 8 * next++);
    if (flags & 2) {
        fileptr = pw_le64(b + 8 * next++);
        line = pw_le32(b + 8 * next++);
    }
    if (flags & 4) {
        modptr = pw_le64(b + 8 * next++);
        offset = pw_le64(b + 8 * next++);
    }
    hpc_ctx *c = &m->h->ctx[id];
    uint32_t idx = 0;
    if (fptr) {
        if ((s = entry_of(m, SEC_FUNCTIONS, fptr, at + 0x20, &idx, err)) != PW_OK)
            return s;
        c->proc = m->func_proc[idx];
    }
    if (fileptr) {
        if ((s = entry_of(m, SEC_FILES, fileptr, at + 0x20, &idx, err)) != PW_OK)
            return s;
        c->file = m->file_path[idx];
        c->line = line;
        c->has_line = 1;
    }
    if (modptr) {
        if ((s = entry_of(m, SEC_MODULES, modptr, at + 0x20, &idx, err)) != PW_OK)
            return s;
        c->module = m->module_path[idx];
        c->offset = offset;
        c->has_offset = 1;
    }
    return PW_OK;
}

/* One pending array of child contexts. */
typedef struct child_run {
    uint64_t at, end;
    uint32_t parent;
} child_run;

static const hpc_ctx_kind lexical_kinds[] = {HPC_CTX_FUNCTION, HPC_CTX_LOOP, HPC_CTX_LINE,
                                             HPC_CTX_INSTRUCTION};

/* Reads one {Ctx}; returns its size through *size and queues its children. */
static pw_status read_context(meta_reader *m, uint64_t at, uint32_t parent, uint64_t *size,
                              child_run *push, int *pushed, pw_error *err)
{
    uint64_t sec = m->p[SEC_CONTEXT], end = sec + m->sz[SEC_CONTEXT];
    const uint8_t *b;
    pw_status s = hpc_need(&m->f, at, 0x20, &b, "context", err);
    if (s != PW_OK)
        return s;
    uint64_t szc = pw_le64(b), pc = pw_le64(b + 8);
    uint32_t id = pw_le32(b + 0x10);
    uint8_t flags = b[0x14], rel = b[0x15], lex = b[0x16], words = b[0x17];
    *size = 0x20 + 8ull * words;
    if (lex > 3)
        return pw_fail(err, PW_E_DATA, m->f.path, (int64_t)at + 0x16,
                       "context %u: lexical type 0..3 expected, found %u", id, lex);
    if ((s = hpc_tree_reserve(m->ds, m->h, id, m->f.path, (int64_t)at + 0x10, err)) != PW_OK ||
        (s = hpc_tree_add(m->h, id, parent, lexical_kinds[lex], m->f.path, (int64_t)at + 0x10,
                          err)) != PW_OK)
        return s;
    m->h->ctx[id].relation = rel;
    if ((s = read_flex(m, at, id, flags, words, err)) != PW_OK)
        return s;
    *pushed = 0;
    if (szc) {
        if ((s = hpc_within(&m->f, at, pc, szc, sec, end, "child contexts", err)) != PW_OK)
            return s;
        *push = (child_run){pc, pc + szc, id};
        *pushed = 1;
    }
    return PW_OK;
}

/* Walks the tree breadth-first with a queue of child arrays: each array
 * is read front to back, and arrays come in the order they were queued, so
 * a tree written level by level reads sequentially through one window
 * (depth-first would jump between a parent's array and its children's).
 * A context id may appear once only, so a looping pointer stops at the
 * second visit. */
static pw_status walk_children(meta_reader *m, child_run first, pw_error *err)
{
    size_t cap = 64, head = 0, tail = 1;
    child_run *queue = malloc(cap * sizeof *queue);
    if (!queue)
        return pw_fail(err, PW_E_NOMEM, m->ds->path, PW_NO_OFFSET, "out of memory");
    queue[0] = first;
    pw_status s = PW_OK;
    while (head < tail && s == PW_OK) {
        child_run run = queue[head++];
        while (run.at < run.end && s == PW_OK) {
            uint64_t size;
            child_run push;
            int pushed = 0;
            s = read_context(m, run.at, run.parent, &size, &push, &pushed, err);
            if (s != PW_OK)
                break;
            run.at += size;
            if (run.at > run.end)
                s = pw_fail(err, PW_E_DATA, m->f.path, (int64_t)(run.at - size),
                            "context runs past the end of its sibling array (0x%llx)",
                            (unsigned long long)run.end);
            if (pushed && s == PW_OK) {
                if (tail == cap) {
                    child_run *nq = realloc(queue, 2 * cap * sizeof *nq);
                    if (!nq) {
                        s = pw_fail(err, PW_E_NOMEM, m->ds->path, PW_NO_OFFSET, "out of memory");
                        break;
                    }
                    queue = nq;
                    cap *= 2;
                }
                queue[tail++] = push;
            }
        }
    }
    free(queue);
    return s;
}

static pw_status read_entry(meta_reader *m, uint64_t at, pw_error *err)
{
    uint64_t sec = m->p[SEC_CONTEXT], end = sec + m->sz[SEC_CONTEXT];
    const uint8_t *b;
    pw_status s = hpc_need(&m->f, at, 0x20, &b, "entry point", err);
    if (s != PW_OK)
        return s;
    uint64_t szc = pw_le64(b), pc = pw_le64(b + 8), pname = pw_le64(b + 0x18);
    uint32_t id = pw_le32(b + 0x10);
    const char *name;
    if ((s = string_in(m, at + 0x18, pname, SEC_STRINGS, &name, "entry point name", err)) != PW_OK ||
        (s = hpc_tree_reserve(m->ds, m->h, id, m->f.path, (int64_t)at + 0x10, err)) != PW_OK ||
        (s = hpc_tree_add(m->h, id, 0, HPC_CTX_ENTRY, m->f.path, (int64_t)at + 0x10, err)) != PW_OK)
        return s;
    m->h->ctx[id].proc = hpc_proc_add(m->h, name ? name : "<entry>", NULL, NULL, 0);
    if (szc == 0)
        return PW_OK;
    if ((s = hpc_within(&m->f, at, pc, szc, sec, end, "entry point children", err)) != PW_OK)
        return s;
    return walk_children(m, (child_run){pc, pc + szc, id}, err);
}

static pw_status read_context_tree(meta_reader *m, pw_error *err)
{
    uint64_t sec = m->p[SEC_CONTEXT], end = sec + m->sz[SEC_CONTEXT];
    const uint8_t *b;
    pw_status s = hpc_need(&m->f, sec, 0xb, &b, "context tree header", err);
    if (s != PW_OK)
        return s;
    uint64_t pe = pw_le64(b);
    uint16_t n = pw_le16(b + 8);
    uint8_t sz = b[0xa];
    if (sz < 0x20)
        return pw_fail(err, PW_E_DATA, m->f.path, (int64_t)sec + 0xa,
                       "entry point size %u smaller than version 4.0's 32", sz);
    /* Ids are dense in real trees, with gaps for elided contexts: bound
     * them by what the section could hold, so a stray id cannot make the
     * table huge. */
    m->h->id_limit = 16 * (m->sz[SEC_CONTEXT] / 0x20) + 65536;
    if ((s = hpc_tree_reserve(m->ds, m->h, 0, m->f.path, (int64_t)sec, err)) != PW_OK ||
        (s = hpc_within(&m->f, sec, pe, (uint64_t)n * sz, sec, end, "entry points", err)) != PW_OK)
        return s;
    for (uint16_t i = 0; i < n; i++)
        if ((s = read_entry(m, pe + (uint64_t)i * sz, err)) != PW_OK)
            return s;
    hpc_tree_finish(m->h);
    return PW_OK;
}

pw_status hpc_meta_read(pw_dataset *ds, hpc_dataset *h, pw_error *err)
{
    meta_reader m = {.ds = ds, .h = h};
    pw_status s = hpc_file_open(&m.f, h->meta_path, 0, 64 * 1024, err);
    if (s != PW_OK)
        return s;
    s = read_header(&m, err);
    if (s == PW_OK)
        s = pw_ds_set_propf(ds, err, "meta.db version", "4.%u", m.minor);
    if (s == PW_OK)
        s = read_general(&m, err);
    if (s == PW_OK)
        s = read_id_names(&m, err);
    if (s == PW_OK)
        s = read_metrics(&m, err);
    if (s == PW_OK)
        s = read_paths(&m, SEC_MODULES, &m.module_path, err);
    if (s == PW_OK)
        s = read_paths(&m, SEC_FILES, &m.file_path, err);
    if (s == PW_OK)
        s = read_functions(&m, err);
    if (s == PW_OK)
        s = read_context_tree(&m, err);
    hpc_file_close(&m.f);
    return s;
}
