/* state_busy.c — busy and idle time per row of a view with a busy channel. */
#include "views/state_busy.h"

#include <stdlib.h>

void pw_state_busy_init(pw_state_busy *b, const pw_states *st)
{
    *b = (pw_state_busy){st, NULL, 0};
    if (!st || st->n_views <= 0)
        return;
    b->ns = calloc((size_t)st->n_views, sizeof *b->ns);
    b->failed = !b->ns;
    for (int v = 0; b->ns && v < st->n_views; v++)
        if (st->views[v].busy) {
            b->ns[v] = calloc(st->views[v].n_rows ? st->views[v].n_rows : 1, sizeof *b->ns[v]);
            b->failed |= !b->ns[v];
        }
}

void pw_state_busy_add(pw_state_busy *b, int view, uint32_t row, uint64_t ns)
{
    if (b->ns && view >= 0 && view < b->st->n_views && b->ns[view] && row < b->st->views[view].n_rows)
        b->ns[view][row] += ns;
}

void pw_state_busy_free(pw_state_busy *b)
{
    for (int v = 0; b->ns && v < b->st->n_views; v++)
        free(b->ns[v]);
    free(b->ns);
    b->ns = NULL;
}

/* Shares of a span of no time are 0, as the states' shares are. */
static double pct(uint64_t ns, int64_t span)
{
    return span > 0 ? 100.0 * (double)ns / (double)span : 0.0;
}

/* 1 when a view has a busy channel: else there is no table. */
static int any_busy(const pw_state_busy *b)
{
    for (int v = 0; b->ns && v < b->st->n_views; v++)
        if (b->ns[v])
            return 1;
    return 0;
}

int pw_state_busy_report(const pw_state_busy *b, int64_t span, pw_rnode *root)
{
    int ok = !b->failed;
    pw_rnode *arr = ok && any_busy(b) ? pw_rnode_array(root, "summary") : NULL;
    uint64_t whole = span > 0 ? (uint64_t)span : 0;
    for (int v = 0; arr && v < b->st->n_views; v++) {
        const pw_state_view *view = &b->st->views[v];
        for (uint32_t r = 0; b->ns[v] && r < view->n_rows; r++) {
            uint64_t busy = b->ns[v][r] < whole ? b->ns[v][r] : whole;
            pw_rnode *o = pw_rnode_object(arr, NULL);
            pw_rnode_str(o, "view", view->name);
            pw_rnode_str(o, "row", view->rows[r].title);
            pw_rnode_num(o, "busy_s", (double)busy / 1e9);
            pw_rnode_num(o, "busy_pct", pct(busy, span));
            pw_rnode_num(o, "idle_s", (double)(whole - busy) / 1e9);
            pw_rnode_num(o, "idle_pct", pct(whole - busy, span));
        }
    }
    return ok;
}

const pw_table_decl pw_state_busy_table = {
    "summary", "busy and idle time per CPU",
    "per row of a view with a busy channel (the emulator's CPUs), the time it ran a thread and the rest of the run",
    "view, row",
    {{"view", "", 1}, {"row", "", 1}, {"busy_s", "s", 0}, {"busy_pct", "%", 0}, {"idle_s", "s", 0},
     {"idle_pct", "%", 0}}};
