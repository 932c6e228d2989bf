/*
 * check.h - the minimal test harness: CHECK counts, reports failures with
 * file:line, and check_summary() prints "N passed, N failed" and returns the
 * exit status.
 */
#ifndef EDAN_TESTS_CHECK_H
#define EDAN_TESTS_CHECK_H

#include <inttypes.h>
#include <stdio.h>

static unsigned long check_passed, check_failed;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (cond) {                                                                                                    \
            check_passed++;                                                                                            \
        } else {                                                                                                       \
            check_failed++;                                                                                            \
            fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond);                                         \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
        }                                                                                                              \
    } while (0)

#define CHECK_EQ_U64(a, b, ctx)                                                                                        \
    CHECK((uint64_t)(a) == (uint64_t)(b), "%s: %s = %" PRIu64 ", expected %" PRIu64, ctx, #a, (uint64_t)(a),           \
          (uint64_t)(b))

static inline int check_summary(void)
{
    printf("%lu passed, %lu failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

#endif
