/*
 * The footprint tool against a naive reference: on random traces (accesses
 * of 1 to 8 bytes in overlapping windows, page crossings and the top of the
 * address space included), the distinct bytes and 64-byte lines it reports
 * through the session's JSON report equal those of a sorted list of every
 * byte touched. Also: the session runs it beside the eDAG tool without
 * changing the eDAG's report, and rejects an unknown tool.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "random_trace.h"
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

/* The report of a session with the given tools over recs, in *buf (free it). */
static int report(const edan_options *o, const char *const *only, const edan_exec *recs, size_t n, char **buf)
{
    edan_error err = {0};
    const edan_report_source src = {"trace", "random", NULL, ""};
    edan_session *s = edan_session_new(o, only, &src, &err);
    CHECK(s != NULL, "session: %s", err.msg);
    if (!s)
        return -1;
    edan_consumer k = edan_session_consumer(s);
    for (size_t i = 0; i < n; i += 7)
        k.consume(k.ctx, recs + i, n - i < 7 ? n - i : 7);
    CHECK(edan_session_finish(s, &err) == 0, "finish: %s", err.msg);
    size_t len;
    FILE *f = open_memstream(buf, &len);
    CHECK(edan_session_report(s, f, &err) == 0, "report: %s", err.msg);
    fclose(f);
    edan_session_free(s);
    return 0;
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
    static const char *const bad[] = {"no-such-tool", NULL};
    err = (edan_error){0};
    CHECK(edan_session_new(&o, bad, NULL, &err) == NULL && strstr(err.msg, "no-such-tool"), "unknown tool: %s",
          err.msg);
    return check_summary();
}
