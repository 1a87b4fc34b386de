/* report_tree_top.h — which rows of a tree table `--top N` shows: whole
 * subtrees are left out, never a node without its ancestors. */
#ifndef PW_SINKS_REPORT_TREE_TOP_H
#define PW_SINKS_REPORT_TREE_TOP_H
#include <jansson.h>
#include <stddef.h>

#include "model/report.h"
#include "model/table.h"

/* For a tree table (pw_table_is_tree) whose rows carry "id" and
 * "parent": a flag per row (malloc'd, `rows` of them), set for the `top`
 * costliest nodes taken from the roots down (so each comes with its
 * ancestors) and for the hot path (from the first root, each node's first
 * child in row order: siblings come largest first).  *kept counts them.
 * NULL when the table is no such tree, `top` is 0 or out of memory: the
 * caller then cuts the list. */
unsigned char *report_tree_top(const pw_report *rep, const pw_table_decl *d, json_t *arr, size_t rows, size_t top,
                               size_t *kept);
#endif
