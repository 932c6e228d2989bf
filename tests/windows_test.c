/*
 * windows_test.c - the footprint over windows of 2^k accesses
 * (analysis/locality/windows.h), split by set with sets settled late, against a
 * naive count: on random streams over a few blocks where a share of the
 * accesses learn their set later (settled at random later times, in any
 * order, several at once on one block, some only at the end), each access
 * in one to four of the rows (streams of their own over shared blocks), the
 * count of every level of every row, of its whole stream and of every set,
 * equals the number of distinct (window, block) pairs of the row's
 * accesses with their final sets, the row's accesses numbered on their own.
 *
 * Then the load-classes tool's footprint over windows (--classes), on
 * random traces and on random programs with loops: its loads' F(W) equals
 * the reuse tool's with --reuse-stream=loads (one definition, counted by
 * two tools; atomics turned into loads so that both count the same
 * accesses), and at the window that holds the whole run each class's F
 * equals the class's footprint of the whole run.
 *
 * Usage: windows_test [streams]
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/locality/windows.h"
#include "check.h"
#include "random_loops.h"
#include "random_trace.h"
#include "session_report.h"
#include "tool/session.h"

#define SETS 3
#define MAXN 4000
#define MAXB 48

/* ===================================================================== */
/* The split by set against a naive count                                 */
/* ===================================================================== */

/* Distinct (window of 2^k, block) pairs of the accesses of set s (s < 0: all of them) in row `row`. */
static uint64_t naive_level(const uint64_t *block, const int *set, const unsigned *rows, size_t n, unsigned k, int s,
                            unsigned row)
{
    static uint64_t last[MAXB]; /* window + 1 where the block was last counted */
    memset(last, 0, sizeof last);
    uint64_t count = 0, j = 0; /* j: the access's index in the row */
    for (size_t i = 0; i < n; i++) {
        if (!(rows[i] >> row & 1))
            continue;
        const uint64_t w = (k < 64 ? j >> k : 0) + 1;
        j++;
        if (s >= 0 && set[i] != s)
            continue;
        if (last[block[i]] != w) {
            last[block[i]] = w;
            count++;
        }
    }
    return count;
}

#define ROWS 4

static void test_split(int streams)
{
    static uint64_t block[MAXN];
    static int set[MAXN];
    static unsigned rows[MAXN];
    static uint32_t pending[ROWS * MAXN], ticket_of[ROWS * MAXN];
    for (int t = 0; t < streams; t++) {
        rt_seed((uint64_t)t + 7);
        const size_t n = 1 + rt_below(t % 10 == 0 ? MAXN : 300);
        const uint64_t n_blocks = 1 + rt_below(t % 3 ? 6 : MAXB);
        const uint64_t later = rt_below(4); /* a share 0, 1/4, 2/4, 3/4 of accesses settle late */
        const unsigned n_rows = 1 + (unsigned)rt_below(ROWS);
        edan_split_windows w;
        CHECK(edan_split_windows_init(&w, SETS) == 0, "init");
        for (unsigned r = 0; r < n_rows; r++)
            CHECK(edan_split_windows_add_row(&w) == r, "rows are numbered from 0");
        size_t n_pending = 0;
        for (size_t i = 0; i < n; i++) {
            block[i] = rt_below(n_blocks);
            set[i] = (int)rt_below(SETS);
            rows[i] = 1u + (unsigned)rt_below((1u << n_rows) - 1); /* a non-empty set of rows */
            const bool late = rt_below(4) < later;
            for (unsigned r = 0; r < n_rows; r++) {
                if (!(rows[i] >> r & 1))
                    continue;
                if (late) {
                    uint32_t ticket;
                    CHECK(edan_split_windows_access(&w, r, block[i] + 1000, EDAN_SPLIT_LATER, &ticket) == 0, "access");
                    ticket_of[n_pending] = ticket;
                    pending[n_pending++] = (uint32_t)i;
                } else {
                    CHECK(edan_split_windows_access(&w, r, block[i] + 1000, set[i], NULL) == 0, "access");
                }
            }
            /* settle some waiting ones, in any order */
            while (n_pending && rt_below(3) == 0) {
                const size_t j = rt_below(n_pending);
                CHECK(edan_split_windows_settle(&w, ticket_of[j], set[pending[j]]) == 0, "settle");
                pending[j] = pending[n_pending - 1];
                ticket_of[j] = ticket_of[--n_pending];
            }
        }
        while (n_pending) {
            const size_t j = rt_below(n_pending);
            CHECK(edan_split_windows_settle(&w, ticket_of[j], set[pending[j]]) == 0, "settle");
            pending[j] = pending[n_pending - 1];
            ticket_of[j] = ticket_of[--n_pending];
        }
        for (unsigned r = 0; r < n_rows; r++) {
            const edan_split_row *row = &w.rows[r];
            uint64_t in_row = 0;
            for (size_t i = 0; i < n; i++)
                in_row += rows[i] >> r & 1;
            CHECK_EQ_U64(row->accesses, in_row, "a row's accesses");
            for (unsigned k = 0; k < EDAN_WINDOW_LEVELS; k++) {
                char ctx[96];
                snprintf(ctx, sizeof ctx, "stream %d (%zu accesses), row %u, level %u, all", t, n, r, k);
                CHECK_EQ_U64(edan_windows_count(&row->all, k), naive_level(block, set, rows, n, k, -1, r), ctx);
                for (int s = 0; s < SETS; s++) {
                    snprintf(ctx, sizeof ctx, "stream %d (%zu accesses), row %u, level %u, set %d", t, n, r, k, s);
                    CHECK_EQ_U64(edan_windows_count(&row->set[s], k), naive_level(block, set, rows, n, k, s, r), ctx);
                }
            }
            /* the means: F(W) = count / windows, up to the window that holds the row's stream */
            double size[64], blocks[64];
            const size_t levels = edan_windows_mean(&row->all, row->accesses, size, blocks, 64);
            CHECK(in_row ? levels >= 1 && size[levels - 1] >= (double)in_row &&
                               (levels == 1 || size[levels - 2] < (double)in_row)
                         : levels == 0,
                  "stream %d: %zu levels for %llu accesses", t, levels, (unsigned long long)in_row);
            for (size_t i = 0; i < levels; i++) {
                const double windows = (double)((in_row + (1ull << i) - 1) >> i);
                CHECK(blocks[i] == (double)naive_level(block, set, rows, n, (unsigned)i, -1, r) / windows,
                      "stream %d: F(%.0f)", t, size[i]);
            }
        }
        edan_split_windows_free(&w);
    }
}

/* ===================================================================== */
/* Through the tools                                                      */
/* ===================================================================== */

static char *report(const edan_exec *recs, size_t n)
{
    edan_options o;
    edan_options_default(&o);
    edan_error err = {0};
    CHECK(edan_session_option_set(&o, "json", NULL, &err) == 0, "json");
    CHECK(edan_session_option_set(&o, "classes", NULL, &err) == 0, "classes: %s", err.msg);
    CHECK(edan_session_option_set(&o, "reuse", NULL, &err) == 0, "reuse: %s", err.msg);
    CHECK(edan_session_option_set(&o, "reuse-stream", "loads", &err) == 0, "reuse-stream: %s", err.msg);
    static const char *const only[] = {"reuse", "load-classes", NULL};
    return test_session_report(&o, only, NULL, recs, n, 13, false);
}

/* The JSON array after `key` within the object that starts at `within` (a copy; NULL if absent). */
static char *array(const char *json, const char *within, const char *key)
{
    const char *p = strstr(json, within);
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":[", key);
    p = p ? strstr(p, pat) : NULL;
    if (!p)
        return NULL;
    p += strlen(pat) - 1;
    return strndup(p, strcspn(p, "]") + 1);
}

/* The last number of a JSON array. */
static double last_of(const char *a)
{
    const char *p = a ? strrchr(a, ',') : NULL;
    return a ? atof(p ? p + 1 : a + 1) : -1;
}

/* The number after "key": in the object that follows `within`. */
static void check_tools(const edan_exec *recs, size_t n, const char *what, int t)
{
    char *j = report(recs, n);
    if (!j)
        return;
    const char *lc = strstr(j, "\"load_classes\":");
    const char *ld = lc ? strstr(lc, "\"loads\":[") : NULL; /* the whole run's windows follow the loads */
    const char *fw = ld ? strstr(ld, "\"footprint_windows\":") : NULL;
    char *reuse_blocks = array(j, "\"reuse\":", "blocks"), *reuse_window = array(j, "\"reuse\":", "window");
    char *lc_blocks = fw ? array(fw, "{", "blocks") : NULL, *lc_window = fw ? array(fw, "{", "window") : NULL;
    CHECK(reuse_blocks && lc_blocks && !strcmp(reuse_blocks, lc_blocks) && reuse_window && lc_window &&
              !strcmp(reuse_window, lc_window),
          "%s %d: the loads' F(W) of --classes %s differs from --reuse-stream=loads's %s", what, t, lc_blocks,
          reuse_blocks);
    CHECK(fw && test_json_num(fw, "{", "accesses") == test_json_num(j, "\"reuse\":", "accesses"), "%s %d: accesses",
          what, t);
    /* the largest window holds the run: F_c is the class's footprint */
    static const char *const cls[] = {"constant", "strided", "irregular"};
    for (int c = 0; c < 3 && fw; c++) {
        char *a = array(fw, "{", cls[c]);
        char within[64];
        snprintf(within, sizeof within, "\"%s\":{", cls[c]);
        const long long whole = test_json_num(strstr(lc, "\"all\":"), within, "blocks");
        CHECK(a && last_of(a) == (double)whole, "%s %d: F_%s at the largest window %g, of the run %lld", what, t,
              cls[c], last_of(a), whole);
        free(a);
    }
    CHECK(last_of(lc_blocks) == (double)test_json_num(lc, "\"all\":", "load_blocks"), "%s %d: F at the largest window",
          what, t);
    free(reuse_blocks);
    free(reuse_window);
    free(lc_blocks);
    free(lc_window);
    free(j);
}

int main(int argc, char **argv)
{
    const int streams = argc > 1 ? atoi(argv[1]) : 300;
    test_split(streams);
    static edan_insn table[24];
    static edan_exec recs[MAXN];
    for (int t = 0; t < streams / 3; t++) {
        rt_seed((uint64_t)t + 5000);
        const size_t n = 1 + rt_below(MAXN);
        rt_random_records(table, recs, n);
        for (int i = 0; i < 24; i++)
            if (table[i].mem == EDAN_MEM_AMO)
                table[i].mem = EDAN_MEM_LOAD;
        check_tools(recs, n, "trace", t);
    }
    static rl_program prog;
    for (int t = 0; t < streams / 3; t++) {
        rt_seed((uint64_t)t + 9000);
        const size_t n = rl_random_run(&prog, recs, MAXN);
        for (int i = 0; i < prog.n; i++)
            if (prog.code[i].mem == EDAN_MEM_AMO)
                prog.code[i].mem = EDAN_MEM_LOAD;
        check_tools(recs, n, "program", t);
    }
    return check_summary();
}
