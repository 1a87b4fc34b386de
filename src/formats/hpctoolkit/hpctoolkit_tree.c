/* hpctoolkit_tree.c — the calling-context tree as a table indexed by
 * context id (ids are dense in real databases), with parent/child links,
 * and the procedures its function contexts name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/path_name.h"
#include "formats/hpctoolkit/hpctoolkit.h"

pw_status hpc_tree_reserve(pw_dataset *ds, hpc_dataset *h, uint64_t max_id, const char *file,
                           int64_t off, pw_error *err)
{
    if (max_id >= h->id_limit)
        return pw_fail(err, PW_E_DATA, file, off,
                       "context id %llu is beyond what a tree of this size can use (%llu)",
                       (unsigned long long)max_id, (unsigned long long)h->id_limit);
    uint32_t n = (uint32_t)max_id + 1;
    if (n <= h->n_ids)
        return PW_OK;
    if (n < 2 * h->n_ids && 2 * (uint64_t)h->n_ids <= h->id_limit)
        n = 2 * h->n_ids; /* ids mostly arrive in increasing order: grow geometrically */
    hpc_ctx *c = realloc(h->ctx, (size_t)n * sizeof *c);
    if (!c)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    for (uint32_t i = h->n_ids; i < n; i++)
        c[i] = (hpc_ctx){.parent = HPC_NONE, .first_child = HPC_NONE, .next_sibling = HPC_NONE,
                         .proc = HPC_NONE};
    if (h->n_ids == 0) { /* id 0 is the implicit global context */
        c[0].present = 1;
        c[0].kind = HPC_CTX_ROOT;
        h->n_contexts = 1;
    }
    h->ctx = c;
    h->n_ids = n;
    return PW_OK;
}

pw_status hpc_tree_add(hpc_dataset *h, uint32_t id, uint32_t parent, hpc_ctx_kind kind,
                       const char *file, int64_t off, pw_error *err)
{
    if (parent >= h->n_ids || !h->ctx[parent].present)
        return pw_fail(err, PW_E_DATA, file, off, "context %u: parent %u is not in the tree", id,
                       parent);
    if (id >= h->n_ids || id == 0 || h->ctx[id].present)
        return pw_fail(err, PW_E_DATA, file, off, "context id %u %s", id,
                       id == 0 ? "is reserved for the global context"
                               : "appears twice in the tree");
    hpc_ctx *c = &h->ctx[id];
    c->present = 1;
    c->kind = (uint8_t)kind;
    c->parent = parent;
    /* Children are prepended, then reversed once in hpc_tree_finish. */
    c->next_sibling = h->ctx[parent].first_child;
    h->ctx[parent].first_child = id;
    h->n_contexts++;
    return PW_OK;
}

uint32_t hpc_proc_add(hpc_dataset *h, const char *name, const char *module,
                      const char *file, uint32_t line)
{
    if (h->n_procs == h->cap_procs) {
        uint32_t cap = h->cap_procs ? h->cap_procs * 2 : 64;
        hpc_proc *p = realloc(h->procs, cap * sizeof *p);
        if (!p)
            return HPC_NONE;
        h->procs = p;
        h->cap_procs = cap;
    }
    h->procs[h->n_procs] = (hpc_proc){name, module, file, line};
    return h->n_procs++;
}

int hpc_is_frame(const hpc_ctx *c)
{
    return c->kind == HPC_CTX_ENTRY || c->kind == HPC_CTX_FUNCTION || c->kind == HPC_CTX_LOOP;
}

/* Restores file order of siblings and computes frame depths top-down
 * (parents always precede children in the order ids were linked). */
void hpc_tree_finish(hpc_dataset *h)
{
    for (uint32_t i = 0; i < h->n_ids; i++) {
        uint32_t prev = HPC_NONE, c = h->ctx[i].first_child;
        while (c != HPC_NONE) {
            uint32_t next = h->ctx[c].next_sibling;
            h->ctx[c].next_sibling = prev;
            prev = c;
            c = next;
        }
        h->ctx[i].first_child = prev;
    }
    /* Depth-first from the root with an explicit stack held in the links. */
    h->max_frame_depth = 0;
    uint32_t id = h->ctx[0].first_child;
    while (id != HPC_NONE) {
        hpc_ctx *c = &h->ctx[id];
        c->frame_depth = h->ctx[c->parent].frame_depth + (hpc_is_frame(c) ? 1 : 0);
        if (c->frame_depth > h->max_frame_depth)
            h->max_frame_depth = c->frame_depth;
        if (c->first_child != HPC_NONE) {
            id = c->first_child;
            continue;
        }
        while (id != HPC_NONE && h->ctx[id].next_sibling == HPC_NONE)
            id = h->ctx[id].parent == 0 ? HPC_NONE : h->ctx[id].parent;
        if (id != HPC_NONE)
            id = h->ctx[id].next_sibling;
    }
}

const char *hpc_ctx_kind_name(hpc_ctx_kind k)
{
    static const char *const names[] = {"root", "entry", "function", "loop", "line",
                                        "instruction"};
    return k <= HPC_CTX_INSTRUCTION ? names[k] : "unknown";
}

/* A file's or module's name without its directories; "?" when unknown. */
static const char *file_label(const char *path) { return path ? pw_base_name(path) : "?"; }

const char *hpc_ctx_label(const hpc_dataset *h, uint32_t id, char *buf, size_t n)
{
    if (id >= h->n_ids || !h->ctx[id].present) {
        snprintf(buf, n, "[%u]", id);
        return buf;
    }
    const hpc_ctx *c = &h->ctx[id];
    switch ((hpc_ctx_kind)c->kind) {
    case HPC_CTX_ROOT: return "<root>";
    case HPC_CTX_ENTRY:
    case HPC_CTX_FUNCTION:
        if (c->proc != HPC_NONE && h->procs[c->proc].name)
            return h->procs[c->proc].name;
        snprintf(buf, n, "<unknown function> %s+0x%llx", file_label(c->module),
                 (unsigned long long)c->offset);
        return buf;
    case HPC_CTX_LOOP: snprintf(buf, n, "loop at %s:%u", file_label(c->file), c->line); return buf;
    case HPC_CTX_LINE: snprintf(buf, n, "%s:%u", file_label(c->file), c->line); return buf;
    case HPC_CTX_INSTRUCTION:
        snprintf(buf, n, "%s+0x%llx", file_label(c->module), (unsigned long long)c->offset);
        return buf;
    }
    return "?";
}

uint32_t hpc_ctx_proc(const hpc_dataset *h, uint32_t id)
{
    while (id < h->n_ids && h->ctx[id].present && id != 0) {
        if (h->ctx[id].proc != HPC_NONE)
            return h->ctx[id].proc;
        id = h->ctx[id].parent;
    }
    return HPC_NONE;
}
