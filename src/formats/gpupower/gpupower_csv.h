/* gpupower_csv.h — the strict, fast CSV line reader under every gpupower
 * file: lines through a bounded window, cells split at commas (the files
 * are written by pandas and Python's csv module with plain numbers and
 * names, so no quoting is expected; a quote is just a byte of a cell, and
 * then fails number parsing), and number parsing that gives exactly what
 * strtod gives. */
#ifndef PW_GPUPOWER_CSV_H
#define PW_GPUPOWER_CSV_H
#include <stddef.h>
#include <stdint.h>

#include "core/window.h"

/* Longest line accepted; a longer one is damage, not a reason to grow. */
#define GP_MAX_LINE ((size_t)64 * 1024)
/* Most cells a line may have (power-external.csv: d{dev}c{ch} columns). */
#define GP_MAX_CELLS 256

typedef struct gp_cell {
    const char *p;
    uint32_t n;
} gp_cell;

typedef struct gp_csv {
    pw_window w;
    uint64_t off;       /* file offset of the next line */
    uint64_t line_off;  /* file offset of the current line */
    uint64_t line_no;   /* 1-based number of the current line */
    const char *line;   /* the current line without its end of line */
    size_t len;
    gp_cell cells[GP_MAX_CELLS];
    size_t n_cells;     /* cells of the current line (after gp_csv_split) */
} gp_csv;

/* Window sizes: large blocks for reading whole files (most lines are then
 * found in the buffer with one memchr), a small one for headers only. */
#define GP_WINDOW_STREAM ((size_t)1 << 20)
#define GP_WINDOW_HEADER ((size_t)16 * 1024)

pw_status gp_csv_open(gp_csv *c, const char *path, size_t window, _Atomic uint64_t *progress,
                      pw_error *err);
void gp_csv_close(gp_csv *c);

/* The next line: PW_OK, PW_END, or PW_E_DATA (a line over GP_MAX_LINE) /
 * PW_E_IO with err set.  Lines end at '\n'; a '\r' before it is dropped. */
pw_status gp_csv_next_line(gp_csv *c, pw_error *err);

/* Splits the current line into cells.  Returns the cell count, or 0 when
 * the line has more than GP_MAX_CELLS cells. */
size_t gp_csv_split(gp_csv *c);

/* Parses a whole cell as a decimal number ("12", "-3.5", "1e-3", "nan" is
 * refused).  0 on success, -1 when the cell is not a number.  An empty cell
 * is not a number either: callers treat it as missing before asking. */
int gp_parse_double(const char *p, size_t n, double *out);
/* Reads the longest decimal number at p (before end): the byte after it,
 * or NULL when p starts no number.  Rows are parsed with it in one pass:
 * the number ends where its cell ends. */
const char *gp_scan_double(const char *p, const char *end, double *out);
/* Parses a whole cell as a signed decimal integer; 0 or -1. */
int gp_parse_int(const char *p, size_t n, int64_t *out);
#endif
