/* mpi_profile_part.c — the MPI profile split over the shares of the
 * locations (analysis.h: part/join).  A part holds the rank profiles of
 * its share: per rank its counters, min/max, size histogram, pair tables
 * (sends per comm-relative destination, collectives per communicator
 * instance) and its communicator creations (instance numbers, split colors
 * and keys: what the communicator replay needs, a few words per creation).
 * The join puts every rank back at its place in the format's rank order
 * and runs the serial tables over them: the replay (model/mpi_comms.h)
 * sees every rank's creations, sums are of integers, min/max are exact,
 * so the report is the serial one byte for byte.
 *
 * Words: the number of functions, then per rank of the share its index in
 * the format's ranks, the rank, per function calls/time/min/max, the
 * scalars, the size histogram, the span (mpi_profile.h: time bounds and
 * tracker), and the three pair tables as (count, then key/msgs/bytes). */
#include <stdlib.h>

#include "analysis/mpi_profile/mpi_profile.h"
#include "core/error.h"
#include "model/part.h"

/* The share's record locations [first, end) of n. */
typedef struct share_span {
    size_t n, first, end;
} share_span;

/* Rank i's owner: the share that holds the record location at i's place
 * in proportion (ranks and locations both in the format's order; with one
 * thread per rank, exactly the share of rank i's location). */
static int owns_rank(const share_span *sh, size_t i, size_t n_ranks)
{
    size_t at = (size_t)((uint64_t)i * sh->n / n_ranks); /* ranks and locations < 2^32 */
    return at >= sh->first && at < sh->end;
}

static void put_pairs(pw_part_writer *w, const pw_pair_counts *pc)
{
    pw_part_put_word(w, pc->n);
    for (size_t k = 0; k < pc->cap; k++)
        if (pc->slots[k].used) {
            pw_part_put_word(w, pc->slots[k].key);
            pw_part_put_word(w, pc->slots[k].msgs);
            pw_part_put_word(w, pc->slots[k].bytes);
        }
}

static void put_rank(pw_part_writer *w, const pw_mpi_profiles *mp, size_t i)
{
    const pw_mpi_rank_profile *p = &mp->ranks[i];
    pw_part_put_word(w, i);
    pw_part_put_word(w, (uint64_t)(int64_t)p->rank);
    for (size_t f = 0; f < mp->n_functions; f++) {
        const pw_mpi_fn_time *t = &p->fns[f];
        uint64_t v[4] = {t->calls, t->time_ns, t->min_ns, t->max_ns};
        pw_part_put(w, v, sizeof v);
    }
    uint64_t scalars[] = {p->mpi_ns,      (uint64_t)p->has_init,         (uint64_t)p->has_finalize,
                          p->init_ns,     p->finalize_ns,                (uint64_t)(int64_t)p->clock,
                          p->proc_null,   p->unknown_type};
    pw_part_put(w, scalars, sizeof scalars);
    pw_part_put(w, p->size_msgs, sizeof p->size_msgs);
    pw_part_put(w, p->size_bytes, sizeof p->size_bytes);
    pw_mpi_rank_profile_put_span(w, p);
    put_pairs(w, &p->sends);
    put_pairs(w, &p->coll_calls);
    put_pairs(w, &p->coll_time);
}

pw_status pw_mpi_profile_part(pw_dataset *ds, void **part, size_t *size, pw_error *err)
{
    *part = NULL;
    *size = 0;
    if (!ds->mpi_profiles)
        return PW_OK; /* declined: the report adds nothing */
    size_t n_ranks = ds->mpi_profiles->n_ranks;
    share_span sh = {0, 0, 0};
    uint8_t *mine = calloc(n_ranks ? n_ranks : 1, 1);
    int failed = !mine || !pw_ds_record_locations(ds, &sh.n);
    pw_ds_share(ds, sh.n, &sh.first, &sh.end);
    for (size_t i = 0; !failed && i < n_ranks; i++)
        mine[i] = (uint8_t)owns_rank(&sh, i, n_ranks);
    pw_mpi_profiles mp;
    pw_status s = failed ? pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory")
                         : pw_mpi_profiles_ready(ds, mine, &mp, err); /* this share's ranks only */
    if (s != PW_OK) {
        free(mine);
        return s;
    }
    pw_part_writer w = {0};
    pw_part_put_word(&w, mp.n_functions);
    for (size_t i = 0; i < mp.n_ranks; i++)
        if (mine[i])
            put_rank(&w, &mp, i);
    pw_mpi_profiles_release(ds, &mp);
    free(mine);
    return pw_part_finish(&w, PW_OK, ds->path, part, size, err);
}

/* A pair table read back; 0 when the part ends early, memory runs out, or
 * (functions not 0) a key's upper half is no function: the report names
 * a collective's row by it, and a damaged part's label read past the
 * function names. */
static int take_pairs(pw_part_reader *rd, pw_pair_counts *pc, size_t functions)
{
    uint64_t n = pw_part_next(rd);
    if (rd->bad || n > (rd->n - rd->pos) / 3)
        return 0;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t key = pw_part_next(rd), msgs = pw_part_next(rd);
        if (functions && key >> 32 >= functions)
            return 0;
        pw_pair_counts_add(pc, key, msgs, pw_part_next(rd));
    }
    return !pc->failed;
}

/* One rank of a part into its place in ranks; 0 when the part does not fit. */
static int take_rank(pw_part_reader *rd, const pw_mpi_profiles *mp, pw_mpi_rank_profile *ranks, uint8_t *seen)
{
    uint64_t i = pw_part_next(rd);
    if (rd->bad || i >= mp->n_ranks || seen[i])
        return 0;
    seen[i] = 1;
    pw_mpi_rank_profile *p = &ranks[i];
    const pw_mpi_tracker *t = &mp->ranks[0].tracker; /* the format's handle values */
    if (!pw_mpi_rank_profile_init(p, mp->ranks[i].rank, mp->n_functions, t->world, t->self, t->null,
                                  t->undefined_color))
        return 0;
    if (pw_part_next(rd) != (uint64_t)(int64_t)mp->ranks[i].rank)
        return 0; /* the rank is the format's, as every process opened it: the join indexes by it */
    for (size_t f = 0; f < mp->n_functions; f++) {
        pw_mpi_fn_time *ft = &p->fns[f];
        ft->calls = pw_part_next(rd);
        ft->time_ns = pw_part_next(rd);
        ft->min_ns = pw_part_next(rd);
        ft->max_ns = pw_part_next(rd);
    }
    p->mpi_ns = pw_part_next(rd);
    p->has_init = (int)pw_part_next(rd);
    p->has_finalize = (int)pw_part_next(rd);
    p->init_ns = pw_part_next(rd);
    p->finalize_ns = pw_part_next(rd);
    p->clock = (int)(int64_t)pw_part_next(rd);
    p->proc_null = pw_part_next(rd);
    p->unknown_type = pw_part_next(rd);
    pw_part_take(rd, p->size_msgs, sizeof p->size_msgs);
    pw_part_take(rd, p->size_bytes, sizeof p->size_bytes);
    return pw_mpi_rank_profile_take_span(rd, p) && take_pairs(rd, &p->sends, 0) &&
           take_pairs(rd, &p->coll_calls, mp->n_functions) && take_pairs(rd, &p->coll_time, mp->n_functions) &&
           !rd->bad;
}

/* Every part's ranks into ranks[]; 0 when a part does not fit or a rank
 * is missing. */
static int take_parts(const pw_mpi_profiles *mp, const void *const *parts, const size_t *sizes, size_t n,
                      pw_mpi_rank_profile *ranks, uint8_t *seen)
{
    for (size_t k = 0; k < n; k++) {
        pw_part_reader rd = pw_part_reader_of(parts[k], sizes[k]);
        if (pw_part_next(&rd) != mp->n_functions || rd.bad)
            return 0;
        while (rd.pos < rd.n)
            if (!take_rank(&rd, mp, ranks, seen))
                return 0;
    }
    for (size_t i = 0; i < mp->n_ranks; i++)
        if (!seen[i])
            return 0;
    return 1;
}

pw_status pw_mpi_profile_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n, pw_report *r,
                              pw_error *err)
{
    const pw_mpi_profiles *mp = ds->mpi_profiles;
    if (!mp)
        return pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET, "MPI profile parts for a dataset without profiles");
    pw_mpi_rank_profile *ranks = calloc(mp->n_ranks ? mp->n_ranks : 1, sizeof *ranks);
    uint8_t *seen = calloc(mp->n_ranks ? mp->n_ranks : 1, 1);
    pw_status s = PW_OK;
    if (!ranks || !seen)
        s = pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    else if (!take_parts(mp, parts, sizes, n, ranks, seen))
        s = pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                    "the MPI profile parts do not fit this dataset (cut short, out of memory, or a rank missing)");
    if (s == PW_OK) {
        pw_mpi_profiles joined = *mp;
        joined.ranks = ranks;
        joined.complete = 1;
        s = pw_mpi_profile_tables(ds, &joined, r, err);
    }
    for (size_t i = 0; ranks && seen && i < mp->n_ranks; i++)
        if (seen[i])
            pw_mpi_rank_profile_free(&ranks[i]);
    free(ranks);
    free(seen);
    return s;
}
