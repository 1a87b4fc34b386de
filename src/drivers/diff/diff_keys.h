/* diff_keys.h — what names a row across runs.  Two runs of one program
 * differ in what the system hands out (process and thread ids, the path
 * the data is stored at, absolute clocks); the diff matches rows by what
 * names the thing in both (MPI rank, a process's order in its loom, a
 * thread's order in its process, a path under the dataset's root) and
 * never subtracts an identifier or a clock. */
#ifndef PW_DRIVERS_DIFF_KEYS_H
#define PW_DRIVERS_DIFF_KEYS_H
#include <jansson.h>

typedef enum diff_role {
    DIFF_VALUE = 0, /* a number that changes between runs: A, B and B - A */
    DIFF_KEY,       /* names the row */
    DIFF_TREE,      /* an indented name: the row is keyed by its path from the root */
    DIFF_LEFT_OUT   /* an identifier or a clock of this run only */
} diff_role;

/* The role a column's name gives it, whatever its values (DIFF_VALUE when
 * the name says nothing).  `has_text_key`: the table has a text column
 * that names its rows, so positions ("index", "id") are left out. */
diff_role diff_role_of_name(const char *column, int has_text_key);

/* How one report's names become names that hold across runs: the
 * process and thread ids in its paths by their order, its dataset's root
 * path cut off.  NULL when out of memory. */
typedef struct diff_names diff_names;
diff_names *diff_names_of(const json_t *root, const char *dataset_path);
void diff_names_free(diff_names *n);
/* The text key as it holds across runs (a new reference). */
json_t *diff_names_key(const diff_names *n, const char *text);
#endif
