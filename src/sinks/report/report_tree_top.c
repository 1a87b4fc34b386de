/* report_tree_top.c — `--top N` on a tree table keeps the N costliest
 * nodes as a tree: taken best first from the roots down, a node can only
 * be kept after its parent, so what is left out are whole subtrees; and
 * the hot path is kept whatever N, so the answer to "where does the time
 * go" never falls off the screen. */
#include "report_tree_top.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_table.h"

#define NONE SIZE_MAX

typedef struct tree_node {
    json_int_t id;
    double cost;
    size_t parent, first_child, next_sibling; /* row indexes */
} tree_node;

typedef struct id_row {
    json_int_t id;
    size_t row;
} id_row;

static int by_id(const void *a, const void *b)
{
    const id_row *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

/* The value of the row's first column the declaration's "*" stands for. */
static double row_cost(const pw_table_decl *d, json_t *row)
{
    const char *k;
    json_t *v;
    json_object_foreach(row, k, v)
    {
        if (!pw_table_column_named(d, k))
            return json_is_number(v) ? json_number_value(v) : 0.0;
    }
    return 0.0;
}

/* Reads id, parent id (as an id; -1 for none) and cost of every row.
 * 0 when a row has no integer id. */
static int read_nodes(const pw_report *rep, const pw_table_decl *d, json_t *arr, tree_node *nodes, size_t rows,
                      json_int_t *parent_ids)
{
    report_rows it;
    report_rows_start(&it, rep, arr);
    json_t *row;
    size_t r = 0;
    int ok = 1;
    for (; ok && r < rows && (row = report_rows_next(&it)); r++) {
        json_t *id = json_object_get(row, "id"), *parent = json_object_get(row, "parent");
        ok = json_is_integer(id);
        nodes[r] = (tree_node){ok ? json_integer_value(id) : 0, row_cost(d, row), NONE, NONE, NONE};
        parent_ids[r] = json_is_integer(parent) ? json_integer_value(parent) : -1;
    }
    report_rows_end(&it);
    return ok && r == rows;
}

/* Links each row to its parent's row and its siblings, in row order. */
static int link_nodes(tree_node *nodes, size_t rows, const json_int_t *parent_ids)
{
    id_row *index = malloc(rows * sizeof *index);
    if (!index)
        return 0;
    for (size_t r = 0; r < rows; r++)
        index[r] = (id_row){nodes[r].id, r};
    qsort(index, rows, sizeof *index, by_id);
    for (size_t r = rows; r-- > 0;) {
        id_row key = {parent_ids[r], 0};
        const id_row *p = parent_ids[r] < 0 ? NULL : bsearch(&key, index, rows, sizeof *index, by_id);
        if (p && p->row != r) {
            nodes[r].parent = p->row;
            nodes[r].next_sibling = nodes[p->row].first_child;
            nodes[p->row].first_child = r;
        }
    }
    free(index);
    return 1;
}

/* A max-heap of rows by cost; ties go to the earlier row (hpcviewer's
 * sibling order, so the hot path first). */
typedef struct heap {
    size_t *rows, n;
    const tree_node *nodes;
} heap;

static int before(const heap *h, size_t a, size_t b)
{
    double x = h->nodes[a].cost, y = h->nodes[b].cost;
    return x > y || (x == y && a < b);
}

static void heap_push(heap *h, size_t row)
{
    size_t i = h->n++;
    for (; i > 0 && before(h, row, h->rows[(i - 1) / 2]); i = (i - 1) / 2)
        h->rows[i] = h->rows[(i - 1) / 2];
    h->rows[i] = row;
}

static size_t heap_pop(heap *h)
{
    size_t top = h->rows[0], last = h->rows[--h->n], i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && before(h, h->rows[c + 1], h->rows[c]))
            c++;
        if (!before(h, h->rows[c], last))
            break;
        h->rows[i] = h->rows[c];
        i = c;
    }
    if (h->n)
        h->rows[i] = last;
    return top;
}

/* Best first from the roots: `top` nodes, then the hot path. */
static size_t choose(const tree_node *nodes, size_t rows, size_t top, size_t *scratch, unsigned char *keep)
{
    heap h = {scratch, 0, nodes};
    for (size_t r = 0; r < rows; r++)
        if (nodes[r].parent == NONE)
            heap_push(&h, r);
    size_t kept = 0;
    while (kept < top && h.n) {
        size_t r = heap_pop(&h);
        keep[r] = 1;
        kept++;
        for (size_t c = nodes[r].first_child; c != NONE; c = nodes[c].next_sibling)
            heap_push(&h, c);
    }
    size_t root = 0;
    while (root < rows && nodes[root].parent != NONE)
        root++;
    for (size_t r = root; r < rows; r = nodes[r].first_child) /* NONE ends it */
        if (!keep[r]) {
            keep[r] = 1;
            kept++;
        }
    return kept;
}

unsigned char *report_tree_top(const pw_report *rep, const pw_table_decl *d, json_t *arr, size_t rows, size_t top,
                               size_t *kept)
{
    if (!pw_table_is_tree(d) || !top || !rows)
        return NULL;
    tree_node *nodes = malloc(rows * sizeof *nodes);
    json_int_t *parent_ids = malloc(rows * sizeof *parent_ids);
    size_t *scratch = malloc(rows * sizeof *scratch);
    unsigned char *keep = calloc(rows, 1);
    int ok = nodes && parent_ids && scratch && keep && read_nodes(rep, d, arr, nodes, rows, parent_ids) &&
             link_nodes(nodes, rows, parent_ids);
    if (ok)
        *kept = choose(nodes, rows, top, scratch, keep);
    free(nodes);
    free(parent_ids);
    free(scratch);
    if (!ok) {
        free(keep);
        return NULL;
    }
    return keep;
}
