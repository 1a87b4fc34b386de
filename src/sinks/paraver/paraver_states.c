/* paraver_states.c — states (views/states.h) as the Paraver traces a
 * runtime emulator writes: DIR/<view>.{prv,pcf,row} for every view
 * (ovniemu: thread and cpu; formats of ovni src/emu/pv/prv.c, pcf.c,
 * prf.c).  Changes stream through; each .prv is written under a temporary
 * name with a placeholder header that is rewritten with the duration at
 * the end, then every file is renamed. */
#include "perfweave.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "views/states.h"
#include "core/compiler.h"
#include "core/digits.h"
#include "core/outbuf.h"
#include "sinks/convert/convert.h"

/* The views a Paraver states directory holds (a thread and a CPU view). */
enum { VIEWS = 2 };

static const char *const exts[3] = {"prv", "pcf", "row"};

/* A line's text pieces that repeat, made once: per row "2:0:1:1:<row+1>:"
 * (a state record as ovniemu writes it: cpu 0, application 1, task 1, the
 * row as thread), and per event type ":<type>:" in a cache by type mod
 * 256 (ovniemu's types are below 256, so each keeps its own slot; 64
 * slots made types 37 and 101 evict each other on every line).  Most of a
 * line is then two fixed-size copies and two numbers. */
enum { PIECE = 24, TYPE_SLOTS = 256 };
typedef struct piece {
    char text[PIECE];
    uint8_t len;
} piece;
typedef struct view_text {
    piece *row;           /* n_rows */
    uint32_t n_rows;
    int32_t type_of[TYPE_SLOTS];
    piece type[TYPE_SLOTS];
    /* The line the buffer ends with, while a change of the same row at
     * the same time may still join it: the buffer's length right after
     * it (SIZE_MAX: none; a flush empties the buffer, so a length of 0
     * never matches), its row and its time. */
    size_t line_end;
    uint32_t line_row;
    int64_t line_time;
} view_text;

/* The last line's time as text (time.len digits), kept for both views:
 * the lines of one event (2.7 in the bench, on both views) share it. */
typedef struct writer {
    pw_outbuf out[VIEWS];
    FILE *f[VIEWS];
    view_text text[VIEWS];
    int64_t last_time;
    piece time;
} writer;

static void piece_set(piece *p, const char *before, uint64_t v, char after)
{
    char digits[24], *end = digits + sizeof digits, *d = u64_digits(v, end);
    size_t nb = strlen(before), nd = (size_t)(end - d);
    memcpy(p->text, before, nb);
    memcpy(p->text + nb, d, nd);
    p->text[nb + nd] = after;
    p->len = (uint8_t)(nb + nd + 1);
}

static pw_status view_text_init(view_text *vt, uint32_t n_rows, pw_error *err)
{
    vt->row = calloc(n_rows ? n_rows : 1, sizeof *vt->row);
    if (!vt->row)
        return pw_fail(err, PW_E_NOMEM, NULL, PW_NO_OFFSET, "out of memory");
    vt->n_rows = n_rows;
    for (uint32_t r = 0; r < n_rows; r++)
        piece_set(&vt->row[r], "2:0:1:1:", (uint64_t)r + 1, ':');
    for (int i = 0; i < TYPE_SLOTS; i++)
        vt->type_of[i] = -1; /* Paraver types are positive */
    vt->line_end = SIZE_MAX;
    return PW_OK;
}

/* ovniemu's palette (pv/pcf.c): state colours by value. */
static const unsigned char palette[][3] = {
    {0, 0, 0},       {0, 130, 200},   {217, 217, 217}, {230, 25, 75},   {60, 180, 75},
    {255, 225, 25},  {245, 130, 48},  {145, 30, 180},  {70, 240, 240},  {240, 50, 230},
    {210, 245, 60},  {250, 190, 212}, {0, 128, 128},   {128, 128, 128}, {220, 190, 255},
    {170, 110, 40},  {255, 250, 200}, {128, 0, 0},     {170, 255, 195}, {128, 128, 0},
    {255, 215, 180}, {0, 0, 128},     {0, 0, 255}};

static void header(FILE *f, int64_t duration, uint32_t rows)
{
    fprintf(f, "#Paraver (19/01/38 at 03:14):%020lld_ns:0:1:1(%u:1)\n", (long long)duration, rows);
}

/* Any line, a piece at a time: rows past the table, negative types, or a
 * memory buffer that could not grow.  (Times are never negative; as
 * unsigned if they were, as before.)  Not inlined, as the other slow
 * paths: emit_line then keeps its values in registers it need not save. */
static PW_NOINLINE void emit_line_slow(pw_outbuf *o, int64_t time, uint32_t row, int32_t type, int64_t value)
{
    pw_out_mem(o, "2:0:1:1:", 8);
    pw_out_u64(o, (uint64_t)row + 1);
    pw_out_char(o, ':');
    pw_out_u64(o, (uint64_t)time);
    pw_out_char(o, ':');
    pw_out_i64(o, type);
    pw_out_char(o, ':');
    pw_out_i64(o, value);
    pw_out_char(o, '\n');
}

/* A type's cache slot made its own. */
static void type_piece_set(view_text *vt, unsigned slot, int32_t type)
{
    vt->type_of[slot] = type;
    piece_set(&vt->type[slot], ":", (uint64_t)type, ':');
}

/* The most a line writes: three fixed-size pieces (row, time, type), a
 * sign, a number of up to 20 digits and a newline. */
enum { LINE_MAX = 3 * PIECE + 1 + 20 + 1 };

static void emit_line(void *ctx, int64_t time, int view, uint32_t row, int32_t type, int64_t value);

/* What emit_line's one test sends here: a full buffer, a type not in its
 * cache slot yet, a row past the table or a negative type.  Out of line,
 * so that emit_line calls nothing and saves no registers. */
static PW_NOINLINE void emit_line_rare(writer *w, int64_t time, int view, uint32_t row,
                                                     int32_t type, int64_t value)
{
    pw_outbuf *o = &w->out[view];
    view_text *vt = &w->text[view];
    pw_outbuf_reserve(o, LINE_MAX);
    if (row >= vt->n_rows || type < 0 || o->cap - o->len < LINE_MAX) {
        emit_line_slow(o, time, row, type, value);
        vt->line_end = SIZE_MAX; /* the next change starts a line */
        return;
    }
    type_piece_set(vt, (uint32_t)type % TYPE_SLOTS, type);
    emit_line(w, time, view, row, type, value); /* passes its test now */
}

/* A line is made in place in the output buffer with fixed-size copies
 * and stores: one test for every rare case, no call, no room check per
 * piece.  A change of the row and time of the line just written joins
 * it as one more ":type:value" (a Paraver event record holds any number
 * of pairs: paraver-kernel's src/tracebodyio_v1.cpp, readEvent, makes
 * one event per pair, in the line's order, with the line's object and
 * time).  ovniemu writes a line per change; an event's changes to one
 * row share a line here, which makes the bench's files a fifth smaller
 * and the kernel's copying of them as much cheaper. */
static void emit_line(void *ctx, int64_t time, int view, uint32_t row, int32_t type, int64_t value)
{
    writer *w = ctx;
    pw_outbuf *o = &w->out[view];
    view_text *vt = &w->text[view];
    unsigned slot = (uint32_t)type % TYPE_SLOTS;
    if (row >= vt->n_rows || type < 0 || o->cap - o->len < LINE_MAX || vt->type_of[slot] != type) {
        emit_line_rare(w, time, view, row, type, value);
        return;
    }
    char *p = o->buf + o->len;
    if (o->len == vt->line_end && row == vt->line_row && time == vt->line_time) {
        p--; /* the line's newline: the pair goes in its place */
    } else {
        memcpy(p, vt->row[row].text, PIECE); /* fixed size: the rest is overwritten */
        p += vt->row[row].len;
        if (time != w->last_time) {
            w->last_time = time;
            w->time.len = (uint8_t)pw_put_u64(w->time.text, (uint64_t)time); /* at most 20 bytes */
        }
        memcpy(p, w->time.text, PIECE);
        p += w->time.len;
        vt->line_row = row;
        vt->line_time = time;
    }
    const piece *tp = &vt->type[slot];
    memcpy(p, tp->text, PIECE);
    p += tp->len;
    if (value < 0) {
        *p++ = '-';
        p += pw_put_u64(p, 0 - (uint64_t)value);
    } else {
        p += pw_put_u64(p, (uint64_t)value);
    }
    *p++ = '\n';
    o->len = (size_t)(p - o->buf);
    vt->line_end = o->len;
}

static pw_status write_pcf(const char *path, const pw_states *st, int view, pw_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return pw_fail_errno(err, path, "cannot create");
    fputs("DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\n"
          "LOOK_BACK           100\nSPEED               1\nFLAG_ICONS          ENABLED\n"
          "NUM_OF_STATE_COLORS 1000\nYMAX_SCALE          37\n\n\nDEFAULT_SEMANTIC\n\n"
          "THREAD_FUNC         State As Is\n\n\nSTATES_COLOR\n",
          f);
    for (size_t i = 0; i < sizeof palette / sizeof *palette; i++)
        fprintf(f, "%-3zu {%3d, %3d, %3d}\n", i, palette[i][0], palette[i][1], palette[i][2]);
    for (size_t t = 0; t < st->n_channels(st, view); t++) {
        pw_state_channel ch = st->channel_at(st, view, t);
        fprintf(f, "\n\nEVENT_TYPE\n0 %-10d %s\nVALUES\n", ch.id, ch.name);
        for (size_t k = 0; k < ch.n_labels; k++) {
            int64_t value;
            const char *label = st->label_at(st, view, t, k, &value);
            fprintf(f, "%-4lld %s\n", (long long)value, label);
        }
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return pw_fail_errno(err, path, "cannot write");
    return PW_OK;
}

static pw_status write_row(const char *path, const pw_state_view *v, pw_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return pw_fail_errno(err, path, "cannot create");
    fprintf(f, "LEVEL NODE SIZE 1\nhostname\n\nLEVEL THREAD SIZE %u\n", v->n_rows);
    for (uint32_t i = 0; i < v->n_rows; i++)
        fprintf(f, "%s\n", v->rows[i].paraver);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return pw_fail_errno(err, path, "cannot write");
    return PW_OK;
}

static void name_of(char *buf, size_t n, const char *dir, const char *view, int ext, int tmp)
{
    snprintf(buf, n, "%s/%s%s.%s", dir, tmp ? ".tmp." : "", view, exts[ext]);
}

/* The .prv files: placeholder headers, then the lines as they come. */
static pw_status open_prv(writer *w, const char *dir, const pw_states *st, pw_error *err)
{
    for (int v = 0; v < VIEWS; v++) {
        char path[4096];
        name_of(path, sizeof path, dir, st->views[v].name, 0, 1);
        if (!(w->f[v] = fopen(path, "w")))
            return pw_fail_errno(err, path, "cannot create");
        header(w->f[v], 0, st->views[v].n_rows);
        pw_status s = view_text_init(&w->text[v], st->views[v].n_rows, err);
        if (s == PW_OK)
            s = pw_outbuf_init(&w->out[v], w->f[v], err);
        if (s != PW_OK)
            return s;
    }
    return PW_OK;
}

/* Flushes the lines and rewrites the headers with the true duration. */
static pw_status close_prv(writer *w, const char *dir, const pw_states *st, pw_status s, pw_error *err)
{
    for (int v = 0; v < VIEWS; v++) {
        if (!w->f[v])
            continue;
        char path[4096];
        name_of(path, sizeof path, dir, st->views[v].name, 0, 1);
        pw_error e2;
        pw_status fs = pw_outbuf_flush(&w->out[v], &e2);
        pw_outbuf_free(&w->out[v]);
        if (fs == PW_OK && s == PW_OK) {
            rewind(w->f[v]);
            header(w->f[v], st->end, st->views[v].n_rows);
        }
        int bad = ferror(w->f[v]);
        if ((fclose(w->f[v]) != 0 || bad || fs != PW_OK) && s == PW_OK)
            s = pw_fail_errno(err, path, "cannot write");
        w->f[v] = NULL;
    }
    return s;
}

static pw_status finish_files(const char *dir, const pw_states *st, pw_status s, pw_error *err)
{
    for (int v = 0; s == PW_OK && v < VIEWS; v++) {
        char path[4096];
        name_of(path, sizeof path, dir, st->views[v].name, 1, 1);
        s = write_pcf(path, st, v, err);
        name_of(path, sizeof path, dir, st->views[v].name, 2, 1);
        if (s == PW_OK)
            s = write_row(path, &st->views[v], err);
    }
    for (int v = 0; st && v < VIEWS; v++)
        for (int x = 0; x < 3; x++) {
            char tmp[4096], final[4096];
            name_of(tmp, sizeof tmp, dir, st->views[v].name, x, 1);
            name_of(final, sizeof final, dir, st->views[v].name, x, 0);
            if (s == PW_OK && rename(tmp, final) != 0)
                s = pw_fail_errno(err, final, "cannot rename into place");
            else if (s != PW_OK)
                remove(tmp);
        }
    return s;
}

pw_status pw_convert_paraver_states(pw_dataset *ds, const pw_states_source *src, const char *dir,
                                    pw_convert_report *rep, pw_error *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return pw_fail_errno(err, dir, "cannot create the output directory");
    writer w;
    memset(&w, 0, sizeof w);
    w.time.text[0] = '0'; /* the cached time starts as 0, its text */
    w.time.len = 1;
    pw_states *st = NULL;
    pw_status s = src->start(ds, emit_line, &w, &st, err);
    if (s == PW_OK && st->n_views != VIEWS)
        s = pw_fail(err, PW_E_USAGE, ds->path, PW_NO_OFFSET,
                    "Paraver states need a thread and a CPU view");
    if (s == PW_OK)
        s = open_prv(&w, dir, st, err);
    if (s == PW_OK)
        s = src->play(st, err);
    if (st && st->n_views == VIEWS) {
        s = close_prv(&w, dir, st, s, err);
        s = finish_files(dir, st, s, err);
    }
    if (st)
        rep->records_in = rep->records_out = st->events;
    for (int v = 0; v < VIEWS; v++)
        free(w.text[v].row);
    src->release(st);
    return s;
}
