/* dump_pipe.h — the dump of a merge on two threads (see dump_pipe.c). */
#ifndef PW_DRIVERS_DUMP_PIPE_H
#define PW_DRIVERS_DUMP_PIPE_H
#include "sinks/dump/dump.h"

/* Writes every record of ds in merge order through d, decoding on this
 * thread and formatting on another; the same bytes as the serial dump. */
pw_status pw_dump_pipelined(pw_dataset *ds, pw_dump *d, pw_error *err);
#endif
