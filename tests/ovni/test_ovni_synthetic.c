/* test_ovni_synthetic.c — streams built byte by byte for the cases the
 * real fixtures do not hold: clocks going back (and the OU[ ... OU]
 * exception), a big-endian stream, jumbo limits and size codes, reserved
 * flag bits with reading going on, payloads that disagree with their
 * signature, hardware-counter arrays and unterminated strings. */
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "perfweave.h"

typedef struct stream_buf {
    uint8_t b[4096];
    size_t n;
    int big;
} stream_buf;

static void put(stream_buf *s, const void *p, size_t n)
{
    if (n) /* memcpy from NULL is undefined even for 0 bytes */
        memcpy(s->b + s->n, p, n);
    s->n += n;
}

static void put_uint(stream_buf *s, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        s->b[s->n++] = (uint8_t)(v >> (8 * (s->big ? bytes - 1 - i : i)));
}

static void header(stream_buf *s, int big)
{
    s->n = 0;
    s->big = big;
    put(s, "ovni", 4);
    put_uint(s, 1, 4);
}

/* A normal event; payload given as bytes already in stream order. */
static void event(stream_buf *s, const char *mcv, uint64_t clock, const uint8_t *payload, size_t n)
{
    s->b[s->n++] = (uint8_t)(n ? n - 1 : 0);
    put(s, mcv, 3);
    put_uint(s, clock, 8);
    put(s, payload, n);
}

static void jumbo(stream_buf *s, const char *mcv, uint64_t clock, const uint8_t *data, uint32_t n)
{
    s->b[s->n++] = 0x13;
    put(s, mcv, 3);
    put_uint(s, clock, 8);
    put_uint(s, n, 4);
    put(s, data, n);
}

static const char *write_stream(const stream_buf *s)
{
    static const char *path = "synthetic/loom.x/proc.1/thread.1/stream.obs";
    mkdir("synthetic", 0700);
    mkdir("synthetic/loom.x", 0700);
    mkdir("synthetic/loom.x/proc.1", 0700);
    mkdir("synthetic/loom.x/proc.1/thread.1", 0700);
    FILE *f = fopen(path, "wb");
    fwrite(s->b, 1, s->n, f);
    fclose(f);
    return path;
}

/* Reads every record; collects jsonl-free facts for the checks. */
typedef struct seen {
    int records;
    int64_t t[16];
    char type[16][4];
    const pw_diag *diags[16];
    size_t n_diags;
    int errors;
} seen;

static pw_dataset *read_all(const stream_buf *s, seen *out, void (*each)(const pw_record *, int))
{
    memset(out, 0, sizeof *out);
    pw_options opt = {.threads = 1};
    pw_dataset *ds;
    pw_error e;
    if (pw_open(write_stream(s), &opt, &ds, &e) != PW_OK) {
        fprintf(stderr, "open: %s\n", e.message);
        CHECK(0);
        return NULL;
    }
    pw_cursor *c;
    CHECK_EQ_INT(pw_cursor_open(ds, (uint32_t)(pw_location_count(ds) - 1), &c, &e), PW_OK);
    const pw_record *r;
    while (pw_cursor_next(c, &r, &e) == PW_OK) {
        if (out->records < 16) {
            out->t[out->records] = r->t;
            memcpy(out->type[out->records], r->type, 4);
        }
        if (each)
            each(r, out->records);
        out->records++;
    }
    pw_cursor_close(c);
    out->n_diags = pw_dataset_diag_count(ds);
    for (size_t i = 0; i < out->n_diags && i < 16; i++) {
        out->diags[i] = pw_dataset_diag(ds, i);
        out->errors += out->diags[i]->severity == PW_SEV_ERROR;
    }
    return ds;
}

static void test_clock_backwards(void)
{
    stream_buf s;
    header(&s, 0);
    event(&s, "OHr", 100, NULL, 0);
    event(&s, "OHp", 90, NULL, 0); /* back: offset 8 + 12 = 20 */
    event(&s, "OU[", 95, NULL, 0);
    event(&s, "OHr", 50, NULL, 0); /* back, but inside OU[ ... OU] */
    event(&s, "OU]", 60, NULL, 0);
    event(&s, "OHp", 70, NULL, 0);
    seen r;
    pw_dataset *ds = read_all(&s, &r, NULL);
    CHECK_EQ_INT(r.records, 6);
    CHECK_EQ_INT(r.errors, 1);
    CHECK(r.n_diags >= 1 && !strcmp(r.diags[0]->code, "ovni.clock-backwards"));
    CHECK(r.n_diags >= 1 && r.diags[0]->offset == 20);
    pw_close(ds);
}

static void test_big_endian_stream(void)
{
    stream_buf s;
    header(&s, 1);
    uint8_t ohx[16] = {0, 0, 0, 3, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 0, 0, 0, 0x01, 0x02};
    event(&s, "OHx", 0x0102030405ull, ohx, 16);
    seen r;
    int64_t cpu = 0, tid = 0;
    uint64_t tag = 0;
    pw_dataset *ds = NULL;
    {
        memset(&r, 0, sizeof r);
        pw_options opt = {.threads = 1};
        pw_error e;
        CHECK_EQ_INT(pw_open(write_stream(&s), &opt, &ds, &e), PW_OK);
        pw_cursor *c;
        CHECK_EQ_INT(pw_cursor_open(ds, 2, &c, &e), PW_OK);
        const pw_record *rec;
        CHECK_EQ_INT(pw_cursor_next(c, &rec, &e), PW_OK);
        CHECK_EQ_INT(rec->t, 0x0102030405ll);
        const pw_value *v = pw_record_fields(rec);
        cpu = v[1].v.i;
        tid = v[2].v.i;
        tag = v[3].v.u;
        CHECK_EQ_INT(pw_cursor_next(c, &rec, &e), PW_END);
        pw_cursor_close(c);
    }
    CHECK_EQ_INT(cpu, 3);
    CHECK_EQ_INT(tid, -2);
    CHECK_EQ_INT(tag, 0x0102);
    pw_close(ds);
}

static void test_jumbo_limits(void)
{
    stream_buf s;
    header(&s, 0);
    event(&s, "OHr", 1, NULL, 0);
    s.b[s.n++] = 0x13; /* jumbo claiming 2 MiB: beyond what libovni writes */
    put(&s, "OB.", 3);
    put_uint(&s, 2, 8);
    put_uint(&s, 2u << 20, 4);
    seen r;
    pw_dataset *ds = read_all(&s, &r, NULL);
    CHECK_EQ_INT(r.records, 1);
    CHECK(r.n_diags == 1 && !strcmp(r.diags[0]->code, "ovni.bad-jumbo") && r.diags[0]->offset == 32);
    pw_close(ds);

    header(&s, 0);
    s.b[s.n++] = 0x12; /* jumbo flag with size code 2: not a 4-byte length */
    put(&s, "OB.", 3);
    put_uint(&s, 2, 8);
    put_uint(&s, 0, 3);
    ds = read_all(&s, &r, NULL);
    CHECK_EQ_INT(r.records, 0);
    CHECK(r.n_diags == 1 && !strcmp(r.diags[0]->code, "ovni.bad-jumbo") && r.diags[0]->offset == 8);
    pw_close(ds);
}

static void test_reserved_flags_go_on(void)
{
    stream_buf s;
    header(&s, 0);
    event(&s, "OHr", 1, NULL, 0);
    size_t at = s.n;
    event(&s, "OHp", 2, NULL, 0);
    s.b[at] |= 0x80;
    event(&s, "OHr", 3, NULL, 0);
    seen r;
    pw_dataset *ds = read_all(&s, &r, NULL);
    CHECK_EQ_INT(r.records, 3);
    CHECK(r.n_diags == 1 && !strcmp(r.diags[0]->code, "ovni.reserved-flags") && r.diags[0]->offset == at);
    pw_close(ds);
}

static int undecoded_ok, hwc_ok, label_ok;

static void look_at_fields(const pw_record *rec, int i)
{
    const pw_value *v = pw_record_fields(rec);
    if (i == 0) /* OHx with a 4-byte payload: kept raw, not decoded */
        undecoded_ok = v[0].present && v[0].v.bytes.n == 4 && !v[1].present && !v[2].present;
    if (i == 1) /* VWC: every counter of the jumbo data */
        hwc_ok = v[1].type == PW_T_LIST && v[1].v.list.n == 3 && v[1].v.list.items[2].v.i == -5;
    if (i == 2) /* 6Yc without a NUL: the label stops at the end of the data */
        label_ok = v[1].v.u == 7 && v[2].type == PW_T_STR && v[2].v.s.n == 3 && !memcmp(v[2].v.s.p, "abc", 3);
}

static void test_payload_decoding_edges(void)
{
    stream_buf s;
    header(&s, 0);
    uint8_t four[4] = {1, 0, 0, 0};
    event(&s, "OHx", 1, four, 4);
    uint8_t hwc[24] = {1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
                       0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    jumbo(&s, "VWC", 2, hwc, 24);
    uint8_t label[7] = {7, 0, 0, 0, 'a', 'b', 'c'};
    jumbo(&s, "6Yc", 3, label, 7);
    seen r;
    pw_dataset *ds = read_all(&s, &r, look_at_fields);
    CHECK_EQ_INT(r.records, 3);
    CHECK_EQ_INT(r.errors, 0);
    CHECK(undecoded_ok);
    CHECK(hwc_ok);
    CHECK(label_ok);
    pw_close(ds);
}

static void test_unknown_model_keeps_its_mcv(void)
{
    stream_buf s;
    header(&s, 0);
    uint8_t two[2] = {0xa7, 0xa8};
    event(&s, "XPc", 5, two, 2);
    seen r;
    pw_dataset *ds = read_all(&s, &r, NULL);
    CHECK_EQ_INT(r.records, 1);
    CHECK_STR(r.type[0], "XPc");
    pw_close(ds);
}

TEST_MAIN(T(test_clock_backwards), T(test_big_endian_stream), T(test_jumbo_limits),
          T(test_reserved_flags_go_on), T(test_payload_decoding_edges),
          T(test_unknown_model_keeps_its_mcv))
