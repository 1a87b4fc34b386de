/* otf2_errors.c — libotf2 prints its errors to stderr unless a callback
 * takes them; the library must not print, so the callback keeps the last
 * message of each thread, and a failure names the file, libotf2's error
 * and that message. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "formats/otf2/otf2.h"

static _Thread_local char last_message[256];

static OTF2_ErrorCode keep_message(void *user, const char *file, uint64_t line, const char *function,
                                   OTF2_ErrorCode code, const char *fmt, va_list va) PW_PRINTF(6, 0);
static OTF2_ErrorCode keep_message(void *user, const char *file, uint64_t line, const char *function,
                                   OTF2_ErrorCode code, const char *fmt, va_list va)
{
    (void)user, (void)file, (void)line, (void)function;
    if (fmt)
        vsnprintf(last_message, sizeof last_message, fmt, va);
    return code;
}

static pthread_once_t quiet_once = PTHREAD_ONCE_INIT;

static void register_quiet(void) { OTF2_Error_RegisterCallback(keep_message, NULL); }

void ot_errors_quiet(void) { pthread_once(&quiet_once, register_quiet); }

pw_status ot_fail(pw_error *err, pw_status st, const char *file, OTF2_ErrorCode code, const char *what)
{
    const char *name = OTF2_Error_GetName(code);
    pw_status s = pw_fail(err, st, file, PW_NO_OFFSET, "%s: libotf2 says %s%s%s", what, name ? name : "an error",
                          last_message[0] ? ": " : "", last_message);
    last_message[0] = '\0';
    return s;
}

OTF2_Reader *ot_reader_open(const char *anchor, pw_error *err)
{
    ot_errors_quiet();
    last_message[0] = '\0';
    OTF2_Reader *rd = OTF2_Reader_Open(anchor);
    if (!rd) {
        ot_fail(err, PW_E_DATA, anchor, OTF2_ERROR_INVALID, "an OTF2 anchor file expected");
        return NULL;
    }
    OTF2_ErrorCode rc = OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    if (rc != OTF2_SUCCESS) {
        ot_fail(err, PW_E_DATA, anchor, rc, "a serial reader expected");
        OTF2_Reader_Close(rd);
        return NULL;
    }
    return rd;
}
