/* dumpi_profile.h — the mpiP-style profile (model/mpi_profile.h) of one
 * rank, gathered in one pass over its calls when the trace opens; the
 * mpi_profile analysis merges the ranks. */
#ifndef PW_DUMPI_PROFILE_H
#define PW_DUMPI_PROFILE_H
#include <stdint.h>

#include "formats/dumpi/dumpi.h"
#include "model/mpi_profile.h"

/* How the profile uses a function, and where its arguments are. */
typedef enum dumpi_use {
    DUMPI_USE_OTHER = 0,
    DUMPI_USE_SEND,        /* a point-to-point send (blocking or not) */
    DUMPI_USE_COLLECTIVE,
    DUMPI_USE_DUP,
    DUMPI_USE_SPLIT,
    DUMPI_USE_FREE,
    DUMPI_USE_INIT,        /* MPI_Init, MPI_Init_thread: the rank's span starts */
    DUMPI_USE_FINALIZE     /* the rank's span ends */
} dumpi_use;

typedef struct dumpi_fn_use {
    uint8_t use;
    /* argument indexes, -1 when absent */
    int8_t count, counts, datatype, dest, comm, newcomm, color, key;
} dumpi_fn_use;

/* The use of every label (from argument names in the generated table). */
void dumpi_uses_init(dumpi_fn_use uses[DUMPI_N_LABELS]);
/* 0 when memory runs out. */
int dumpi_profile_init(pw_mpi_rank_profile *p, int rank);
/* Adds the stream's current call; with a window [window[0], window[1])
 * (NULL: none), one that reaches into it: its time clipped to it, counted
 * (with its messages) only when it enters inside it. */
void dumpi_profile_call(const dumpi_rank *r, pw_mpi_rank_profile *p, const dumpi_stream *s,
                        const dumpi_fn_use *uses, const int64_t *window);
/* The part of a call every later call depends on, counted or not: the
 * communicators it creates or frees (a filtered profile follows them
 * through the calls the filter leaves out). */
void dumpi_profile_track(pw_mpi_rank_profile *p, const dumpi_stream *s, const dumpi_fn_use *uses);
/* With a filter set on ds: every rank's profile made again from the calls
 * it keeps (dumpi_profile_filter.c). */
pw_status dumpi_profiles_filter(pw_dataset *ds, pw_error *err);
/* The profiles as analyses see them (ds->mpi_profiles). */
void dumpi_profiles_publish(pw_dataset *ds, dumpi_dataset *dd);
#endif
