/* summary.c — the first screen of an MPI trace: how much of the ranks'
 * time goes to MPI and to waiting, which rank ends last, and (added by
 * critical_path.c) what the critical path spends most of its time in. */
#include "analysis/mpi_waits/mpi_waits.h"

pw_rnode *mw_report_summary(const mw_run *run, pw_rnode *root)
{
    uint64_t span = 0, mpi = 0, waits = 0;
    const mw_rank *latest = NULL;
    for (size_t i = 0; i < run->n_ranks; i++) {
        const mw_rank *rk = &run->ranks[i];
        if (rk->t_max < rk->t_min)
            continue; /* no timed call */
        span += (uint64_t)(rk->t_max - rk->t_min);
        for (size_t s = 0; s < run->ds->n_schemas; s++)
            mpi += rk->time_ns[s];
        for (int k = 0; k < MW_N_WAITS; k++)
            waits += rk->wait_total[k];
        if (!latest || rk->t_max > latest->t_max)
            latest = rk;
    }
    pw_rnode *o = pw_rnode_object(root, "summary");
    pw_rnode_num(o, "mpi_pct", span ? 100.0 * (double)mpi / (double)span : 0);
    pw_rnode_num(o, "waiting_pct", span ? 100.0 * (double)waits / (double)span : 0);
    if (latest) {
        pw_rnode_int(o, "latest_rank", latest->rank);
        pw_rnode_num(o, "latest_end_s", (double)(latest->t_max - run->t0) / 1e9);
    }
    return o;
}

const pw_table_decl pw_mpi_waits_summary_table = {
    "summary", "MPI at a glance",
    "share of the ranks' time in MPI and in wait states, the rank ending last, the critical path's top entry",
    "one row",
    {{"mpi_pct", "%", 0}, {"waiting_pct", "%", 0}, {"latest_rank", "", 0}, {"latest_end_s", "s", 0},
     {"critical_path_top", "", 0}, {"critical_path_top_pct", "%", 0}}};
