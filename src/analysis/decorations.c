/* decorations.c — pw_timeline_run_decorated: a timeline with what the
 * registered analyses draw on it (analysis.h, `decorate`): the writer's
 * sink last, before it the first decoration's, then the next one's. */
#include "analysis/analysis.h"

/* Where a drawing is: the next analysis of the registry to ask. */
typedef struct drawing {
    pw_dataset *ds;
    pw_convert_report *rep;
    size_t next;
} drawing;

/* The rest of the drawing into sink: the next decoration that offers,
 * else the timeline itself. */
static pw_status draw_rest(void *ctx, const pw_tl_sink *sink, pw_error *err)
{
    drawing *d = ctx;
    while (d->next < pw_n_analyses) {
        const pw_tl_decoration *dec = pw_analyses[d->next++]->decorate;
        if (dec && dec->offers(d->ds))
            return dec->draw(d->ds, sink, draw_rest, d, err);
    }
    return pw_timeline_run(d->ds, sink, d->rep, err);
}

pw_status pw_timeline_run_decorated(pw_dataset *ds, const pw_tl_sink *sink, pw_convert_report *rep,
                                    pw_error *err)
{
    drawing d = {ds, rep, 0};
    return draw_rest(&d, sink, err);
}
