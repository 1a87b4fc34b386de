/* gpupower_time.c — ISO-like timestamps to nanoseconds, without libc's
 * per-call parsing: fixed positions, range checks, days from the civil
 * date in closed form. */
#include "formats/gpupower/gpupower_time.h"

#include <string.h>
#include <time.h>

/* n digits at p as a number, or -1 when one is not a digit. */
static int digits(const char *p, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        unsigned d = (unsigned)(p[i] - '0');
        if (d > 9)
            return -1;
        v = v * 10 + (int)d;
    }
    return v;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int days_in_month(int y, int m)
{
    static const int dm[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return dm[m - 1] + (m == 2 && leap);
}

/* "+HH:MM", "+HHMM", "+HH" (sign included) as seconds east of UTC. */
static int parse_offset(const char *p, size_t n, int64_t *out)
{
    if (n < 3 || (p[0] != '+' && p[0] != '-'))
        return -1;
    int hh = digits(p + 1, 2), mm = 0;
    if (n == 6 && p[3] == ':')
        mm = digits(p + 4, 2);
    else if (n == 5)
        mm = digits(p + 3, 2);
    else if (n != 3)
        return -1;
    if (hh < 0 || hh > 23 || mm < 0 || mm > 59)
        return -1;
    *out = (p[0] == '-' ? -1 : 1) * (int64_t)(hh * 3600 + mm * 60);
    return 0;
}

int gp_tz_parse(const char *text, gp_tz *out)
{
    memset(out, 0, sizeof *out);
    if (!strcmp(text, "local")) {
        out->local = 1;
        return 0;
    }
    if (!strcmp(text, "UTC") || !strcmp(text, "Z"))
        return 0;
    return parse_offset(text, strlen(text), &out->offset_s);
}

/* The local zone's offset at a naive local time, from mktime (which knows
 * the DST rules), cached per hour. */
static int64_t local_offset(int64_t naive_s, gp_time_cache *cache)
{
    int64_t hour = naive_s / 3600 + 1;
    if (cache->hour == hour)
        return cache->offset_s;
    int64_t days = naive_s / 86400, rem = naive_s % 86400;
    if (rem < 0) {
        rem += 86400;
        days--;
    }
    /* Back from days to a civil date for struct tm (inverse of the above). */
    int64_t z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    int d = (int)(doy - (153 * mp + 2) / 5 + 1), m = (int)(mp < 10 ? mp + 3 : mp - 9);
    int64_t y = yoe + era * 400 + (m <= 2);
    struct tm tm = {.tm_year = (int)(y - 1900), .tm_mon = m - 1, .tm_mday = d,
                    .tm_hour = (int)(rem / 3600), .tm_min = (int)(rem % 3600 / 60),
                    .tm_sec = (int)(rem % 60), .tm_isdst = -1};
    time_t t = mktime(&tm);
    int64_t off = t == (time_t)-1 ? 0 : naive_s - (int64_t)t;
    cache->hour = hour;
    cache->offset_s = off;
    return off;
}

/* Days since the epoch of "YYYY-MM-DD" at p, or -1 when it is no date. */
static int64_t date_days(const char *p)
{
    int y = digits(p, 4), mo = digits(p + 5, 2), d = digits(p + 8, 2);
    /* Years outside 1900-2200 would not fit int64 nanoseconds safely. */
    if (p[4] != '-' || p[7] != '-' || y < 1900 || y > 2200 || mo < 1 || mo > 12 || d < 1 ||
        d > days_in_month(y, mo))
        return -1;
    return days_from_civil(y, mo, d);
}

int gp_parse_time(const char *p, size_t n, const gp_tz *tz, gp_time_cache *cache, int64_t *ns)
{
    if (n < 19 || (p[10] != ' ' && p[10] != 'T') || p[13] != ':' || p[16] != ':')
        return -1;
    int64_t days;
    if (cache->date[0] && !memcmp(cache->date, p, 10)) {
        days = cache->days;
    } else {
        if ((days = date_days(p)) < 0)
            return -1;
        memcpy(cache->date, p, 10);
        cache->days = days;
    }
    int h = digits(p + 11, 2), mi = digits(p + 14, 2), s = digits(p + 17, 2);
    if (h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59)
        return -1;
    size_t i = 19;
    int64_t frac = 0;
    if (i < n && p[i] == '.') {
        size_t start = ++i;
        for (; i < n && (unsigned)(p[i] - '0') < 10 && i - start < 9; i++)
            frac = frac * 10 + (p[i] - '0');
        if (i == start || (i < n && (unsigned)(p[i] - '0') < 10))
            return -1;
        for (size_t k = i - start; k < 9; k++)
            frac *= 10;
    }
    int64_t naive = days * 86400 + h * 3600 + mi * 60 + s, off;
    if (i == n)
        off = tz->local ? local_offset(naive, cache) : tz->offset_s;
    else if (n - i == 1 && p[i] == 'Z')
        off = 0;
    else if (parse_offset(p + i, n - i, &off) != 0)
        return -1;
    *ns = (naive - off) * 1000000000 + frac;
    return 0;
}
