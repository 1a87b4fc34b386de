/* gzfile.h — a stdio stream that writes gzip (for .json.gz outputs), so
 * writers built on pw_outbuf/FILE* compress with no code of their own. */
#ifndef PW_SINKS_CHROME_GZFILE_H
#define PW_SINKS_CHROME_GZFILE_H
#include <stdio.h>

/* A FILE* open for writing a gzip file at path; NULL with errno set (ENOSYS
 * when this build has no zlib).  fclose() finishes the gzip stream. */
FILE *pw_gzfile_create(const char *path);
#endif
