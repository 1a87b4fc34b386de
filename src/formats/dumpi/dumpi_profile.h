/* dumpi_profile.h — the mpiP-style profile (model/mpi_profile.h) of one
 * rank, gathered in one pass over its calls when the trace opens: the
 * unfiltered report, which the mpi_profile analysis merges over the ranks
 * (under a filter, the analysis profiles the records itself). */
#ifndef PW_DUMPI_PROFILE_H
#define PW_DUMPI_PROFILE_H
#include <stdint.h>

#include "formats/dumpi/dumpi.h"
#include "model/mpi_profile.h"

/* How the profile uses a function (model/mpi_profile.h), and where its
 * arguments are. */
typedef struct dumpi_fn_use {
    uint8_t use;
    /* argument indexes, -1 when absent */
    int8_t count, counts, datatype, dest, comm, newcomm, color, key;
} dumpi_fn_use;

/* The use of every label (from argument names in the generated table). */
void dumpi_uses_init(dumpi_fn_use uses[DUMPI_N_LABELS]);
/* 0 when memory runs out. */
int dumpi_profile_init(pw_mpi_rank_profile *p, int rank);
/* Adds the stream's current call. */
void dumpi_profile_call(const dumpi_rank *r, pw_mpi_rank_profile *p, const dumpi_stream *s,
                        const dumpi_fn_use *uses);
/* The profiles as analyses see them (ds->mpi_profiles). */
void dumpi_profiles_publish(pw_dataset *ds, dumpi_dataset *dd);
#endif
