/* path_name.h — what a file's name says: its last component (a location
 * named after its file, a file named in a label) and its suffix (the kind
 * of file a name promises). */
#ifndef PW_CORE_PATH_NAME_H
#define PW_CORE_PATH_NAME_H

/* The part of path after its last '/' (all of it when it has none). */
const char *pw_base_name(const char *path);
/* Whether s ends with suffix (s itself may be all of it). */
int pw_ends_with(const char *s, const char *suffix);
#endif
