/* output.h — the one output discipline (output.c): every output is
 * written under a temporary name beside its final name and renamed there
 * only when complete; streams (stdout, FIFOs, devices) are written in
 * place and never removed. */
#ifndef PW_SINKS_OUTPUT_H
#define PW_SINKS_OUTPUT_H
#include "perfweave.h"

struct pw_output {
    char final[4096];  /* the name asked for, without trailing '/' */
    char dir[4096];    /* its directory */
    char tmpdir[4096]; /* the temporary directory beside it; "" for a stream */
    char work[8192];   /* where the writer writes: tmpdir/<name>, or the stream */
    FILE *f;           /* pw_output_open: the stream written to */
    int slot;          /* its entry in the table of temporaries, or -1 */
    unsigned flags;
};

/* Prepares an output at `path` for a writer whose sink has `caps`
 * (PW_SINK_STREAMS: it may write to "-", a FIFO or a device): refuses an
 * existing output without PW_OUTPUT_FORCE and a stream the sink cannot
 * write; else creates the temporary directory.  *o is freed by
 * pw_output_commit or pw_output_discard. */
pw_status pw_output_begin(const char *path, unsigned flags, unsigned caps, pw_output **o, pw_error *err);
/* Moves what the writer made in the temporary directory to the final
 * names (an existing output replaced whole) and frees o.  Errors about
 * the temporary name are given the final name (pw_output_rename_in). */
pw_status pw_output_finish(pw_output *o, pw_error *err);
/* Rewrites a message about the temporary path to name the final one. */
void pw_output_rename_in(const pw_output *o, pw_error *err);
#endif
