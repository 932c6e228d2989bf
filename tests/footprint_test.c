/*
 * The footprint tool against a naive reference: on random traces (accesses
 * of 1 to 8 bytes in overlapping windows, page crossings and the top of the
 * address space included), the distinct bytes and 64-byte lines it reports
 * through the session's JSON report equal those of a sorted list of every
 * byte touched. Per innermost loop, on random programs with nested loops
 * (tests/random_loops.h): each loop's distinct bytes, lines and accesses
 * equal those of a sorted list of (loop, byte) pairs, the loop of an access
 * being the innermost loop of its instruction (analysis/loops/loops.h, run over
 * the whole stream first). Also: the session runs it beside the eDAG tool
 * without changing the eDAG's report, and rejects an unknown tool.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/loops/loops.h"
#include "check.h"
#include "random_loops.h"
#include "random_trace.h"
#include "session_report.h"
#include "tool/session.h"

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Distinct bytes and lines of the accesses that happened, by sorting every byte address. */
static void naive(const edan_exec *recs, size_t n, uint64_t *bytes, uint64_t *lines)
{
    uint64_t *b = malloc(n * 16 * sizeof *b);
    size_t nb = 0;
    for (size_t i = 0; i < n; i++) {
        const edan_exec *r = &recs[i];
        if (r->insn->mem == EDAN_MEM_NONE || (r->flags & EDAN_EXEC_NO_ACCESS))
            continue;
        for (unsigned k = 0; k < r->insn->mem_size; k++)
            b[nb++] = r->addr + k;
    }
    qsort(b, nb, sizeof *b, cmp_u64);
    *bytes = *lines = 0;
    for (size_t i = 0; i < nb; i++) {
        if (i && b[i] == b[i - 1])
            continue;
        (*bytes)++;
        if (!*lines || b[i] / 64 != b[i - 1] / 64) /* sorted: a new line starts where the line changes */
            (*lines)++;
    }
    free(b);
}

typedef struct loop_fp {
    uint64_t head, bytes, lines, accesses;
} loop_fp;

static int cmp_pair(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Per innermost loop (by id, out[id]): distinct bytes and lines, and accesses, from sorted (loop, byte) pairs. */
static uint32_t naive_loops(const edan_exec *recs, size_t n, loop_fp *out, uint32_t cap)
{
    edan_loops *l = edan_loops_new(NULL);
    edan_loops_observe(l, recs, n);
    edan_loops_index(l);
    const uint32_t n_loops = edan_loops_count(l);
    CHECK(n_loops <= cap, "%u loops", n_loops);
    memset(out, 0, cap * sizeof *out);
    for (uint32_t i = 0; i < n_loops && i < cap; i++)
        out[i].head = edan_loops_get(l, i)->head;
    uint64_t *pairs = malloc(n * 16 * sizeof *pairs);
    size_t np = 0;
    for (size_t i = 0; i < n; i++) {
        const edan_exec *r = &recs[i];
        if (r->insn->mem == EDAN_MEM_NONE || (r->flags & EDAN_EXEC_NO_ACCESS))
            continue;
        const int32_t id = edan_loops_innermost(l, r->insn->pc);
        if (id < 0 || (uint32_t)id >= cap)
            continue;
        out[id].accesses++;
        for (unsigned k = 0; k < r->insn->mem_size; k++) {
            pairs[2 * np] = (uint64_t)id;
            pairs[2 * np + 1] = r->addr + k;
            np++;
        }
    }
    qsort(pairs, np, 2 * sizeof *pairs, cmp_pair);
    for (size_t i = 0; i < np; i++) {
        const uint64_t id = pairs[2 * i], b = pairs[2 * i + 1];
        const bool same_loop = i && pairs[2 * i - 2] == id;
        if (same_loop && pairs[2 * i - 1] == b)
            continue;
        out[id].bytes++;
        if (!same_loop || pairs[2 * i - 1] / 64 != b / 64)
            out[id].lines++;
    }
    free(pairs);
    edan_loops_free(l);
    return n_loops;
}

/* The report of a session with the given tools over recs, in *buf (free it). */
static int report(const edan_options *o, const char *const *only, const edan_exec *recs, size_t n, char **buf)
{
    *buf = test_session_report(o, only, NULL, recs, n, 7, false);
    return *buf ? 0 : -1;
}

int main(int argc, char **argv)
{
    const int traces = argc > 1 ? atoi(argv[1]) : 500;
    edan_options o;
    edan_options_default(&o);
    edan_error err = {0};
    CHECK(edan_session_option_set(&o, "json", NULL, &err) == 0, "json");
    CHECK(edan_session_option_set(&o, "footprint", NULL, &err) == 0, "footprint: %s", err.msg);
    CHECK(edan_session_option_set(&o, "footprint", "x", &err) == -1, "a flag takes no value");
    CHECK(edan_session_option_set(&o, "no-such-option", NULL, &err) == 1, "unknown options are left to the caller");
    static edan_insn table[24];
    static edan_exec recs[600];
    static const char *const fp_only[] = {"footprint", NULL}, *const both[] = {"edag", "footprint", NULL},
                             *const edag_only[] = {"edag", NULL};
    for (int t = 0; t < traces; t++) {
        rt_seed((uint64_t)t + 1);
        for (int i = 0; i < 24; i++)
            rt_random_insn(&table[i]);
        const size_t n = 1 + rt_below(600);
        rt_random_records(table, recs, n);
        uint64_t want_bytes, want_lines;
        naive(recs, n, &want_bytes, &want_lines);
        char *rep = NULL;
        if (report(&o, fp_only, recs, n, &rep))
            break;
        const char *at = strstr(rep, "\"footprint\":{");
        unsigned long long bytes = 0, lines = 0;
        CHECK(at && sscanf(at, "\"footprint\":{\"line_bytes\":64,\"bytes\":%llu,\"lines\":%llu", &bytes, &lines) == 2,
              "trace %d: %s", t, rep);
        CHECK_EQ_U64(bytes, want_bytes, "distinct bytes");
        CHECK_EQ_U64(lines, want_lines, "distinct lines");
        free(rep);
        /* beside the eDAG tool: the eDAG's part of the report is the eDAG tool's alone */
        if (t % 25 == 0) {
            char *alone = NULL, *with = NULL;
            report(&o, edag_only, recs, n, &alone);
            report(&o, both, recs, n, &with);
            const size_t len = strlen(alone) - 2; /* without the closing "}\n" */
            CHECK(!strncmp(alone, with, len) && !strncmp(with + len, ",\"footprint\":{", 14),
                  "trace %d: the eDAG section changed beside the footprint tool", t);
            free(alone);
            free(with);
        }
    }
    /* per innermost loop, on random programs with loops */
    static rl_program prog;
    static edan_exec lrecs[4000];
    static loop_fp want[RL_MAX_CODE];
    for (int t = 0; t < traces; t++) {
        rt_seed((uint64_t)t + 100000);
        const size_t n = rl_random_run(&prog, lrecs, 4000);
        const uint32_t n_loops = naive_loops(lrecs, n, want, RL_MAX_CODE);
        char *rep = NULL;
        if (report(&o, fp_only, lrecs, n, &rep))
            break;
        uint64_t want_bytes, want_lines;
        naive(lrecs, n, &want_bytes, &want_lines);
        const char *at = strstr(rep, "\"footprint\":{");
        unsigned long long bytes = 0, lines = 0, accesses = 0;
        CHECK(at && sscanf(at, "\"footprint\":{\"line_bytes\":64,\"bytes\":%llu,\"lines\":%llu,\"accesses\":%llu",
                           &bytes, &lines, &accesses) == 3,
              "program %d: %s", t, rep);
        CHECK_EQ_U64(bytes, want_bytes, "distinct bytes");
        CHECK_EQ_U64(lines, want_lines, "distinct lines");
        /* every loop with accesses has its row, and only those */
        uint32_t rows = 0, with_accesses = 0;
        for (uint32_t i = 0; i < n_loops; i++)
            with_accesses += want[i].accesses > 0;
        const char *p = at ? strstr(at, "\"loops\":[") : NULL;
        const char *end = p ? strstr(p, "\"loop_nests\":[") : NULL;
        while (p && (p = strstr(p, "{\"head\":")) && (!end || p < end)) {
            unsigned long long head, b, li, a;
            const char *q = strstr(p, ",\"bytes\":");
            CHECK(sscanf(p, "{\"head\":%llu", &head) == 1 && q &&
                      sscanf(q, ",\"bytes\":%llu,\"lines\":%llu,\"accesses\":%llu", &b, &li, &a) == 3,
                  "program %d: a loop row: %.200s", t, p);
            uint32_t id = 0;
            while (id < n_loops && want[id].head != head)
                id++;
            CHECK(id < n_loops, "program %d: no loop at %llx", t, head);
            if (id < n_loops) {
                CHECK_EQ_U64(b, want[id].bytes, "a loop's distinct bytes");
                CHECK_EQ_U64(li, want[id].lines, "a loop's distinct lines");
                CHECK_EQ_U64(a, want[id].accesses, "a loop's accesses");
            }
            rows++;
            p++;
        }
        CHECK_EQ_U64(rows, with_accesses, "loop rows");
        free(rep);
    }
    static const char *const bad[] = {"no-such-tool", NULL};
    err = (edan_error){0};
    CHECK(edan_session_new(&o, bad, NULL, &err) == NULL && strstr(err.msg, "no-such-tool"), "unknown tool: %s",
          err.msg);
    return check_summary();
}
