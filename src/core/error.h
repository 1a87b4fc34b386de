/* error.h — filling pw_error: every message names file, offset, expectation. */
#ifndef PW_CORE_ERROR_H
#define PW_CORE_ERROR_H
#include "perfweave.h"

#if defined(__GNUC__)
#define PW_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PW_PRINTF(a, b)
#endif

/* Sets err (when not NULL) and returns `status`, so callers can write
 * `return pw_fail(err, PW_E_DATA, file, off, "...")`.  offset < 0 means the
 * message is about no particular byte. */
pw_status pw_fail(pw_error *err, pw_status status, const char *file, int64_t offset,
                  const char *fmt, ...) PW_PRINTF(5, 6);

/* Like pw_fail, with errno's text appended ("...: No such file or directory"). */
pw_status pw_fail_errno(pw_error *err, const char *file, const char *what);

/* Clears err to PW_OK. */
void pw_error_clear(pw_error *err);

#define PW_NO_OFFSET ((int64_t)-1)
#endif
