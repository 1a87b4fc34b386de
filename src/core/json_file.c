/* json_file.c — jansson glue. */
#include "core/json_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

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
    FILE *f = fopen(path, "rb");
    if (!f)
        return pw_fail_errno(err, path, "cannot open");
    char *buf = malloc(max_bytes + 1);
    if (!buf) {
        fclose(f);
        return pw_fail(err, PW_E_NOMEM, path, PW_NO_OFFSET, "no memory to read JSON");
    }
    size_t n = fread(buf, 1, max_bytes + 1, f);
    int bad = ferror(f);
    fclose(f);
    pw_status s;
    if (bad)
        s = pw_fail(err, PW_E_IO, path, PW_NO_OFFSET, "read failed");
    else if (n > max_bytes)
        s = pw_fail(err, PW_E_DATA, path, (int64_t)max_bytes,
                    "JSON metadata larger than %zu bytes", max_bytes);
    else if (n == 0)
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
