/* plot.c — pw_plot_begin / pw_plot_finish: the driver of PLOT sinks.  The
 * charts directory is one output under the discipline (output.c): made
 * under a temporary name, drawn into by the first PLOT sink that has
 * something to draw of the dataset while pw_stats runs, renamed into place
 * when complete, removed after an error. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "sinks/output.h"
#include "sinks/sink.h"

struct pw_plot {
    pw_output *out;
    const pw_sink_plot *sink;
    void *state;
};

/* The first PLOT sink that draws something of ds, started in dir. */
static pw_status start_sink(pw_dataset *ds, pw_plot *p, pw_error *err)
{
    pw_status s = PW_OK;
    for (size_t i = 0; s == PW_OK && !p->state && i < pw_n_sinks; i++)
        if (pw_sinks[i]->plot && (s = pw_sinks[i]->plot->begin(ds, p->out->work, &p->state, err)) == PW_OK)
            p->sink = pw_sinks[i]->plot;
    return s;
}

pw_status pw_plot_begin(pw_dataset *ds, const char *dir, unsigned flags, pw_plot **out, pw_error *err)
{
    *out = NULL;
    pw_plot *p = calloc(1, sizeof *p);
    if (!p)
        return pw_fail(err, PW_E_NOMEM, dir, PW_NO_OFFSET, "out of memory");
    pw_status s = pw_output_begin(dir, flags, PW_SINK_DIRECTORY, &p->out, err);
    if (s == PW_OK && mkdir(p->out->work, 0777) != 0)
        s = pw_fail_errno(err, p->out->final, "cannot create the plot directory");
    if (s == PW_OK)
        s = start_sink(ds, p, err);
    if (s != PW_OK || !p->state) { /* an error, or nothing to draw: no output */
        if (s != PW_OK && p->out)
            pw_output_rename_in(p->out, err);
        pw_output_discard(p->out);
        free(p);
        return s;
    }
    *out = p;
    return PW_OK;
}

pw_status pw_plot_finish(pw_plot *p, int ok, pw_error *err)
{
    if (!p)
        return PW_OK;
    pw_status s = p->sink->end(p->state, ok, err);
    if (s != PW_OK)
        pw_output_rename_in(p->out, err);
    if (s == PW_OK && ok)
        s = pw_output_finish(p->out, err);
    else
        pw_output_discard(p->out);
    free(p);
    return s;
}
