/* main.c — perfweave-mpi: the perfweave commands run by P processes under
 * mpirun or srun.  check and stats split the locations over the processes
 * (pw_dataset_set_share), each opening in two steps so that it reads only
 * its share in full (open_share.c); convert to OTF2 and Perfetto opens so
 * too and writes each location on one process (mpi_convert.c); the other
 * commands run on rank 0 alone.  Rank 0 prints; what it prints is what
 * perfweave prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_mpi.h"

typedef struct mpi_command {
    const cli_command *cmd;
    int (*run)(const mpi_world *w, cli_args *a); /* NULL: rank 0 runs cmd alone */
} mpi_command;

static const mpi_command commands[] = {{&cli_info, NULL},
                                       {&cli_dump, NULL},
                                       {&cli_stats, mpi_stats_run},
                                       {&cli_check, mpi_check_run},
                                       {&cli_convert, mpi_convert_run}};
#define N_COMMANDS (sizeof commands / sizeof *commands)

static const mpi_command *find_command(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(name, commands[i].cmd->name))
            return &commands[i];
    return NULL;
}

static void print_help(FILE *out)
{
    fprintf(out,
            "perfweave-mpi %s - the perfweave commands over P processes\n\n"
            "usage: mpirun -np P perfweave-mpi COMMAND PATH [options]\n\n"
            "check and stats read a share of the locations on every process;\n"
            "convert to OTF2 or Perfetto writes each location on one process;\n"
            "info, dump and the other convert targets run on rank 0.  Options\n"
            "and output are those of 'perfweave COMMAND --help'; without -j, the\n"
            "processes on one node share its cores.\n",
            PW_VERSION_STRING);
}

/* Without -j, the processes of one node share its cores (each taking all
 * of them would run cores x processes threads). */
static void share_cores(cli_args *a)
{
    if (a->opt.threads > 0)
        return;
    MPI_Comm node;
    int local = 1;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &local);
    MPI_Comm_free(&node);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    a->opt.threads = cores / local > 1 ? (int)(cores / local) : 1;
}

/* Rank 0 decides what runs: -1 to run the command, or an exit code. */
static int rank0_parse(int argc, char **argv, const mpi_command **cmd, cli_args *a)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        print_help(argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    *cmd = find_command(argv[1]);
    if (!*cmd) {
        fprintf(stderr, "perfweave-mpi: unknown command '%s' (see 'perfweave-mpi --help')\n", argv[1]);
        return EXIT_USAGE;
    }
    return cli_parse((*cmd)->cmd, argc - 2, argv + 2, a);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    mpi_world w;
    MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
    mpi_rank = w.rank;
    MPI_Comm_size(MPI_COMM_WORLD, &w.size);
    const mpi_command *cmd = NULL;
    cli_args a;
    int code = w.rank ? -1 : rank0_parse(argc, argv, &cmd, &a);
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (code < 0 && w.rank) { /* rank 0 accepted the same arguments */
        cmd = find_command(argv[1]);
        code = cli_parse(cmd->cmd, argc - 2, argv + 2, &a);
    }
    if (code < 0) {
        share_cores(&a);
        cli_handle_signals();
        if (cmd->run)
            code = cmd->run(&w, &a);
        else if (!w.rank) {
            mpi_work_begin();
            code = cmd->cmd->run(&a);
            mpi_work_end();
        } else {
            code = EXIT_OK;
        }
        MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD); /* every process ends as rank 0 */
    }
    if (getenv("PERFWEAVE_MPI_TRAFFIC")) /* for bench/mpi: what crossed, besides the small collectives */
        fprintf(stderr,
                "perfweave-mpi: rank %d of %d sent %llu bytes, worked %.3f cpu s, and %.3f more in exchanges; "
                "its open read %llu bytes of records\n",
                w.rank, w.size, mpi_bytes_sent, mpi_work_cpu_s, mpi_exchange_cpu_s, mpi_open_bytes);
    code = cli_close_stdout(code);
    MPI_Finalize();
    return code;
}
