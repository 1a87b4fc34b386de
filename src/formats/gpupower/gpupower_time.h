/* gpupower_time.h — the timestamps of gpupower files as nanoseconds since
 * the Unix epoch.  The tool writes Python's str(datetime.now()): local
 * time, a space, microseconds omitted when zero, no zone (gpupower-facts.md
 * §3.4); other writers use ISO 8601 with 'T' and a zone.  Both are read;
 * a time without zone is in the zone the user chose (--tz), by default the
 * machine's local time. */
#ifndef PW_GPUPOWER_TIME_H
#define PW_GPUPOWER_TIME_H
#include <stddef.h>
#include <stdint.h>

/* The zone of times that carry none. */
typedef struct gp_tz {
    int local;          /* the machine's local time (with its DST rules) */
    int64_t offset_s;   /* else: a fixed offset east of UTC */
} gp_tz;

/* Parses "local", "UTC", "Z", "+HH:MM", "-HHMM" or "+HH".  0 or -1. */
int gp_tz_parse(const char *text, gp_tz *out);

/* What the previous row's time already worked out: its date (rows of a
 * file share it) and the local offset of its hour, so that the calendar
 * and mktime run once per day and hour rather than once per row.
 * Zero-initialise; one per reader. */
typedef struct gp_time_cache {
    int64_t hour;      /* naive hours since the epoch + 1 (0: empty) */
    int64_t offset_s;
    char date[10];     /* "YYYY-MM-DD" of `days` (date[0] == 0: empty) */
    int64_t days;
} gp_time_cache;

/* Parses a whole cell "YYYY-MM-DD[ T]HH:MM:SS[.f{1,9}][Z|+HH:MM|+HHMM|+HH]"
 * into ns since the epoch.  0, or -1 when the text is not such a time. */
int gp_parse_time(const char *p, size_t n, const gp_tz *tz, gp_time_cache *cache, int64_t *ns);
#endif
