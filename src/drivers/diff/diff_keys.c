/* diff_keys.c — what names a row across runs (see diff_keys.h). */
#include "drivers/diff/diff_keys.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Columns that number the things a row is about, the same in every run
 * of the program: ranks, PEs, KPs, LPs, message-size and distance bins,
 * virtual-time bins, a state channel's number. */
static const char *const key_names[] = {"rank", "source",  "dest",  "min_bytes", "max_bytes", "pe",
                                        "kp",   "lp",      "gpu",   "comm_size", "peid",      "kpid",
                                        "lpid", "thread",  "vt_from", "vt_to",   "from",      "below",
                                        "type"};

/* Identifiers of one run (a process or thread id, which rank happened to
 * be the slowest) and absolute clocks: neither names a row nor changes in
 * a way worth subtracting. */
static const char *const left_out_names[] = {"pid",        "tid",       "min_rank",      "max_rank",
                                             "first_clock", "last_clock", "t0_s",         "first (ns)",
                                             "last (ns)",  "time_first_ns", "time_last_ns"};

static int listed(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, list[i]))
            return 1;
    return 0;
}

diff_role diff_role_of_name(const char *column, int has_text_key)
{
    const char *dot = strrchr(column, '.');
    const char *last = dot ? dot + 1 : column;
    if (!strncmp(column, "settings.", 9)) /* a power setting names its run */
        return DIFF_KEY;
    if (listed(last, left_out_names, sizeof left_out_names / sizeof *left_out_names))
        return DIFF_LEFT_OUT;
    if (!strcmp(last, "id") || !strcmp(last, "index")) /* a position: the name says more */
        return has_text_key ? DIFF_LEFT_OUT : DIFF_KEY;
    return listed(last, key_names, sizeof key_names / sizeof *key_names) ? DIFF_KEY : DIFF_VALUE;
}

/* ---- process and thread ids by their order ------------------------------ */

struct diff_names {
    json_t *ids;          /* parent path -> sorted array of the ids under it */
    char *root, *real;    /* the dataset's path as given and resolved (no trailing '/') */
};

/* The segments that carry a system id: "proc.<pid>", "thread.<tid>". */
static size_t id_segment(const char *seg, long long *id)
{
    static const char *const kinds[] = {"proc.", "thread."};
    for (size_t k = 0; k < 2; k++) {
        size_t n = strlen(kinds[k]);
        if (strncmp(seg, kinds[k], n) || !isdigit((unsigned char)seg[n]))
            continue;
        char *end;
        *id = strtoll(seg + n, &end, 10);
        if (*end == '\0' || *end == '/')
            return n;
    }
    return 0;
}

/* Walks the segments of a '/' path: for each id segment, fn(prefix length
 * before it, length of its kind, id). */
typedef void (*segment_fn)(void *ctx, const char *text, size_t at, size_t kind_len, long long id);

static void each_id_segment(const char *text, segment_fn fn, void *ctx)
{
    for (size_t at = 0;;) {
        long long id;
        size_t k = id_segment(text + at, &id);
        if (k)
            fn(ctx, text, at, k, id);
        const char *slash = strchr(text + at, '/');
        if (!slash)
            return;
        at = (size_t)(slash - text) + 1;
    }
}

static void collect_id(void *ctx, const char *text, size_t at, size_t kind_len, long long id)
{
    json_t *ids = ctx;
    char parent[1024];
    snprintf(parent, sizeof parent, "%.*s", (int)(at + kind_len), text);
    json_t *list = json_object_get(ids, parent);
    if (!list) {
        list = json_array();
        json_object_set_new(ids, parent, list);
    }
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) if (json_integer_value(v) == id) return;
    json_array_append_new(list, json_integer(id));
}

static void collect_ids(json_t *ids, const json_t *node)
{
    const char *k;
    size_t i;
    json_t *v;
    if (json_is_string(node))
        each_id_segment(json_string_value(node), collect_id, ids);
    else if (json_is_object(node))
        json_object_foreach((json_t *)node, k, v) collect_ids(ids, v);
    else if (json_is_array(node))
        json_array_foreach(node, i, v) collect_ids(ids, v);
}

static int by_id(const void *a, const void *b)
{
    long long x = json_integer_value(*(json_t *const *)a), y = json_integer_value(*(json_t *const *)b);
    return x < y ? -1 : x > y;
}

static void sort_ids(json_t *list)
{
    size_t n = json_array_size(list);
    json_t **v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return;
    for (size_t i = 0; i < n; i++)
        v[i] = json_incref(json_array_get(list, i));
    qsort(v, n, sizeof *v, by_id);
    json_array_clear(list);
    for (size_t i = 0; i < n; i++)
        json_array_append_new(list, v[i]);
    free(v);
}

/* The path without its trailing '/' (NULL: none). */
static char *trimmed(const char *path)
{
    if (!path || !*path)
        return NULL;
    char *p = strdup(path);
    for (size_t n = p ? strlen(p) : 0; n > 1 && p[n - 1] == '/'; n--)
        p[n - 1] = '\0';
    return p;
}

diff_names *diff_names_of(const json_t *root, const char *dataset_path)
{
    diff_names *n = calloc(1, sizeof *n);
    if (!n || !(n->ids = json_object())) {
        free(n);
        return NULL;
    }
    collect_ids(n->ids, root);
    const char *k;
    json_t *v;
    json_object_foreach(n->ids, k, v) sort_ids(v);
    n->root = trimmed(dataset_path);
    char *real = dataset_path ? realpath(dataset_path, NULL) : NULL;
    n->real = trimmed(real);
    free(real);
    return n;
}

void diff_names_free(diff_names *n)
{
    if (!n)
        return;
    json_decref(n->ids);
    free(n->root);
    free(n->real);
    free(n);
}

/* The text after the dataset's root, when it lies under it. */
static const char *under_root(const diff_names *n, const char *text)
{
    const char *roots[2] = {n->root, n->real};
    for (int i = 0; i < 2; i++) {
        size_t len = roots[i] ? strlen(roots[i]) : 0;
        if (len && !strncmp(text, roots[i], len) && (text[len] == '/' || !text[len]))
            return text[len] ? text + len + 1 : ".";
    }
    return text;
}

typedef struct rewrite {
    const diff_names *n;
    char out[1024];
    size_t copied; /* bytes of the text already handled */
} rewrite;

static void order_id(void *ctx, const char *text, size_t at, size_t kind_len, long long id)
{
    rewrite *r = ctx;
    char parent[1024];
    snprintf(parent, sizeof parent, "%.*s", (int)(at + kind_len), text);
    const json_t *list = json_object_get(r->n->ids, parent);
    size_t i, order = 0;
    json_t *v;
    json_array_foreach(list, i, v) if (json_integer_value(v) == id) order = i;
    size_t used = strlen(r->out);
    /* "proc.<pid>" becomes "proc#<order>" */
    snprintf(r->out + used, sizeof r->out - used, "%.*s#%zu", (int)(at + kind_len - 1 - r->copied),
             text + r->copied, order);
    const char *end = strchr(text + at, '/');
    r->copied = end ? (size_t)(end - text) : strlen(text);
}

json_t *diff_names_key(const diff_names *n, const char *text)
{
    text = under_root(n, text);
    rewrite r = {n, "", 0};
    each_id_segment(text, order_id, &r);
    if (!r.copied)
        return json_string(text);
    size_t used = strlen(r.out);
    snprintf(r.out + used, sizeof r.out - used, "%s", text + r.copied);
    return json_string(r.out);
}
