/* dumpi_share.c — the second step of a two-step open (pw_open_share).
 * Each process walked only its share's rank files; what the open needs
 * of every rank besides its header is what the walk counted: the thread
 * ids (they become locations), the records per function (the footer
 * comparison's findings, the `records` property, and the call counts the
 * MPI analyses' census sizes its windows with) and, when the walk
 * profiled, the rank's time bounds and communicator creations (the
 * census's time bins and communicator replay).  The other fields of a
 * rank's profile stay zero on the processes that did not walk it: only
 * its own share's part reports them (mpi_profile_part.c).
 *
 * Words: the number of ranks, then per rank its slot, whether it was
 * walked, its records, stream_damaged, whether a record has a time,
 * thread count and ids, the number
 * of functions with records and (label, records) pairs, and with a
 * profile its span (mpi_profile.h: t_min, t_max and the tracker). */
#include <stdlib.h>

#include "core/error.h"
#include "formats/dumpi/dumpi_profile.h"
#include "model/part.h"

/* Rank slot's words; its records per label are freed once put (a label
 * table per rank of the share would otherwise live until the close). */
static void put_rank(pw_part_writer *w, dumpi_dataset *dd, size_t slot)
{
    dumpi_rank *r = &dd->ranks[slot];
    uint64_t head[] = {slot, r->records_of != NULL, r->records, (uint64_t)r->stream_damaged, (uint64_t)r->timed,
                       r->n_threads};
    pw_part_put(w, head, sizeof head);
    for (size_t t = 0; t < r->n_threads; t++)
        pw_part_put_word(w, r->threads[t]);
    size_t labels = 0;
    for (int l = 0; r->records_of && l < DUMPI_N_LABELS; l++)
        labels += r->records_of[l] != 0;
    pw_part_put_word(w, labels);
    for (int l = 0; r->records_of && l < DUMPI_N_LABELS; l++)
        if (r->records_of[l]) {
            pw_part_put_word(w, (uint64_t)l);
            pw_part_put_word(w, r->records_of[l]);
        }
    free(r->records_of);
    r->records_of = NULL;
    if (!dd->profiled)
        return;
    pw_mpi_rank_profile_put_span(w, &dd->profiles[slot]);
}

pw_status dumpi_share_found(pw_dataset *ds, void **found, size_t *size, pw_error *err)
{
    dumpi_dataset *dd = ds->impl;
    pw_part_writer w = {0};
    size_t n = dd->pending ? dd->scan_end - dd->scan_first : 0; /* not pending: every process walked all */
    pw_part_put_word(&w, n);
    for (size_t i = 0; i < n; i++)
        put_rank(&w, dd, dd->scan_first + i);
    return pw_part_finish(&w, PW_OK, ds->path, found, size, err);
}

/* Thread ids into r (its locations are added by dumpi_layout_finish). */
static int take_threads(pw_part_reader *rd, dumpi_rank *r, uint64_t n)
{
    if (n > 65535 || n > rd->n - rd->pos)
        return 0;
    r->threads = malloc((n ? n : 1) * sizeof *r->threads);
    r->thread_locs = malloc((n ? n : 1) * sizeof *r->thread_locs);
    if (!r->threads || !r->thread_locs)
        return 0;
    for (uint64_t t = 0; t < n; t++)
        r->threads[t] = (uint16_t)pw_part_next(rd);
    r->n_threads = (size_t)n;
    return 1;
}

/* The records per label, into records_of and (when profiled) the calls of
 * the rank's profile. */
static int take_labels(pw_part_reader *rd, uint64_t *records_of, pw_mpi_rank_profile *p)
{
    uint64_t n = pw_part_next(rd);
    if (rd->bad || n > (rd->n - rd->pos) / 2)
        return 0;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t l = pw_part_next(rd), count = pw_part_next(rd);
        if (l >= DUMPI_N_LABELS)
            return 0;
        records_of[l] = count;
        if (p)
            p->fns[l].calls = count;
    }
    return 1;
}

/* One rank another share walked, with the findings its walk made. */
static int take_rank(pw_dataset *ds, dumpi_dataset *dd, pw_part_reader *rd, uint8_t *seen, uint64_t *records_of)
{
    uint64_t head[6];
    pw_part_take(rd, head, sizeof head);
    if (rd->bad || head[0] >= dd->n_ranks || seen[head[0]])
        return 0;
    seen[head[0]] = 1;
    dumpi_rank *r = &dd->ranks[head[0]];
    pw_mpi_rank_profile *p = dd->profiled ? &dd->profiles[head[0]] : NULL;
    r->records = head[2];
    r->stream_damaged = (int)head[3];
    r->timed = head[4] != 0;
    for (int l = 0; l < DUMPI_N_LABELS; l++)
        records_of[l] = 0;
    if (!take_threads(rd, r, head[5]) || !take_labels(rd, records_of, p) || (p && !pw_mpi_rank_profile_take_span(rd, p)) ||
        rd->bad)
        return 0;
    if (head[1]) /* walked: what the walk found (not walked: it could not start, and said nothing) */
        dumpi_scan_findings(ds, r, records_of);
    return 1;
}

/* Every other share's ranks into dd; 0 when a share's bytes do not fit or
 * a rank is missing. */
static int take_shares(pw_dataset *ds, dumpi_dataset *dd, const void *const *found, const size_t *sizes,
                       size_t n, uint8_t *seen, uint64_t *records_of)
{
    for (size_t i = dd->scan_first; i < dd->scan_end; i++)
        seen[i] = 1;
    for (size_t k = 0; k < n; k++) {
        if (k == ds->run->opening_share)
            continue;
        pw_part_reader rd = pw_part_reader_of(found[k], sizes[k]);
        uint64_t ranks = pw_part_next(&rd);
        for (uint64_t i = 0; i < ranks; i++)
            if (!take_rank(ds, dd, &rd, seen, records_of))
                return 0;
        if (rd.bad || rd.pos != rd.n)
            return 0;
    }
    for (size_t i = 0; i < dd->n_ranks; i++)
        if (!seen[i])
            return 0;
    return 1;
}

pw_status dumpi_share_complete(pw_dataset *ds, const void *const *found, const size_t *sizes, size_t n,
                               pw_error *err)
{
    dumpi_dataset *dd = ds->impl;
    if (!dd->pending)
        return PW_OK; /* every rank was walked here */
    uint8_t *seen = calloc(dd->n_ranks, 1);
    uint64_t *records_of = malloc(DUMPI_N_LABELS * sizeof *records_of);
    int ok = seen && records_of && take_shares(ds, dd, found, sizes, n, seen, records_of);
    free(seen);
    free(records_of);
    if (!ok)
        return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                       "the shares' rank files do not fit this trace (cut short, out of memory, or a rank missing)");
    return dumpi_layout_finish(ds, dd, err);
}
