/* states_file.h — the frame every states writer of one file shares
 * (states_file.c): create the file, start the producer with the writer's
 * change function, let the writer write its head, replay, let it write
 * its tail, then flush, close and count. */
#ifndef PW_SINKS_CONVERT_STATES_FILE_H
#define PW_SINKS_CONVERT_STATES_FILE_H
#include "views/states.h"
#include "core/outbuf.h"
#include "model/account.h"

typedef struct pw_states_file {
    pw_outbuf *out;               /* the writer's buffer, opened on the file here */
    pw_state_change_fn change;    /* every change, with change_ctx */
    void *change_ctx;
    /* After start (rows and channels known) and after play; ctx is the
     * writer's.  end returns 0, or -1 when memory ran out. */
    void (*begin)(void *ctx, const pw_states *st);
    int (*end)(void *ctx, const pw_states *st);
    void *ctx;
    int count_bytes;              /* the file's size goes to rep->bytes_out */
} pw_states_file;

pw_status pw_states_write_file(pw_dataset *ds, const pw_states_source *src, const char *path,
                               const pw_states_file *how, pw_convert_report *rep, pw_error *err);
#endif
