/* mpi_profile_tables.c — the declarations of the MPI profile's tables. */
#include "analysis/mpi_profile/mpi_profile.h"

static const pw_table_decl trace = {
    "trace", "MPI trace", "ranks, calls and the time spent in MPI over all ranks", "one row",
    {{"ranks", "count", 0}, {"calls", "count", 0}, {"clock", "", 0}, {"mpi_time_s", "s", 0},
     {"communicator_creations", "count", 0}, {"unresolved_creations", "count", 0}, {"communicators", "count", 0},
     {"unknown_datatype_sizes", "count", 0}}};

static const pw_table_decl functions = {
    "functions", "MPI functions", "calls and time per MPI function over all ranks (mpiP's aggregate)",
    "time, largest first",
    {{"function", "", 1}, {"calls", "count", 0}, {"time_s", "s", 0}, {"mean_s", "s", 0}, {"min_s", "s", 0},
     {"max_s", "s", 0}, {"mpi_pct", "%", 0}, {"min_rank", "", 0}, {"min_rank_s", "s", 0}, {"max_rank", "", 0},
     {"max_rank_s", "s", 0}}};

static const pw_table_decl ranks = {
    "ranks", "MPI ranks", "per rank: calls, time in MPI, the rank's span and the share of it in MPI", "rank",
    {{"rank", "", 1}, {"calls", "count", 0}, {"mpi_s", "s", 0}, {"span_s", "s", 0}, {"mpi_pct", "%", 0}}};

static const pw_table_decl point_to_point = {
    "point_to_point", "point-to-point messages", "messages and bytes sent, and those whose peer is unknown",
    "one row",
    {{"messages", "count", 0}, {"bytes", "B", 0}, {"unresolved_messages", "count", 0},
     {"unresolved_bytes", "B", 0}, {"proc_null_sends", "count", 0}}};

static const pw_table_decl comm_matrix = {
    "comm_matrix", "communication matrix", "messages and bytes from each rank to each rank",
    "source, then destination",
    {{"source", "", 1}, {"dest", "", 1}, {"messages", "count", 0}, {"bytes", "B", 0}}};

static const pw_table_decl message_sizes = {
    "message_sizes", "message sizes", "point-to-point messages per size class (powers of two)", "size",
    {{"min_bytes", "B", 1}, {"max_bytes", "B", 1}, {"messages", "count", 0}, {"bytes", "B", 0}}};

static const pw_table_decl collectives = {
    "collectives", "collective operations", "calls, time and bytes per collective function and communicator",
    "function, then communicator",
    {{"function", "", 1}, {"comm", "", 1}, {"comm_size", "count", 0}, {"calls", "count", 0}, {"time_s", "s", 0},
     {"bytes", "B", 0}}};

const pw_table_decl *const pw_mpi_profile_table_decls[] = {&trace, &functions, &ranks, &point_to_point, &comm_matrix,
                                           &message_sizes, &collectives, NULL};
