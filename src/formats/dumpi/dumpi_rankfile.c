/* dumpi_rankfile.c — the fixed-position parts of one rank's `.bin`: the
 * index at the end (and the shorter index of pre-0.6.6 files), then the
 * header, footer, keyval, perf labels, datatype sizes and function-address
 * labels it points to (dumpi-facts.md §3, §5).  Damage in one record is a
 * diagnostic naming the offset; the others are still read. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/error.h"
#include "formats/dumpi/dumpi.h"

/* A bounded reader over one record of the file. */
typedef struct section {
    pw_window *w;
    pw_dataset *ds;
    const char *what;   /* "header", "footer"... for messages */
    uint64_t off, end;
    int failed;
} section;

/* n bytes at the reader's position, or NULL (with a diagnostic once). */
static const uint8_t *sec_take(section *s, size_t n)
{
    if (s->failed)
        return NULL;
    const uint8_t *p;
    pw_error e;
    if (n <= s->end - s->off && n <= DUMPI_MAX_RECORD && pw_window_need(s->w, s->off, n, &p, &e) == PW_OK) {
        s->off += n;
        return p;
    }
    s->failed = 1;
    pw_ds_diag(s->ds, PW_SEV_ERROR, "dumpi.truncated-section", s->w->path, (int64_t)s->off,
               "%s: %zu more bytes expected, %llu left before %llu", s->what, n,
               (unsigned long long)(s->end > s->off ? s->end - s->off : 0), (unsigned long long)s->end);
    return NULL;
}

static uint32_t sec_u32(section *s)
{
    const uint8_t *p = sec_take(s, 4);
    return p ? pw_be32(p) : 0;
}

/* A u16-length string (header and label records) in a new C string. */
static char *sec_str16(section *s)
{
    const uint8_t *p = sec_take(s, 2);
    size_t n = p ? pw_be16(p) : 0;
    const uint8_t *b = p ? sec_take(s, n) : NULL;
    char *out = malloc(n + 1);
    if (out) {
        if (b)
            memcpy(out, b, n);
        out[b ? n : 0] = '\0';
    }
    return out;
}

/* u32 n + n x i32 as "[a, b]". */
static char *sec_int_list(section *s)
{
    uint32_t n = sec_u32(s);
    if (n > (s->end - s->off) / 4)
        n = (uint32_t)((s->end - s->off) / 4);
    char *out = malloc(3 + (size_t)n * 13);
    if (!out)
        return NULL;
    size_t len = 0;
    out[len++] = '[';
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *p = sec_take(s, 4);
        if (!p)
            break;
        len += (size_t)sprintf(out + len, "%s%d", i ? ", " : "", (int32_t)pw_be32(p));
    }
    strcpy(out + len, "]");
    return out;
}

/* Finds the index: 8 u64 at the end, or (before 0.6.6) fewer, found by
 * stepping forward 8 bytes at a time until the magic. */
static int read_index(pw_dataset *ds, dumpi_rank *r, pw_window *w)
{
    const uint8_t *p;
    pw_error e;
    if (r->file_size < 8 + DUMPI_INDEX_SIZE ||
        pw_window_need(w, r->file_size - DUMPI_INDEX_SIZE, DUMPI_INDEX_SIZE, &p, &e) != PW_OK) {
        pw_ds_diag(ds, PW_SEV_ERROR, r->file_size ? "dumpi.truncated-file" : "dumpi.empty-file", r->file,
                   r->file_size ? 0 : PW_NO_OFFSET,
                   r->file_size ? "a file of at least 72 bytes (magic + 64-byte index) expected, found %llu"
                                : "the rank file is empty (%llu bytes): the run was aborted before MPI_Finalize",
                   (unsigned long long)r->file_size);
        return 0;
    }
    int skip = 0;
    while (skip < 4 && pw_be64(p + 8 * skip) != DUMPI_MAGIC)
        skip++;
    if (skip == 4) {
        pw_ds_diag(ds, PW_SEV_ERROR, "dumpi.bad-index", r->file, (int64_t)(r->file_size - DUMPI_INDEX_SIZE),
                   "index magic ff aa dd 44 55 4d 50 49 expected in the last 64 bytes, not found");
        return 0;
    }
    /* Entries after the magic, aligned to the end of the file. */
    uint64_t v[7] = {0};
    int n = 7 - skip;
    for (int i = 0; i < n; i++)
        v[7 - n + i] = pw_be64(p + 8 * (skip + 1 + i));
    r->off_sizes = v[0];
    r->off_addr = v[1];
    r->off_perf = v[2];
    r->off_header = v[3];
    r->off_stream = v[4];
    r->off_footer = v[5];
    r->off_keyval = v[6];
    return 1;
}

/* Offsets must lie inside the file, before the index. */
static int offset_ok(const dumpi_rank *r, uint64_t off) { return off >= 8 && off < r->file_size - DUMPI_INDEX_SIZE; }

static void check_magic(pw_dataset *ds, dumpi_rank *r, pw_window *w)
{
    const uint8_t *p;
    pw_error e;
    if (pw_window_need(w, 0, 8, &p, &e) == PW_OK && pw_be64(p) != DUMPI_MAGIC)
        pw_ds_diag(ds, PW_SEV_ERROR, "dumpi.bad-magic", r->file, 0,
                   "lead-in magic ff aa dd 44 55 4d 50 49 expected, found %02x %02x %02x %02x %02x %02x %02x %02x",
                   p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
}

static void read_header(pw_dataset *ds, dumpi_rank *r, pw_window *w)
{
    /* The header ends at the footer when the index says where that is. */
    uint64_t end = r->file_size - DUMPI_INDEX_SIZE;
    if (r->off_footer > r->off_header && r->off_footer < end)
        end = r->off_footer;
    section s = {w, ds, "header", r->off_header, end, 0};
    const uint8_t *p = sec_take(&s, 11);
    if (!p)
        return;
    for (int i = 0; i < 3; i++)
        r->version[i] = p[i];
    r->starttime = pw_be64(p + 3);
    r->hostname = sec_str16(&s);
    r->username = sec_str16(&s);
    uint64_t mesh_at = s.off;
    r->meshdim = sec_u32(&s);
    s.off = mesh_at;
    r->mesh_crd = sec_int_list(&s);
    /* The writer always writes the sizes array; old readers read it only
     * when meshdim > 0 (dumpi-facts.md §5).  Read it when it is there. */
    r->mesh_size = s.off + 4 <= s.end ? sec_int_list(&s) : strdup("[]");
    r->has_header = !s.failed;
}

static void read_footer(pw_dataset *ds, dumpi_rank *r, pw_window *w)
{
    section s = {w, ds, "footer", r->off_footer, r->file_size - DUMPI_INDEX_SIZE, 0};
    const uint8_t *p = sec_take(&s, 8 + 8 * DUMPI_FOOTER_ENTRIES);
    if (!p)
        return;
    if (pw_be64(p) != DUMPI_FOOTER_MAGIC) {
        pw_ds_diag(ds, PW_SEV_ERROR, "dumpi.bad-footer", r->file, (int64_t)r->off_footer,
                   "footer magic 0xf007fee7 expected, found 0x%llx", (unsigned long long)pw_be64(p));
        return;
    }
    for (int i = 0; i < DUMPI_FOOTER_ENTRIES; i++) {
        r->calls[i] = pw_be32(p + 8 + 4 * i);
        r->ignored[i] = pw_be32(p + 8 + 4 * (DUMPI_FOOTER_ENTRIES + i));
    }
    r->has_footer = 1;
}

/* Keyval: u32 count + pairs of u16 strings.  Its index entry is always 0
 * (the writer never records it); it sits right after the footer. */
static void read_keyval(pw_dataset *ds, dumpi_rank *r, pw_window *w)
{
    uint64_t at = r->off_keyval ? r->off_keyval : r->has_footer ? r->off_footer + 8 + 8 * DUMPI_FOOTER_ENTRIES : 0;
    if (!at || !offset_ok(r, at))
        return;
    section s = {w, ds, "keyval record", at, r->file_size - DUMPI_INDEX_SIZE, 0};
    r->n_keyvals = sec_u32(&s);
    for (uint32_t i = 0; i < r->n_keyvals && !s.failed; i++) {
        free(sec_str16(&s));
        free(sec_str16(&s));
    }
}

/* Names of perf counters the label record does not name: "counter<i>". */
static char counter_names[DUMPI_MAX_PERF][16];
static pw_field counter_fields[DUMPI_MAX_PERF];
static pthread_once_t counter_names_once = PTHREAD_ONCE_INIT;
static void make_counter_names(void)
{
    for (int i = 0; i < DUMPI_MAX_PERF; i++) {
        snprintf(counter_names[i], sizeof counter_names[i], "counter%d", i);
        counter_fields[i] = (pw_field){counter_names[i], PW_T_LIST, NULL, NULL};
    }
}

const pw_field *dumpi_unlabelled_counters(void)
{
    pthread_once(&counter_names_once, make_counter_names);
    return counter_fields;
}

static void read_perf_labels(pw_dataset *ds, dumpi_rank *r, pw_window *w)
{
    if (!r->off_perf || !offset_ok(r, r->off_perf))
        return;
    section s = {w, ds, "perf-counter labels", r->off_perf, r->file_size - DUMPI_INDEX_SIZE, 0};
    uint32_t n = sec_u32(&s);
    if (n > DUMPI_MAX_PERF) {
        pw_ds_diag(ds, PW_SEV_ERROR, "dumpi.bad-perf-labels", r->file, (int64_t)r->off_perf,
                   "at most %d perf-counter labels expected, found %u", DUMPI_MAX_PERF, n);
        n = DUMPI_MAX_PERF;
    }
    r->perf_fields = calloc(n ? n : 1, sizeof *r->perf_fields);
    for (uint32_t i = 0; r->perf_fields && i < n && !s.failed; i++) {
        char *name = sec_str16(&s);
        if (!name)
            break;
        r->perf_fields[i] = (pw_field){name, PW_T_LIST, NULL, NULL};
        r->n_perf = i + 1;
    }
}

static void read_sizes(pw_dataset *ds, dumpi_rank *r, pw_window *w)
{
    if (!r->off_sizes || !offset_ok(r, r->off_sizes))
        return;
    section s = {w, ds, "datatype sizes", r->off_sizes, r->file_size - DUMPI_INDEX_SIZE, 0};
    uint32_t n = sec_u32(&s);
    if (s.failed || n > (s.end - s.off) / 4) {
        pw_ds_diag(ds, PW_SEV_ERROR, "dumpi.bad-sizes", r->file, (int64_t)r->off_sizes,
                   "datatype-size count that fits before the index expected, found %u", n);
        return;
    }
    r->sizes = calloc(n ? n : 1, sizeof *r->sizes);
    for (uint32_t i = 0; r->sizes && i < n; i++)
        r->sizes[i] = sec_u32(&s);
    r->n_sizes = r->sizes ? n : 0;
}

static void read_addresses(pw_dataset *ds, dumpi_rank *r, pw_window *w)
{
    if (!r->off_addr || !offset_ok(r, r->off_addr))
        return;
    section s = {w, ds, "function-address labels", r->off_addr, r->file_size - DUMPI_INDEX_SIZE, 0};
    uint32_t n = sec_u32(&s);
    size_t cap = 1, len = 0;
    char *out = calloc(1, 1);
    for (uint32_t i = 0; i < n && !s.failed && out; i++) {
        const uint8_t *p = sec_take(&s, 8);
        char *name = p ? sec_str16(&s) : NULL;
        if (!name)
            break;
        size_t need = len + strlen(name) + 32;
        char *grown = need > cap ? realloc(out, cap = need * 2) : out;
        if (grown) {
            out = grown;
            len += (size_t)sprintf(out + len, "%s0x%llx %s", i ? "; " : "", (unsigned long long)pw_be64(p), name);
        }
        free(name);
        r->n_addrs = i + 1;
    }
    r->addrs = out;
}

static void read_biases(pw_dataset *ds, dumpi_rank *r, pw_window *w)
{
    section s = {w, ds, "stream start", r->off_stream, r->stream_end, 0};
    const uint8_t *p = sec_take(&s, 8);
    if (!p)
        return;
    r->cpu_bias = pw_be32(p);
    r->wall_bias = pw_be32(p + 4);
    r->usable = 1;
}

void dumpi_rankfile_read(pw_dataset *ds, dumpi_rank *r)
{
    pw_window w;
    pw_error e;
    if (pw_window_open(&w, r->file, 64 * 1024, DUMPI_MAX_RECORD, &e) != PW_OK) {
        /* A system fault (permission, a FIFO) stops the open with its own
         * status; damage in a compressed copy is a diagnostic like any. */
        if (e.status == PW_E_IO || e.status == PW_E_NOMEM || e.status == PW_E_FORMAT)
            r->io_error = malloc(sizeof *r->io_error);
        if (r->io_error)
            *r->io_error = e;
        else
            pw_ds_diag_error(ds, PW_SEV_ERROR, "dumpi.unreadable-file", &e);
        return;
    }
    r->file_size = w.file_size;
    r->seen = w.in.id;
    /* First, whatever else is wrong: bytes that are not DUMPI say so at 0. */
    check_magic(ds, r, &w);
    if (read_index(ds, r, &w)) {
        r->end_known = offset_ok(r, r->off_header) && r->off_header > r->off_stream;
        if (!r->end_known || r->off_stream != 8)
            pw_ds_diag(ds, PW_SEV_ERROR, "dumpi.bad-index", r->file, (int64_t)(r->file_size - DUMPI_INDEX_SIZE),
                       "index: stream offset 8 and a header offset after it expected, found %llu and %llu",
                       (unsigned long long)r->off_stream, (unsigned long long)r->off_header);
        r->off_stream = 8;
        r->stream_end = r->end_known ? r->off_header : r->file_size - DUMPI_INDEX_SIZE;
        if (r->end_known)
            read_header(ds, r, &w);
        if (offset_ok(r, r->off_footer))
            read_footer(ds, r, &w);
        read_keyval(ds, r, &w);
        read_sizes(ds, r, &w);
        read_addresses(ds, r, &w);
        read_perf_labels(ds, r, &w);
    } else if (r->file_size >= 16) {
        /* A cut-off file (no index): its calls are still there up to the cut. */
        r->off_stream = 8;
        r->stream_end = r->file_size;
    }
    if (r->stream_end)
        read_biases(ds, r, &w);
    pw_window_close(&w);
}

void dumpi_rankfile_free(dumpi_rank *r)
{
    free(r->io_error);
    free(r->file);
    free(r->hostname);
    free(r->username);
    free(r->mesh_crd);
    free(r->mesh_size);
    free(r->addrs);
    free(r->sizes);
    free(r->threads);
    free(r->thread_locs);
    for (uint32_t i = 0; i < r->n_perf; i++)
        free((char *)r->perf_fields[i].name);
    free(r->perf_fields);
}
