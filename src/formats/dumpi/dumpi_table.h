/* dumpi_table.h — the per-function argument layouts and the named
 * constants of DUMPI, generated at build time from dumpi-functions.tsv and
 * dumpi-constants.tsv (tools/gen_dumpi_tables.c), so that the 290 MPI
 * functions are decoded by one table-driven walker. */
#ifndef PW_DUMPI_TABLE_H
#define PW_DUMPI_TABLE_H
#include <stddef.h>
#include <stdint.h>

#include "perfweave.h"

/* On-disk encodings of one argument (dumpi-facts.md §6). */
typedef enum dumpi_enc {
    DUMPI_ENC_I32 = 0,   /* int, dest, source, tag, request, iorequest */
    DUMPI_ENC_I64,       /* MPI_Offset, Function_enter/exit address */
    DUMPI_ENC_U16,       /* handles: comm, datatype, group, ... */
    DUMPI_ENC_U8,        /* enums: op, combiner, threadlevel, ... */
    DUMPI_ENC_I32_ARR,   /* u32 n + n x i32 */
    DUMPI_ENC_U16_ARR,   /* u32 n + n x u16 */
    DUMPI_ENC_U8_ARR,    /* u32 n + n x u8 */
    DUMPI_ENC_I32_2D,    /* u32 rows + per row (u32 n + n x i32) */
    DUMPI_ENC_STR,       /* u32 len + bytes */
    DUMPI_ENC_STR_ARR,   /* u32 n + n x string32 */
    DUMPI_ENC_STR_2D,    /* u32 n0 + per entry (u32 n1 + n1 x string32) */
    DUMPI_ENC_STATUS     /* only when mask & 3: u32 n + n x 14 bytes */
} dumpi_enc;

typedef struct dumpi_arg {
    const char *name;     /* as in dumpi-functions.tsv */
    uint8_t enc;          /* dumpi_enc */
    /* Present only when arg[cond_a] == arg[cond_b] (both earlier i32
     * arguments of the same record); cond_a < 0: always present. */
    int8_t cond_a, cond_b;
} dumpi_arg;

/* The most arguments a function has (MPI_Comm_spawn_multiple: 11). */
#define DUMPI_MAX_ARGS 16

/* Fields every record schema starts with, before its arguments. */
#define DUMPI_PREFIX_FIELDS 4 /* thread, wall, cpu, perf */

typedef struct dumpi_function {
    const char *name;        /* "MPI_Send" */
    int writable;            /* 0: no stream record can carry this label */
    uint8_t n_args;
    const dumpi_arg *args;
    const pw_field *fields;  /* DUMPI_PREFIX_FIELDS + n_args */
    /* Argument bytes when they do not depend on the data (no arrays,
     * strings, statuses or conditionals); -1 otherwise. */
    int fixed_size;
    /* Per pw_mpi_role, the field holding that argument or -1; NULL for
     * what is no MPI call (Function_enter/exit, the footer total). */
    const int16_t *mpi_fields;
    /* The leading arguments whose place does not depend on the data (all
     * of a fixed-size function's; the scalars before the first array,
     * string, status or conditional argument of any other): where each
     * starts counted from the first, how many, and their bytes.  The
     * walker places them all at once, without reading encodings. */
    uint8_t arg_at[DUMPI_MAX_ARGS];
    uint8_t lead_args;
    uint16_t lead_size;
} dumpi_function;

#define DUMPI_N_LABELS 293          /* 0..292: 290 is the footer total */
#define DUMPI_ALL_FUNCTIONS 290
#define DUMPI_FUNCTION_ENTER 291
#define DUMPI_FUNCTION_EXIT 292
#define DUMPI_END_OF_STREAM 293

extern const dumpi_function dumpi_functions[DUMPI_N_LABELS];
/* The fields of one status object: bytes, source, cancelled, error, tag. */
extern const pw_field dumpi_status_fields[5];
/* Name of datatype id v (MPI_INT), or NULL. */
const char *dumpi_label_datatype(int64_t v);
#endif
