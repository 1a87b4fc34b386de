/* report.h — access to the report tree for its renderers. */
#ifndef PW_MODEL_REPORT_H
#define PW_MODEL_REPORT_H
#include <jansson.h>

#include "perfweave.h"

json_t *pw_report_json(const pw_report *r);
/* Non-zero when an add failed for want of memory since pw_report_new. */
int pw_report_nomem(void);

/* The renderers (src/sinks/report/). */
pw_status pw_report_write_text(json_t *root, FILE *out);
pw_status pw_report_write_csv(json_t *root, FILE *out);
#endif
