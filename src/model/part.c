/* part.c — the end of a part writer: its words handed over whole, or
 * freed with the error that stopped it (part.h). */
#include "model/part.h"

pw_status pw_part_finish(pw_part_writer *w, pw_status s, const char *path, void **part, size_t *size,
                         pw_error *err)
{
    if (s == PW_OK && w->nomem)
        s = pw_fail(err, PW_E_NOMEM, path, PW_NO_OFFSET, "out of memory");
    *part = s == PW_OK ? w->words : NULL;
    *size = s == PW_OK ? w->n * sizeof *w->words : 0;
    if (s != PW_OK)
        free(w->words);
    *w = (pw_part_writer){0};
    return s;
}
