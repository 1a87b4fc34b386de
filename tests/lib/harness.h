/* harness.h — the smallest test harness that serves: CHECK records a
 * failure with file:line and goes on; TEST_MAIN runs the listed tests and
 * ends with the "N passed, N failed" line that CI reads. */
#ifndef PW_TEST_HARNESS_H
#define PW_TEST_HARNESS_H
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int harness_checks_failed;
static int harness_current_failed;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            harness_checks_failed++;                                                \
            harness_current_failed = 1;                                             \
        }                                                                           \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                    \
    do {                                                                                      \
        long long va_ = (long long)(a), vb_ = (long long)(b);                                 \
        if (va_ != vb_) {                                                                     \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld != %lld)\n", __FILE__,       \
                    __LINE__, #a, #b, va_, vb_);                                              \
            harness_checks_failed++;                                                          \
            harness_current_failed = 1;                                                       \
        }                                                                                     \
    } while (0)

#define CHECK_STR(a, b)                                                                        \
    do {                                                                                       \
        const char *sa_ = (a), *sb_ = (b);                                                     \
        if (!sa_ || !sb_ || strcmp(sa_, sb_)) {                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (\"%s\" != \"%s\")\n", __FILE__,    \
                    __LINE__, #a, #b, sa_ ? sa_ : "(null)", sb_ ? sb_ : "(null)");             \
            harness_checks_failed++;                                                           \
            harness_current_failed = 1;                                                        \
        }                                                                                      \
    } while (0)

typedef struct harness_test {
    const char *name;
    void (*fn)(void);
} harness_test;

/* Runs the tests in order and prints the closing line; returns the exit
 * code.  Tests that need arguments call it from their own main. */
static inline int harness_run(const harness_test *tests, size_t n)
{
    int passed = 0, failed = 0;
    for (size_t i = 0; i < n; i++) {
        harness_current_failed = 0;
        tests[i].fn();
        if (harness_current_failed) {
            failed++;
            fprintf(stderr, "FAIL %s\n", tests[i].name);
        } else {
            passed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}

#define TEST_MAIN(...)                                                   \
    int main(void)                                                       \
    {                                                                    \
        static const harness_test tests_[] = {__VA_ARGS__};              \
        return harness_run(tests_, sizeof tests_ / sizeof *tests_);      \
    }
#define T(fn) {#fn, fn}
#endif
