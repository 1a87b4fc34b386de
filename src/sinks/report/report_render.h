/* report_render.h — the renderers of report trees that the report sinks
 * (report_*_sink.c) adapt to the sink contract. */
#ifndef PW_SINKS_REPORT_RENDER_H
#define PW_SINKS_REPORT_RENDER_H
#include "model/report.h"

/* report_json.c: the JSON rendering, whole or member by member. */
void report_json_members(pw_report *r);
pw_status report_json_finish(pw_report *r);
pw_status report_json_whole(const json_t *root, FILE *out);
int report_json_stream_start(pw_report *r, const char *key);
void report_json_row(pw_report *r, report_stream *st, json_t *row);
void report_json_stream_end(pw_report *r, report_stream *st);

/* report_text.c and report_csv.c: whole reports, streamed arrays read
 * back from their spools. */
pw_status pw_report_write_text(const pw_report *r, FILE *out);
pw_status pw_report_write_csv(const pw_report *r, FILE *out);
#endif
