/* stats_in_memory.c — the stats of one dataset kept whole in memory, for
 * the commands that read every row after the run (diff matches them, the
 * report page draws them). */
#include "cli.h"

int cli_stats_in_memory(cli_args *a, const char *path, pw_dataset **ds, pw_report **r, pw_html_watch **watch)
{
    int code = EXIT_OK;
    const char *first = a->path;
    a->path = path;
    *ds = cli_open(a, &code);
    a->path = first;
    *r = NULL;
    if (watch)
        *watch = NULL;
    if (!*ds)
        return code;
    pw_error err;
    *r = pw_report_new();
    if (!*r)
        return EXIT_SYSTEM;
    cli_progress *prog = cli_progress_start(a, *ds, "reading");
    /* a page watches the run as it goes (src/drivers/report_page.c) */
    pw_status s = watch ? pw_report_page_stats(*ds, *r, watch, &err) : pw_stats(*ds, *r, &err);
    cli_progress_stop(prog);
    return s == PW_OK ? EXIT_OK : cli_fail(&err);
}
