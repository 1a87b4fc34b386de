/* test_seconds_text.c — DUMPI times (seconds with 9 decimals) print
 * through pw_out_f64's fast path; its text must be exactly the shortest
 * %.15g..%.17g text that reads back, as the general path writes it. */
#include "core/outbuf.h"
#include "harness.h"

/* The general rule, written the slow way. */
static void reference(double v, char *tmp, size_t n)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, n, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
}

static void test_same_text(void)
{
    FILE *null = fopen("/dev/null", "w");
    pw_outbuf o;
    pw_error e;
    CHECK(null && pw_outbuf_init(&o, null, &e) == PW_OK);
    if (!null)
        return;
    uint64_t seed = 1;
    int differ = 0;
    for (int i = 0; i < 200000; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        double v;
        switch (i % 4) {
        case 0: v = (double)(seed >> 20 & 0xFFFFFFFFFFFull) / 1e9; break;          /* s.ns under 1.8e4 */
        case 1: v = (double)((seed >> 11) % 1000000000000000ull) / 1e9; break;    /* under 1e6 */
        case 2: v = (double)(seed >> 11) / 9007199254740992.0 * 2e6 - 1e6; break; /* any double */
        default: v = (double)((seed >> 30) % 100000) / 1e9; break;                /* tiny */
        }
        o.len = 0;
        pw_out_f64(&o, v);
        o.buf[o.len] = '\0';
        char want[40];
        reference(v, want, sizeof want);
        if (strcmp(o.buf, want) && differ++ < 5)
            fprintf(stderr, "%.17g: %s, expected %s\n", v, o.buf, want);
    }
    CHECK_EQ_INT(differ, 0);
    /* what dumpi2ascii prints for pingpong4 rank 0's first call */
    o.len = 0;
    pw_out_f64(&o, (double)416828453258ull / 1e9);
    o.buf[o.len] = '\0';
    CHECK_STR(o.buf, "416.828453258");
    pw_outbuf_free(&o);
    fclose(null);
}

TEST_MAIN(T(test_same_text))
