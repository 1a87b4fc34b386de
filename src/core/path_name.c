/* path_name.c — the parts of a name (see path_name.h). */
#include "core/path_name.h"

#include <string.h>

const char *pw_base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int pw_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}
