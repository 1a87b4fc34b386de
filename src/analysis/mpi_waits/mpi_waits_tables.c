/* mpi_waits_tables.c — the declarations of the MPI wait states, critical
 * path, rank x function and time profile tables. */
#include "analysis/mpi_waits/mpi_waits.h"

#define WAIT_COLUMNS                                                                                    \
    {"late_sender_s", "s", 0}, {"late_receiver_s", "s", 0}, {"wait_nxn_s", "s", 0},                  \
        {"wait_barrier_s", "s", 0}, {"late_broadcast_s", "s", 0}, { "early_reduce_s", "s", 0 }

static const pw_table_decl wait_states = {
    "wait_states", "wait states per rank", "time lost waiting, per rank and kind (Scalasca's patterns)", "rank",
    {{"rank", "", 1}, WAIT_COLUMNS}};

static const pw_table_decl wait_states_by_function = {
    "wait_states_by_function", "wait states per function", "time lost waiting, per MPI function that waited and kind",
    "function",
    {{"function", "", 1}, WAIT_COLUMNS}};

static const pw_table_decl critical_path = {
    "critical_path", "critical path", "the length of the run's critical path and the imbalance along it",
    "one row", {{"length_s", "s", 0}, {"imbalance_s", "s", 0}}};

static const pw_table_decl critical_path_ranks = {
    "critical_path_ranks", "critical path per rank", "time of the critical path spent on each rank", "rank",
    {{"rank", "", 1}, {"time_s", "s", 0}, {"share_pct", "%", 0}}};

static const pw_table_decl critical_path_functions = {
    "critical_path_functions", "critical path per function",
    "time of the critical path spent in each MPI function and in computation", "computation, then functions",
    {{"function", "", 1}, {"time_s", "s", 0}, {"share_pct", "%", 0}}};

static const pw_table_decl rank_functions = {
    "rank_functions", "ranks x functions", "calls, time and wait time per rank and MPI function", "rank, then function",
    {{"rank", "", 1}, {"function", "", 1}, {"calls", "count", 0}, {"time_s", "s", 0}, {"wait_s", "s", 0}}};

static const pw_table_decl idle_time = {
    "idle_time", "idle time per rank", "time in receives and waits (Pipit's idle time) and in wait states",
    "rank", {{"rank", "", 1}, {"idle_s", "s", 0}, {"wait_states_s", "s", 0}}};

static const pw_table_decl load_imbalance = {
    "load_imbalance", "load imbalance per function",
    "the largest rank's time in a function over the mean of the ranks calling it", "function",
    {{"function", "", 1}, {"max_s", "s", 0}, {"mean_s", "s", 0}, {"imbalance", "\xc3\x97", 0}, {"max_rank", "", 0}}};

static const pw_table_decl time_profile = {
    "time_profile", "time profile", "seconds spent in each MPI function per time bin (Pipit's time_profile)",
    "bin",
    {{"bin", "", 1}, {"start_s", "s", 0}, {"idle", "s", 0}, {"*", "s", 0}}};

static const pw_table_decl comm_over_time = {
    "comm_over_time", "communication over time", "point-to-point messages and bytes sent per time bin", "bin",
    {{"bin", "", 1}, {"start_s", "s", 0}, {"messages", "count", 0}, {"bytes", "B", 0}}};

const pw_table_decl *const pw_mpi_waits_table_decls[] = {
    &pw_mpi_waits_summary_table, &wait_states,   &wait_states_by_function, &critical_path, &critical_path_ranks, &critical_path_functions,
    &rank_functions, &idle_time,              &load_imbalance, &time_profile,       &comm_over_time,
    NULL};
