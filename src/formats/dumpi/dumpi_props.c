/* dumpi_props.c — one rank's header, footer, perf labels, datatype sizes,
 * keyval and function-address records as properties "rank<N>:<key>", so
 * that `info --locations` shows everything a `.bin` holds besides calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/dumpi/dumpi.h"

/* "name calls ignored" for every footer entry that is not zero. */
static char *footer_text(const dumpi_rank *r)
{
    size_t cap = 64, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    out[0] = '\0';
    for (int l = 0; l < DUMPI_FOOTER_ENTRIES; l++) {
        if (!r->calls[l] && !r->ignored[l])
            continue;
        const char *name = l == DUMPI_ALL_FUNCTIONS ? "MPI_ALL_FUNCTIONS" : dumpi_functions[l].name;
        size_t need = len + strlen(name) + 32;
        if (need > cap) {
            char *grown = realloc(out, cap = need * 2);
            if (!grown) {
                free(out);
                return NULL;
            }
            out = grown;
        }
        len += (size_t)sprintf(out + len, "%s%s %u %u", len ? "; " : "", name, r->calls[l], r->ignored[l]);
    }
    return out;
}

/* Datatype sizes, space-separated. */
static char *sizes_text(const dumpi_rank *r)
{
    char *out = malloc((size_t)r->n_sizes * 11 + 1);
    if (!out)
        return NULL;
    size_t len = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < r->n_sizes; i++)
        len += (size_t)sprintf(out + len, "%s%u", i ? " " : "", r->sizes[i]);
    return out;
}

/* Perf-counter labels joined by ", ". */
static char *perf_text(const dumpi_rank *r)
{
    size_t cap = 1;
    for (uint32_t i = 0; i < r->n_perf; i++)
        cap += strlen(r->perf_fields[i].name) + 2;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    out[0] = '\0';
    for (uint32_t i = 0; i < r->n_perf; i++) {
        if (i)
            strcat(out, ", ");
        strcat(out, r->perf_fields[i].name);
    }
    return out;
}

/* A property whose text was built here (NULL: memory ran out). */
static pw_status set_built(pw_dataset *ds, const char *key, const char *value, pw_error *err)
{
    if (!value)
        return pw_fail(err, PW_E_NOMEM, ds->path, PW_NO_OFFSET, "out of memory");
    return pw_ds_set_prop(ds, key, value, err);
}

pw_status dumpi_rankfile_props(pw_dataset *ds, const dumpi_rank *r, pw_error *err)
{
    char key[96];
    const char *loc = ds->locs[r->loc].path;
    pw_status st = PW_OK;
#define PROPF(k, ...)                                                                        \
    do {                                                                                     \
        snprintf(key, sizeof key, "%s:%s", loc, k);                                          \
        if (st == PW_OK)                                                                     \
            st = pw_ds_set_propf(ds, err, key, __VA_ARGS__);                                 \
    } while (0)
    PROPF("records", "%llu", (unsigned long long)r->records);
    PROPF("threads", "%zu", r->n_threads + 1);
    if (r->has_header) {
        PROPF("version", "%d.%d.%d", r->version[0], r->version[1], r->version[2]);
        PROPF("starttime", "%llu", (unsigned long long)r->starttime);
        PROPF("hostname", "%s", r->hostname);
        PROPF("username", "%s", r->username);
        PROPF("meshdim", "%u", r->meshdim);
        PROPF("meshcrd", "%s", r->mesh_crd);
        PROPF("meshsize", "%s", r->mesh_size);
    }
    if (r->usable) {
        PROPF("cpu_bias", "%u", r->cpu_bias);
        PROPF("wall_bias", "%u", r->wall_bias);
    }
    PROPF("keyvals", "%u", r->n_keyvals);
    PROPF("perf_count", "%u", r->n_perf);
    PROPF("datatype_count", "%u", r->n_sizes);
    PROPF("function_address_count", "%u", r->n_addrs);
#undef PROPF
    char *text[4] = {r->has_footer ? footer_text(r) : NULL, perf_text(r), sizes_text(r),
                     r->addrs ? strdup(r->addrs) : strdup("")};
    const char *names[4] = {"footer", "perf_labels", "datatype_sizes", "function_addresses"};
    for (int i = 0; i < 4; i++) {
        snprintf(key, sizeof key, "%s:%s", loc, names[i]);
        if (st == PW_OK && (i || r->has_footer))
            st = set_built(ds, key, text[i], err);
        free(text[i]);
    }
    return st;
}
