/* error.c — status names and error formatting. */
#include "core/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *pw_status_name(pw_status s)
{
    switch (s) {
    case PW_OK: return "ok";
    case PW_END: return "end";
    case PW_E_DATA: return "data";
    case PW_E_FORMAT: return "format";
    case PW_E_USAGE: return "usage";
    case PW_E_IO: return "io";
    case PW_E_NOMEM: return "nomem";
    }
    return "unknown";
}

void pw_error_clear(pw_error *err)
{
    if (!err)
        return;
    err->status = PW_OK;
    err->has_offset = 0;
    err->offset = 0;
    err->file[0] = '\0';
    err->message[0] = '\0';
}

/* Message layout: "<file>: offset <n>: <text>", dropping the parts that do
 * not apply, so every error reads the same way. */
static void error_vset(pw_error *err, pw_status status, const char *file, int64_t offset,
                       const char *fmt, va_list ap) PW_PRINTF(5, 0);
static void error_vset(pw_error *err, pw_status status, const char *file, int64_t offset,
                       const char *fmt, va_list ap)
{
    err->status = status;
    err->has_offset = offset >= 0;
    err->offset = offset >= 0 ? (uint64_t)offset : 0;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    size_t n = 0;
    if (file && *file)
        n += (size_t)snprintf(err->message, sizeof err->message, "%s: ", file);
    if (offset >= 0 && n < sizeof err->message)
        n += (size_t)snprintf(err->message + n, sizeof err->message - n, "offset %lld: ",
                              (long long)offset);
    if (n < sizeof err->message)
        vsnprintf(err->message + n, sizeof err->message - n, fmt, ap);
}

pw_status pw_fail(pw_error *err, pw_status status, const char *file, int64_t offset,
                  const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        error_vset(err, status, file, offset, fmt, ap);
        va_end(ap);
    }
    return status;
}

pw_status pw_fail_errno(pw_error *err, const char *file, const char *what)
{
    int e = errno;
    pw_status st = e == ENOMEM ? PW_E_NOMEM : PW_E_IO;
    return pw_fail(err, st, file, PW_NO_OFFSET, "%s: %s", what, strerror(e));
}
