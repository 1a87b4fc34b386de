/* json_file.h — loading a JSON document (metadata files) through jansson,
 * with errors that name the file and byte offset. */
#ifndef PW_CORE_JSON_FILE_H
#define PW_CORE_JSON_FILE_H
#include <jansson.h>

#include "perfweave.h"

/* Parses `path` whole.  Metadata files are small; anything over max_bytes is
 * refused as damage rather than read.  On success *out holds a new reference. */
pw_status pw_json_load_file(const char *path, size_t max_bytes, json_t **out, pw_error *err);

/* Parses the bytes buf[0..n), naming `path` in errors. */
pw_status pw_json_load_bytes(const char *path, const char *buf, size_t n, json_t **out,
                             pw_error *err);

/* Follows a dotted path of object keys ("ovni.lib.version"); NULL when any
 * part is missing or not an object. */
json_t *pw_json_path(json_t *root, const char *dotted);
#endif
