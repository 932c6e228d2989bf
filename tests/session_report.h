/*
 * session_report.h - records through an analysis session, for the tools'
 * tests: the session's report of recs as a string, and the distinct values
 * of an array (the naive references' count of bytes, lines and blocks).
 */
#ifndef EDAN_TESTS_SESSION_REPORT_H
#define EDAN_TESTS_SESSION_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "tool/session.h"

/*
 * The report of a session of the tools `only` (NULL: those o asks for) with
 * options o over recs[0 .. n), fed in batches of `batch`, binary the traced
 * program (NULL: none); with outputs, the session also writes its CSV and
 * plot files. A string to free, or NULL when the session cannot be made.
 */
static inline char *test_session_report(const edan_options *o, const char *const *only, const char *binary,
                                        const edan_exec *recs, size_t n, size_t batch, bool outputs)
{
    edan_error err = {0};
    const edan_report_source src = {"trace", "random", binary, ""};
    edan_session *s = edan_session_new(o, only, &src, &err);
    CHECK(s != NULL, "session: %s", err.msg);
    if (!s)
        return NULL;
    edan_consumer k = edan_session_consumer(s);
    for (size_t i = 0; i < n; i += batch)
        k.consume(k.ctx, recs + i, n - i < batch ? n - i : batch);
    CHECK(edan_session_finish(s, &err) == 0, "finish: %s", err.msg);
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    CHECK(edan_session_report(s, f, &err) == 0, "report: %s", err.msg);
    fclose(f);
    if (outputs)
        CHECK(edan_session_outputs(s, &err) == 0, "outputs: %s", err.msg);
    edan_session_free(s);
    return buf;
}

static inline int test_cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Distinct values among v[0 .. n) (sorted in place). */
static inline uint64_t test_distinct_u64(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, test_cmp_u64);
    uint64_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += !i || v[i] != v[i - 1];
    return d;
}

#endif
