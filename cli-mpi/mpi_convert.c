/* mpi_convert.c — convert by P processes.  Each process draws only its
 * share where it can (timeline_share.h; else the whole timeline, writing
 * only its share's locations).
 * OTF2 (a PW_SINK_TOGETHER target): every process writes its locations'
 * event files into the archive share 0 prepared, through libotf2's MPI
 * collectives (collectives.c); a share drawn alone numbers its own
 * definitions, unified at the end (otf2_unify.h).  Perfetto: a shard of packets per process,
 * in a temporary file of its own node; rank 0 writes the trace under the
 * output discipline, its shard (which holds every track descriptor) then
 * each other rank's, sent over MPI in rank order (a Perfetto trace is a
 * sequence of packets).  The other targets: rank 0 alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_mpi.h"

#define CHUNK (4u << 20)
enum { TAG_DATA = 1, TAG_END = 2 };

static const char *target_of(const cli_args *a)
{
    return a->to ? a->to : a->output ? pw_convert_target_for_path(a->output) : NULL;
}

static int in_shards(const cli_args *a)
{
    const char *target = target_of(a);
    return a->output && target && !strcmp(target, "perfetto");
}

/* Does the library write this target with all processes together? */
static int written_together(const cli_args *a)
{
    const char *target = target_of(a);
    for (size_t i = 0; a->output && target && i < pw_sink_count(); i++)
        if (pw_sink_kind_of(i) == PW_SINK_CONVERT && !strcmp(pw_sink_name(i), target))
            return (pw_sink_caps(i) & (PW_SINK_TOGETHER | PW_SINK_MISSING)) == PW_SINK_TOGETHER;
    return 0;
}

/* A node-local temporary directory and the shard's name in it. */
static int shard_names(char *dir, size_t n_dir, char *path, size_t n_path)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, n_dir, "%s/perfweave-mpi-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("perfweave-mpi: cannot make a temporary directory for the shard");
        return 0;
    }
    snprintf(path, n_path, "%s/shard.pftrace", dir);
    return 1;
}

/* Rank r > 0: its shard to rank 0 in chunks, then an END holding 0 (all
 * sent) or 1 (the shard could not be read). */
static void send_shard(const char *path, char *buf)
{
    FILE *f = fopen(path, "rb");
    int failed = !f;
    size_t n;
    while (f && (n = fread(buf, 1, CHUNK, f)) > 0) {
        MPI_Send(buf, (int)n, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD);
        mpi_bytes_sent += n;
    }
    failed |= f && ferror(f);
    if (f)
        fclose(f);
    MPI_Send(&failed, 1, MPI_INT, 0, TAG_END, MPI_COMM_WORLD);
}

/* Rank 0: rank r's shard appended to out; 0 when r could not send it all. */
static int receive_shard(int r, FILE *out, char *buf, uint64_t *bytes)
{
    for (;;) {
        MPI_Status st;
        MPI_Probe(r, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == TAG_END) {
            int failed;
            MPI_Recv(&failed, 1, MPI_INT, r, TAG_END, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            return !failed;
        }
        int n;
        MPI_Get_count(&st, MPI_BYTE, &n);
        MPI_Recv(buf, n, MPI_BYTE, r, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        fwrite(buf, 1, (size_t)n, out);
        *bytes += (uint64_t)n;
    }
}

/* Rank 0: its own shard, then every other rank's, into out (-o). */
static int join_shards(const mpi_world *w, const char *path, FILE *out, char *buf, uint64_t *bytes)
{
    FILE *f = fopen(path, "rb");
    int ok = f != NULL;
    size_t n;
    while (f && (n = fread(buf, 1, CHUNK, f)) > 0) {
        fwrite(buf, 1, n, out);
        *bytes += n;
    }
    ok = ok && !ferror(f);
    if (f)
        fclose(f);
    for (int r = 1; r < w->size; r++)
        ok &= receive_shard(r, out, buf, bytes);
    if (!ok)
        fprintf(stderr, "perfweave-mpi: a shard of the trace could not be read back\n");
    return ok ? EXIT_OK : EXIT_SYSTEM;
}

/* This process's shard into path; the conversion's exit code.  A refusal
 * (a dataset the target cannot hold) is every process's alike: rank 0
 * says it, naming the output as the serial command does. */
static int write_shard(const mpi_world *w, pw_dataset *ds, const char *path, const char *output,
                       pw_convert_report *rep)
{
    pw_error err;
    pw_status s = pw_dataset_set_share(ds, (unsigned)w->rank, (unsigned)w->size, &err);
    if (s == PW_OK)
        s = pw_convert_output(ds, path, "perfetto", PW_OUTPUT_FORCE, rep, &err);
    if (s != PW_E_USAGE || strncmp(err.message, path, strlen(path)))
        return s == PW_OK ? EXIT_OK : cli_fail(&err);
    if (w->rank)
        return EXIT_USAGE;
    fprintf(stderr, "perfweave: error: %s%s\n", output, err.message + strlen(path));
    return EXIT_USAGE;
}

/* Rank 0 alone: the serial command. */
static int on_rank0(const mpi_world *w, cli_args *a)
{
    int code = EXIT_OK;
    if (!w->rank) {
        mpi_work_begin();
        code = cli_convert.run(a);
        mpi_work_end();
    }
    return code;
}

/* Rank 0 prints what perfweave convert prints after the conversion (the
 * library summed the account over the processes when each drew its share
 * alone).  The findings: when every process read every location, rank
 * 0's are the serial ones; when each drew its share alone, every
 * process's own, joined in rank order (opened: what opening found, which
 * every process found alike). */
static int rank0_account(const mpi_world *w, const cli_args *a, const pw_dataset *ds, pw_convert_report *rep,
                         int code, const mpi_opened *opened)
{
    if (opened && pw_dataset_drew_share_alone(ds)) { /* every process, the same answer */
        size_t errors, warnings;
        int dcode = mpi_report_diags(w, ds, opened, &errors, &warnings);
        if (!w->rank && !code && !a->quiet)
            cli_print_convert_account(rep, a->output);
        if (!w->rank && !code)
            code = cli_convert_loss_code(a, rep);
        return code ? code : dcode;
    }
    if (w->rank)
        return code;
    if (!code && !a->quiet)
        cli_print_convert_account(rep, a->output);
    if (!code)
        code = cli_convert_loss_code(a, rep);
    int dcode = cli_report_diags(ds);
    return code ? code : dcode;
}

/* A target the processes write together into one output. */
static int together(const mpi_world *w, cli_args *a)
{
    int code = EXIT_OK;
    cli_convert_for_timelines(a);
    pw_dataset *ds = mpi_open_share(w, a, &code);
    if (!ds)
        return code;
    mpi_opened opened = {pw_dataset_diag_count(ds), pw_dataset_diag_dropped(ds)};
    pw_collectives c = mpi_collectives(w);
    pw_dataset_set_collectives(ds, &c);
    pw_error err;
    pw_convert_report rep;
    mpi_work_begin();
    pw_status s = pw_dataset_set_share(ds, (unsigned)w->rank, (unsigned)w->size, &err);
    if (s == PW_OK)
        s = pw_convert_output(ds, a->output, a->to, a->force ? PW_OUTPUT_FORCE : 0, &rep, &err);
    mpi_work_end();
    /* a failure of rank 0 (an existing output, say) fails the others too:
     * its message says why, theirs would only repeat it */
    int rank0_failed = s != PW_OK;
    MPI_Bcast(&rank0_failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (s != PW_OK && (!w->rank || !rank0_failed))
        code = cli_fail(&err);
    int rank0_code = code;
    MPI_Bcast(&rank0_code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    code = rank0_failed ? rank0_code : code;
    code = rank0_account(w, a, ds, &rep, code, &opened);
    pw_close(ds);
    return mpi_max_code(code);
}

int mpi_convert_run(const mpi_world *w, cli_args *a)
{
    if (written_together(a))
        return together(w, a);
    if (!in_shards(a))
        return on_rank0(w, a);
    int code = EXIT_OK;
    FILE *out = w->rank ? NULL : cli_output(a, &code); /* refuses an existing OUT before any work */
    if (mpi_max_code(code))
        return mpi_max_code(code);
    cli_convert_for_timelines(a);
    pw_dataset *ds = mpi_open_share(w, a, &code);
    if (!ds) { /* nothing was written: no output, whatever the code */
        pw_output_discard(a->out);
        a->out = NULL;
        return code;
    }
    mpi_opened opened = {pw_dataset_diag_count(ds), pw_dataset_diag_dropped(ds)};
    pw_collectives c = mpi_collectives(w); /* the timeline draws each share alone where it can */
    pw_dataset_set_collectives(ds, &c);
    char dir[4096], path[4200];
    pw_convert_report rep = {0};
    int made = shard_names(dir, sizeof dir, path, sizeof path);
    code = mpi_max_code(made ? EXIT_OK : EXIT_SYSTEM); /* the conversion's collectives need every process */
    mpi_work_begin();
    if (!code)
        code = write_shard(w, ds, path, a->output, &rep);
    mpi_work_end();
    code = mpi_max_code(code);
    char *buf = code ? NULL : malloc(CHUNK);
    code = mpi_max_code(code ? code : buf ? EXIT_OK : EXIT_SYSTEM);
    uint64_t bytes = 0;
    mpi_work_begin();
    if (!code && w->rank)
        send_shard(path, buf);
    else if (!code)
        code = join_shards(w, path, out, buf, &bytes);
    mpi_work_end();
    if (!w->rank) {
        code = cli_close_output(a, code);
        rep.bytes_out = bytes;
    }
    code = rank0_account(w, a, ds, &rep, code, &opened);
    if (made) {
        unlink(path);
        rmdir(dir);
    }
    free(buf);
    pw_close(ds);
    return mpi_max_code(code);
}
