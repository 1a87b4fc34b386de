/* html_watch.h — what the report's driver (src/drivers/report_page.c)
 * needs of a page's watch (pw_html_watch, html_power.c) beyond the public
 * begin and free: the states watcher still to be fed when the stats pass
 * did not replay the states into it. */
#ifndef PW_SINKS_HTML_WATCH_H
#define PW_SINKS_HTML_WATCH_H
#include "perfweave.h"
#include "views/states.h"

typedef struct html_strips html_strips;
/* The watcher of the strips when no replay has fed them yet, else NULL. */
const pw_states_watch *html_strips_unfed(html_strips *s);
/* The same for the strips of w (NULL: no states to draw). */
const pw_states_watch *html_watch_unfed_states(const pw_html_watch *w);
#endif
