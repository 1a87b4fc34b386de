/* batch_columns.h — the field columns of a pw_batch: one per distinct
 * field name over the dataset's schemas, filled record by record. */
#ifndef PW_BATCH_COLUMNS_H
#define PW_BATCH_COLUMNS_H
#include "core/outbuf.h"
#include "perfweave.h"

typedef struct pw_batch_columns {
    pw_dataset *ds;
    size_t capacity;      /* rows per column */
    /* Per schema (the first n_mapped), per field: its column. */
    uint32_t **column_of;
    size_t n_mapped, mapped_cap;
    /* Per column: its name (the schema's field name, owned by the dataset),
     * its arrays (allocated when first written) and whether this batch
     * wrote it. */
    const char **name;
    uint8_t **kind;
    uint64_t **cell;
    uint8_t *used;
    size_t n, cap;
    pw_outbuf text;       /* texts of the batch, '\n' after each */
} pw_batch_columns;

pw_status pw_batch_columns_init(pw_batch_columns *bc, pw_dataset *ds, size_t capacity,
                                pw_error *err);
/* Empties the columns a batch of `rows` records wrote, for the next batch. */
void pw_batch_columns_clear(pw_batch_columns *bc, size_t rows);
/* Writes the fields of record rec at row r; 0 when out of memory. */
int pw_batch_columns_add(pw_batch_columns *bc, size_t r, const pw_record *rec);
/* Points b's column members at the columns. */
void pw_batch_columns_publish(const pw_batch_columns *bc, pw_batch *b);
void pw_batch_columns_free(pw_batch_columns *bc);
#endif
