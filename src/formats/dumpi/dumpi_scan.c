/* dumpi_scan.c — the open-time pass over one rank's stream.  It finds the
 * thread ids (so that every thread has its location before any cursor
 * runs), compares the records per function with the footer's counts, and
 * gathers the profile `stats` reports, so that `stats` reads the trace
 * once.  Records are walked, not decoded into values.  Opened in two
 * steps (pw_open_share), a process walks only its share's ranks and
 * keeps their records per label for the others (dumpi_share.c). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "formats/dumpi/dumpi_profile.h"

/* Sorted thread ids (other than 0) from a 65536-bit set. */
static void collect_threads(dumpi_rank *r, const uint64_t *seen)
{
    size_t n = 0;
    for (size_t i = 0; i < 1024; i++)
        n += (size_t)__builtin_popcountll(seen[i]);
    r->threads = malloc((n ? n : 1) * sizeof *r->threads);
    r->thread_locs = malloc((n ? n : 1) * sizeof *r->thread_locs);
    if (!r->threads || !r->thread_locs)
        return;
    for (uint32_t w = 0; w < 1024; w++)
        for (uint64_t bits = seen[w]; bits; bits &= bits - 1)
            r->threads[r->n_threads++] = (uint16_t)(w * 64 + (uint32_t)__builtin_ctzll(bits));
}

/* Records per function = calls - ignored in the footer (dumpi-facts §5). */
static void compare_footer(pw_dataset *ds, const dumpi_rank *r, const uint64_t *records_of)
{
    uint64_t total = 0;
    for (int l = 0; l < DUMPI_ALL_FUNCTIONS; l++) {
        total += records_of[l];
        uint64_t expect = r->calls[l] >= r->ignored[l] ? r->calls[l] - r->ignored[l] : 0;
        if (records_of[l] != expect)
            pw_ds_diag(ds, PW_SEV_ERROR, "dumpi.count-mismatch", r->file, (int64_t)r->off_footer,
                       "footer: %s called %u times and ignored %u, so %llu records expected; the stream has %llu",
                       dumpi_functions[l].name, r->calls[l], r->ignored[l], (unsigned long long)expect,
                       (unsigned long long)records_of[l]);
    }
    uint32_t c = r->calls[DUMPI_ALL_FUNCTIONS], i = r->ignored[DUMPI_ALL_FUNCTIONS];
    if (total != (uint64_t)(c >= i ? c - i : 0))
        pw_ds_diag(ds, PW_SEV_ERROR, "dumpi.count-mismatch", r->file, (int64_t)r->off_footer,
                   "footer total: %u calls, %u ignored, but the stream has %llu MPI records", c, i,
                   (unsigned long long)total);
}

void dumpi_scan_findings(pw_dataset *ds, const dumpi_rank *r, const uint64_t *records_of)
{
    /* Damage is reported by the cursors that meet it; the profile covers
     * the records before it, and says so through this diagnostic. */
    if (r->stream_damaged)
        pw_ds_diag(ds, PW_SEV_WARNING, "dumpi.partial-rank", r->file, PW_NO_OFFSET,
                   "%llu calls read before damage (reported when the stream is read)",
                   (unsigned long long)r->records);
    else if (r->has_footer)
        compare_footer(ds, r, records_of);
}

void dumpi_scan_rank(pw_dataset *ds, dumpi_dataset *dd, size_t slot)
{
    dumpi_rank *r = &dd->ranks[slot];
    pw_mpi_rank_profile *p = &dd->profiles[slot];
    if (!r->usable)
        return;
    /* thread ids seen (a 65536-bit set), then the records per label (kept
     * for the other shares when the open is in two steps) */
    uint64_t *seen = calloc(1024, sizeof *seen);
    uint64_t *records_of = calloc(DUMPI_N_LABELS, sizeof *records_of);
    dumpi_stream s;
    pw_error e;
    if (!seen || !records_of || dumpi_stream_init(&s, r, PW_WINDOW_DEFAULT_CAP, NULL, &e) != PW_OK) {
        free(seen);
        free(records_of);
        r->stream_damaged = 1;
        return;
    }
    const char *code = NULL;
    pw_status st;
    while ((st = dumpi_stream_next(&s, &code, &e)) == PW_OK) {
        r->records++;
        records_of[s.rec.label]++;
        seen[s.rec.thread >> 6] |= 1ull << (s.rec.thread & 63);
        if (dd->profiled)
            dumpi_profile_call(r, p, &s, dd->uses, NULL);
    }
    atomic_fetch_add_explicit(&ds->run->open_bytes, s.off - r->off_stream, memory_order_relaxed);
    r->stream_damaged = st != PW_END;
    dumpi_stream_fini(&s);
    seen[0] &= ~1ull; /* thread 0 is the rank itself */
    collect_threads(r, seen);
    dumpi_scan_findings(ds, r, records_of);
    free(seen);
    if (dd->pending) /* the other shares need them: dumpi_share_found sends and frees them */
        r->records_of = records_of;
    else
        free(records_of);
}
