/* table_names.c — unique table names for the tabular writers. */
#include <stdlib.h>
#include <strings.h>

#include "sinks/convert/table_columns.h"

const char **pw_table_names(pw_dataset *ds)
{
    const char **table = calloc(ds->n_schemas ? ds->n_schemas : 1, sizeof *table);
    for (size_t i = 0; table && i < ds->n_schemas; i++) {
        const char *name = ds->schemas[i]->name;
        table[i] = name;
        for (size_t j = 0; j < i; j++) {
            if (strcasecmp(table[j], name))
                continue;
            char buf[512];
            snprintf(buf, sizeof buf, "%s_%zu", name, i);
            table[i] = pw_ds_strdup(ds, buf);
            if (!table[i]) {
                free(table);
                return NULL;
            }
            break;
        }
    }
    return table;
}
