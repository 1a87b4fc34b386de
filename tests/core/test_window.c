/* test_window.c — the windowed reader: every byte once, no access past the
 * end, refills across boundaries, growth for large accesses, errors. */
#include <stdio.h>
#include <unistd.h>

#include "core/bytes.h"
#include "core/window.h"
#include "harness.h"

static const char *write_file(const char *name, size_t n)
{
    FILE *f = fopen(name, "wb");
    for (size_t i = 0; i < n; i++)
        fputc((int)(i * 7 + 3) & 0xff, f);
    fclose(f);
    return name;
}

/* Reads the whole file in odd-sized pieces through a tiny window and
 * checks each byte. */
static void test_sequential_small_window(void)
{
    const char *p = write_file("win_seq.bin", 10007);
    pw_window w;
    pw_error e;
    CHECK_EQ_INT(pw_window_open(&w, p, 64, 4096, &e), PW_OK);
    uint64_t off = 0;
    size_t step = 1;
    int bad = 0;
    while (off < 10007) {
        size_t n = step;
        if (n > 10007 - off)
            n = (size_t)(10007 - off);
        const uint8_t *b;
        CHECK_EQ_INT(pw_window_need(&w, off, n, &b, &e), PW_OK);
        for (size_t i = 0; i < n; i++)
            bad += b[i] != (uint8_t)(((off + i) * 7 + 3) & 0xff);
        off += n;
        step = step % 97 + 13;
    }
    CHECK_EQ_INT(bad, 0);
    const uint8_t *b;
    CHECK_EQ_INT(pw_window_need(&w, 10007, 1, &b, &e), PW_END);
    CHECK_EQ_INT(pw_window_need(&w, 10000, 8, &b, &e), PW_END);
    CHECK_EQ_INT(pw_window_left(&w, 10000), 7);
    CHECK_EQ_INT(pw_window_need(&w, UINT64_MAX - 2, 8, &b, &e), PW_END);
    pw_window_close(&w);
    unlink(p);
}

/* An access larger than the buffer grows it; one larger than max_cap is
 * refused as damage with the offset named. */
static void test_growth_and_limit(void)
{
    const char *p = write_file("win_grow.bin", 100000);
    pw_window w;
    pw_error e;
    CHECK_EQ_INT(pw_window_open(&w, p, 16, 50000, &e), PW_OK);
    const uint8_t *b;
    CHECK_EQ_INT(pw_window_need(&w, 5, 40000, &b, &e), PW_OK);
    CHECK_EQ_INT(b[39999], (uint8_t)(((5 + 39999) * 7 + 3) & 0xff));
    CHECK_EQ_INT(pw_window_need(&w, 100, 60000, &b, &e), PW_E_DATA);
    CHECK(e.has_offset && e.offset == 100);
    CHECK(strstr(e.message, "win_grow.bin") != NULL);
    /* Going backwards refills too. */
    CHECK_EQ_INT(pw_window_need(&w, 0, 4, &b, &e), PW_OK);
    CHECK_EQ_INT(b[0], 3);
    pw_window_close(&w);
    unlink(p);
}

static void test_open_errors(void)
{
    pw_window w;
    pw_error e;
    CHECK_EQ_INT(pw_window_open(&w, "no/such/file", 64, 64, &e), PW_E_IO);
    CHECK(strstr(e.message, "no/such/file") != NULL);
    CHECK_EQ_INT(pw_window_open(&w, ".", 64, 64, &e), PW_E_IO);
    const char *p = write_file("win_empty.bin", 0);
    CHECK_EQ_INT(pw_window_open(&w, p, 64, 64, &e), PW_OK);
    const uint8_t *b;
    CHECK_EQ_INT(pw_window_need(&w, 0, 1, &b, &e), PW_END);
    CHECK_EQ_INT(pw_window_need(&w, 0, 0, &b, &e), PW_OK);
    pw_window_close(&w);
    unlink(p);
}

static void test_byte_order(void)
{
    const uint8_t b[8] = {1, 2, 3, 4, 5, 6, 7, 0x88};
    CHECK_EQ_INT(pw_le16(b), 0x0201);
    CHECK_EQ_INT(pw_be16(b), 0x0102);
    CHECK_EQ_INT(pw_le32(b), 0x04030201);
    CHECK_EQ_INT(pw_be32(b), 0x01020304);
    CHECK(pw_le64(b) == 0x8807060504030201ull);
    CHECK(pw_be64(b) == 0x0102030405060788ull);
    CHECK(pw_load64(b, 1) == pw_be64(b) && pw_load64(b, 0) == pw_le64(b));
    const uint8_t one[8] = {0, 0, 0, 0, 0, 0, 0xf0, 0x3f};
    CHECK(pw_lef64(one) == 1.0);
}

TEST_MAIN(T(test_sequential_small_window), T(test_growth_and_limit), T(test_open_errors),
          T(test_byte_order))
