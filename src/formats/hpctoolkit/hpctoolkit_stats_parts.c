/* hpctoolkit_stats_parts.c — the figures of stats that each profile gives
 * on its own (its values of the top procedures, its trace line), carried
 * from the process that read the profile to the one that reports.  Values
 * travel as the bits of their doubles and each belongs to one profile, so
 * the join has the serial figures.  The time per procedure from traces is
 * a sum over trace lines of whole nanoseconds, exact in any order below
 * 2^53 ns (104 days), as the serial program's per-thread sums already
 * rely on. */
#include "formats/hpctoolkit/hpctoolkit.h"

void hpc_part_put_rows(pw_part_writer *w, const uint8_t *mine, uint32_t n_profs, uint32_t width, const double *rows)
{
    uint64_t count = 0;
    for (uint32_t p = 0; p < n_profs; p++)
        count += mine[p];
    pw_part_put_word(w, width);
    pw_part_put_word(w, count);
    for (uint32_t p = 0; p < n_profs; p++)
        if (mine[p]) {
            pw_part_put_word(w, p);
            pw_part_put(w, rows + (size_t)p * width, width * sizeof *rows);
        }
}

int hpc_part_get_rows(pw_part_reader *parts, size_t n_parts, uint32_t n_profs, uint32_t width, double *rows)
{
    for (size_t i = 0; i < n_parts; i++) {
        pw_part_reader *rd = &parts[i];
        if (pw_part_next(rd) != width)
            return 0;
        uint64_t count = pw_part_next(rd);
        for (uint64_t k = 0; k < count && !rd->bad; k++) {
            uint64_t p = pw_part_next(rd);
            if (p >= n_profs)
                return 0;
            pw_part_take(rd, rows + p * width, width * sizeof *rows);
        }
        if (rd->bad)
            return 0;
    }
    return 1;
}

void hpc_part_put_traces(pw_part_writer *w, const hpc_dataset *h, const uint8_t *mine, const hpc_trace_figures *fig,
                         const double *ns)
{
    uint64_t count = 0;
    for (uint32_t i = 0; i < h->n_traces; i++)
        count += mine[h->traces[i].prof];
    pw_part_put_word(w, count);
    for (uint32_t i = 0; i < h->n_traces; i++)
        if (mine[h->traces[i].prof]) {
            pw_part_put_word(w, i);
            pw_part_put(w, &fig[i], sizeof fig[i]);
        }
    pw_part_put(w, ns, ((size_t)h->n_procs + 1) * sizeof *ns);
}

int hpc_part_get_traces(pw_part_reader *parts, size_t n_parts, const hpc_dataset *h, hpc_trace_figures *fig,
                        double *ns)
{
    size_t width = (size_t)h->n_procs + 1;
    memset(fig, 0, h->n_traces * sizeof *fig);
    memset(ns, 0, width * sizeof *ns);
    for (size_t i = 0; i < n_parts; i++) {
        pw_part_reader *rd = &parts[i];
        uint64_t count = pw_part_next(rd);
        for (uint64_t k = 0; k < count && !rd->bad; k++) {
            uint64_t t = pw_part_next(rd);
            if (t >= h->n_traces)
                return 0;
            pw_part_take(rd, &fig[t], sizeof fig[t]);
        }
        for (size_t p = 0; p < width && !rd->bad; p++) {
            double v;
            pw_part_take(rd, &v, sizeof v);
            ns[p] += v;
        }
        if (rd->bad)
            return 0;
    }
    return 1;
}
