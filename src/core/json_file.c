/* json_file.c — jansson glue. */
#include "core/json_file.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/input.h"

pw_status pw_json_load_bytes(const char *path, const char *buf, size_t n, json_t **out,
                             pw_error *err)
{
    json_error_t je;
    json_t *j = json_loadb(buf, n, JSON_REJECT_DUPLICATES, &je);
    if (!j)
        return pw_fail(err, PW_E_DATA, path, (int64_t)je.position,
                       "invalid JSON (line %d, column %d): %s", je.line, je.column, je.text);
    *out = j;
    return PW_OK;
}

pw_status pw_json_load_file(const char *path, size_t max_bytes, json_t **out, pw_error *err)
{
    char *buf = NULL;
    size_t n = 0;
    pw_status s = pw_input_read_all(path, max_bytes, &buf, &n, err);
    if (s != PW_OK)
        return s;
    if (n == 0)
        s = pw_fail(err, PW_E_DATA, path, 0, "empty file: a JSON object expected");
    else
        s = pw_json_load_bytes(path, buf, n, out, err);
    free(buf);
    return s;
}

json_t *pw_json_path(json_t *root, const char *dotted)
{
    json_t *cur = root;
    const char *p = dotted;
    while (cur && *p) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        if (!json_is_object(cur))
            return NULL;
        cur = json_object_getn(cur, p, n);
        p += n + (dot ? 1 : 0);
    }
    return cur;
}
