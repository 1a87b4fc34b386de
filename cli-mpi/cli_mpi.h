/* cli_mpi.h — what the commands of perfweave-mpi share: the world of
 * processes, and the diagnostics every process found, joined on rank 0. */
#ifndef PW_CLI_MPI_H
#define PW_CLI_MPI_H
#include <mpi.h>

#include "cli.h"

typedef struct mpi_world {
    int rank, size;
} mpi_world;

/* What opening found (every process finds the same). */
typedef struct mpi_opened {
    size_t diags;
    uint64_t dropped;
} mpi_opened;

/* The diagnostics of all processes, printed by rank 0 as perfweave prints
 * its own (rank order: rank 0's, then each other rank's findings beyond
 * those of opening, which every process makes alike).  Every process
 * calls it; returns on every rank the exit code they imply (1 when any
 * error-level finding exists), and sets *errors / *warnings (rank 0) to
 * the counts of the findings printed. */
int mpi_report_diags(const mpi_world *w, const pw_dataset *ds, const mpi_opened *opened, size_t *errors,
                     size_t *warnings);

/* This process's rank in MPI_COMM_WORLD (set by main). */
extern int mpi_rank;

/* Bytes this process sent to others (parts, findings), for the traffic
 * line main prints to stderr when PERFWEAVE_MPI_TRAFFIC is set. */
extern unsigned long long mpi_bytes_sent;
/* CPU seconds (all threads) this process spent on its own share of the
 * work, without waiting for the others: mpi_work_begin() ... mpi_work_end(). */
extern double mpi_work_cpu_s;
/* Of it, the CPU seconds spent in the analyses' exchanges (collectives.c:
 * alltoallv, mpi_gather, scatterv), mostly waiting for the other processes. */
extern double mpi_exchange_cpu_s;
void mpi_work_begin(void);
void mpi_work_end(void);
/* A collective inside the work: its waiting (MPI polls, burning CPU) is
 * not the process's work.  Returns whether work was being counted. */
int mpi_work_pause(void);
void mpi_work_resume(int was);

/* Every process's send_bytes at send, joined in rank order into a new
 * *recv on rank 0 (to_all: on every process), with a new *each of the
 * processes' sizes (NULL where nothing is received).  Returns on every
 * process whether all could take part (memory, counts beyond MPI's int);
 * when not, *recv and *each are NULL.  Its time is the exchanges'. */
int mpi_gather(const mpi_world *w, int to_all, const void *send, size_t send_bytes, void **recv, size_t **each);

/* The library's collectives (pw_dataset_set_collectives) over MPI, with
 * what they send counted in mpi_bytes_sent; w must outlive their use. */
pw_collectives mpi_collectives(const mpi_world *w);

/* How mpi_open_with opens: the dataset, or NULL with *code set; *opened
 * set when this process's own open went well (its words are then those
 * rank 0 prints).  Every process calls it (it may hold collectives). */
typedef pw_dataset *(*mpi_opener)(const mpi_world *w, cli_args *a, int *code, int *opened);
pw_dataset *mpi_open_with(const mpi_world *w, cli_args *a, int *code, mpi_opener open);
/* The dataset opened by every process in two steps (open_share.c): each
 * reads in full only its share's files, then the processes hand each
 * other what the rest of the open needs (pw_open_share); counted as work,
 * rank 0 alone says what opening found.  NULL on every process, with
 * *code the largest exit code, when one could not open it.  check, stats
 * and the convert targets written by several processes open so. */
pw_dataset *mpi_open_share(const mpi_world *w, cli_args *a, int *code);
/* Bytes of record streams this process's open read in full (for the
 * traffic line), set by mpi_open_share. */
extern unsigned long long mpi_open_bytes;

/* The largest of every process's code, on every process. */
int mpi_max_code(int code);

int mpi_check_run(const mpi_world *w, cli_args *a);
int mpi_stats_run(const mpi_world *w, cli_args *a);
/* Perfetto in shards joined by rank 0; other targets on rank 0 alone. */
int mpi_convert_run(const mpi_world *w, cli_args *a);
#endif
