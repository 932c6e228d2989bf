/*
 * session_report.h - records through an analysis session, for the tools'
 * tests: the session's report of recs as a string; the distinct values of
 * an array (the naive references' count of bytes, lines and blocks); a
 * number of the JSON report, and a footprint or reuse row checked against
 * the naive reference's values.
 */
#ifndef EDAN_TESTS_SESSION_REPORT_H
#define EDAN_TESTS_SESSION_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    const edan_report_source src = {"trace", "random", binary, "", false, {0}, false, 0, NULL, false};
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

/* The number after "key": in the text that follows `within` in json (-1 if absent). */
static inline long long test_json_num(const char *json, const char *within, const char *key)
{
    const char *p = json ? strstr(json, within) : NULL;
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    p = p ? strstr(p, pat) : NULL;
    return p ? atoll(p + strlen(pat)) : -1;
}

/* Whether a record made a data access (a memory instruction that performed one, of some bytes). */
static inline bool test_accesses_memory(const edan_exec *r)
{
    return r->insn->mem != EDAN_MEM_NONE && !(r->flags & EDAN_EXEC_NO_ACCESS) && r->insn->mem_size;
}

/* A footprint row of JSON at p: its bytes, lines and accesses. */
static inline void test_check_footprint_row(const char *p, uint64_t bytes, uint64_t lines, uint64_t accesses,
                                            const char *ctx)
{
    CHECK_EQ_U64(test_json_num(p, "{", "bytes"), bytes, ctx);
    CHECK_EQ_U64(test_json_num(p, "{", "lines"), lines, ctx);
    CHECK_EQ_U64(test_json_num(p, "{", "accesses"), accesses, ctx);
}

/* A reuse row of JSON at p: its block accesses, cold ones and the first `sizes` of its "misses". */
static inline void test_check_reuse_row(const char *p, uint64_t accesses, uint64_t cold, const uint64_t *misses,
                                        int sizes, const char *ctx)
{
    CHECK_EQ_U64(test_json_num(p, "{", "accesses"), accesses, ctx);
    CHECK_EQ_U64(test_json_num(p, "{", "cold"), cold, ctx);
    const char *m = strstr(p, "\"misses\":[");
    CHECK(m != NULL, "%s: no misses", ctx);
    for (int k = 0; k < sizes && m; k++) {
        m = k ? strchr(m, ',') + 1 : m + strlen("\"misses\":[");
        CHECK_EQ_U64(atoll(m), misses[k], ctx);
    }
}

#endif
