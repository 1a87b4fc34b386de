/* mpi_profile.h — the mpiP-style MPI profile: the one a format gathered
 * (ds->mpi_profiles, model/mpi_profile.h) or, under a filter, one made
 * from the records (mpi_profile_records.c), merged over the ranks into
 * the stats report (mpi_profile_report.c). */
#ifndef PW_ANALYSIS_MPI_PROFILE_H
#define PW_ANALYSIS_MPI_PROFILE_H
#include "model/dataset.h"
#include "model/mpi_profile.h"

/* Adds nothing for a dataset without profiles. */
pw_status pw_mpi_profile_report(pw_dataset *ds, pw_report *r, pw_error *err);
/* The tables it adds (mpi_profile_tables.c). */
extern const pw_table_decl *const pw_mpi_profile_table_decls[];
/* The profiles of what the selection reports (mpi_profile_records.c):
 * ds's own when the format made them of every call and no filter is set,
 * else made here from the records, of the ranks want[] names (NULL:
 * every rank; the others stay empty).  Release with
 * pw_mpi_profiles_release. */
pw_status pw_mpi_profiles_ready(pw_dataset *ds, const uint8_t *want, pw_mpi_profiles *out, pw_error *err);
void pw_mpi_profiles_release(const pw_dataset *ds, pw_mpi_profiles *made);
/* The report's tables from the rank profiles mp (ds's, or joined from
 * parts: mpi_profile_part.c). */
pw_status pw_mpi_profile_tables(pw_dataset *ds, const pw_mpi_profiles *mp, pw_report *r, pw_error *err);
/* The profile's part (its share's ranks) and join (mpi_profile_part.c). */
pw_status pw_mpi_profile_part(pw_dataset *ds, void **part, size_t *size, pw_error *err);
pw_status pw_mpi_profile_join(pw_dataset *ds, const void *const *parts, const size_t *sizes, size_t n, pw_report *r,
                              pw_error *err);
#endif
