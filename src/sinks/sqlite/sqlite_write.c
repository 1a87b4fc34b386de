#include "sinks/convert/convert.h"
pw_status pw_convert_sqlite(pw_dataset *ds, const char *out, pw_convert_report *rep, pw_error *err)
{
    (void)ds; (void)rep;
    return pw_fail(err, PW_E_USAGE, out, PW_NO_OFFSET, "not yet");
}
