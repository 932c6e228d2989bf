/*
 * threads_test.c - the locality tools' rows per thread (vCPU) against naive
 * references, on random streams whose records come from 1 to 4 vCPUs
 * (numbers from a pool with gaps, 0 not always among them) interleaved in
 * runs of random length, fed to the session in batches of random size:
 *   - each row of the footprint tool's "threads" equals a set-based count
 *     over that vCPU's records: distinct bytes and 64-byte lines (a sorted
 *     list of every byte it touched) and accesses;
 *   - each row of the reuse tool's "threads" equals a brute-force LRU list
 *     over the one shared, interleaved stream of block accesses, each
 *     access's distance attributed to the vCPU that made it: accesses,
 *     cold ones, and misses of fully associative LRU caches of 2, 8 and 32
 *     blocks;
 *   - the rows are exactly the vCPUs with accesses, in ascending order, in
 *     the JSON report and the CSV tables; the text report shows the threads'
 *     tables only when more than one thread made accesses;
 *   - everything else the two tools report (the whole run, functions, loops,
 *     histograms) is the same as for the same stream on one vCPU.
 *
 * Usage: threads_test [streams]
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "random_trace.h"
#include "session_report.h"
#include "tool/session.h"

#define MAXREC 3000
#define MAXV 4
#define SIZES 3
static const uint64_t size_blocks[SIZES] = {2, 8, 32};
static const uint16_t pool[] = {0, 1, 2, 3, 5, 63, 64, 300};

/* The session's report of recs (JSON, or text), in batches of `batch`; CSV tables into csv_dir when given. */
static char *report(const edan_exec *recs, size_t n, size_t batch, bool json, const char *csv_dir)
{
    edan_options o;
    edan_options_default(&o);
    edan_error err = {0};
    static const char *const opts[] = {"footprint", NULL, "reuse", NULL, "reuse-sizes", "128,512,2K", NULL};
    if (json)
        CHECK(edan_session_option_set(&o, "json", NULL, &err) == 0, "json");
    if (csv_dir)
        CHECK(edan_session_option_set(&o, "csv-dir", csv_dir, &err) == 0, "csv-dir: %s", err.msg);
    for (const char *const *p = opts; *p; p += 2)
        CHECK(edan_session_option_set(&o, p[0], p[1], &err) == 0, "%s: %s", p[0], err.msg);
    char *buf = test_session_report(&o, NULL, NULL, recs, n, batch, csv_dir != NULL);
    return buf ? buf : strdup("");
}

typedef struct want {
    uint16_t vcpu;
    uint64_t bytes, lines, accesses;              /* the footprint tool's */
    uint64_t block_accesses, cold, misses[SIZES]; /* the reuse tool's */
} want;

/* The naive rows of the vCPUs with accesses, ascending, into w; their count. */
static size_t naive(const edan_exec *recs, size_t n, want *w)
{
    static uint64_t stack[16 * MAXREC], bytes[8 * MAXREC];
    size_t nw = 0;
    for (size_t p = 0; p < sizeof pool / sizeof pool[0]; p++) {
        want *x = &w[nw];
        memset(x, 0, sizeof *x);
        x->vcpu = pool[p];
        size_t nb = 0;
        for (size_t i = 0; i < n; i++)
            if (recs[i].vcpu == x->vcpu && test_accesses_memory(&recs[i])) {
                x->accesses++;
                for (unsigned k = 0; k < recs[i].insn->mem_size; k++)
                    bytes[nb++] = recs[i].addr + k;
            }
        if (!x->accesses)
            continue;
        x->bytes = test_distinct_u64(bytes, nb);
        for (size_t i = 0; i < nb; i++)
            bytes[i] /= 64;
        x->lines = test_distinct_u64(bytes, nb);
        nw++;
    }
    /* the shared stream: one LRU list, each block access's distance to its record's vCPU */
    size_t depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (!test_accesses_memory(&recs[i]))
            continue;
        want *x = w;
        while (x->vcpu != recs[i].vcpu)
            x++;
        const uint64_t lo = recs[i].addr >> 6, hi = (recs[i].addr + recs[i].insn->mem_size - 1) >> 6;
        for (uint64_t b = lo;; b++) {
            size_t d = 0;
            while (d < depth && stack[d] != b)
                d++;
            x->block_accesses++;
            x->cold += d == depth;
            for (int s = 0; s < SIZES; s++)
                x->misses[s] += d == depth || d >= size_blocks[s]; /* cold: a miss */
            memmove(&stack[1], &stack[0], (d < depth ? d : depth) * sizeof *stack);
            stack[0] = b;
            depth += d == depth;
            if (b == hi)
                break;
        }
    }
    return nw;
}

/* Where the "threads" array of the tool's object at `tool` starts and (*end) ends; NULL when absent. */
static const char *threads_of(const char *json, const char *tool, const char **end)
{
    const char *obj = strstr(json, tool);
    const char *p = obj ? strstr(obj, "\"threads\":[") : NULL;
    if (!p)
        return NULL;
    int depth = 0;
    const char *e = p + strlen("\"threads\":");
    for (; *e; e++) {
        depth += (*e == '[' || *e == '{') - (*e == ']' || *e == '}');
        if (!depth)
            break;
    }
    *end = e;
    return p;
}

static void check_rows(const char *json, const char *tool, const want *w, size_t nw, int t)
{
    const char *end, *p = threads_of(json, tool, &end);
    CHECK(p != NULL, "stream %d: %s has no threads", t, tool);
    if (!p)
        return;
    const bool reuse = !strcmp(tool, "\"reuse\":");
    size_t rows = 0;
    while ((p = strstr(p, "{\"vcpu\":")) && p < end) {
        char ctx[96];
        snprintf(ctx, sizeof ctx, "stream %d, %s row %zu", t, tool, rows);
        CHECK(rows < nw, "%s: more rows than vCPUs with accesses (%zu)", ctx, nw);
        if (rows >= nw)
            break;
        const want *x = &w[rows];
        CHECK_EQ_U64(test_json_num(p, "{", "vcpu"), x->vcpu, ctx);
        if (reuse)
            test_check_reuse_row(p, x->block_accesses, x->cold, x->misses, SIZES, ctx);
        else
            test_check_footprint_row(p, x->bytes, x->lines, x->accesses, ctx);
        rows++;
        p++;
    }
    CHECK(rows == nw, "stream %d: %s: %zu thread rows, %zu vCPUs with accesses", t, tool, rows, nw);
}

/* json without the tools' "threads" members. */
static char *without_threads(const char *json)
{
    char *s = strdup(json);
    for (const char *tool = "\"footprint\":";; tool = "\"reuse\":") {
        const char *end, *p = threads_of(s, tool, &end);
        if (p)
            memmove(s + (p - s), end + 2, strlen(end + 2) + 1); /* the member and its comma */
        if (!strcmp(tool, "\"reuse\":"))
            break;
    }
    return s;
}

/* The CSV table's rows after the header, as one string ("" when absent). */
static char *csv_rows(const char *dir, const char *table)
{
    char path[512];
    snprintf(path, sizeof path, "%s/random-%s.csv", dir, table);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "no %s", path);
    if (!f)
        return strdup("");
    char *buf = NULL;
    size_t cap = 0, len = 0;
    char line[512];
    bool header = true;
    while (fgets(line, sizeof line, f)) {
        if (header) {
            header = false;
            continue;
        }
        const size_t l = strlen(line);
        if (len + l + 1 > cap) {
            cap = 2 * (len + l + 1);
            buf = realloc(buf, cap);
        }
        memcpy(buf + len, line, l + 1);
        len += l;
    }
    fclose(f);
    return buf ? buf : strdup("");
}

int main(int argc, char **argv)
{
    const int streams = argc > 1 ? atoi(argv[1]) : 200;
    static edan_insn table[24];
    static edan_exec recs[MAXREC];
    static want w[sizeof pool / sizeof pool[0]];
    char dir[] = "/tmp/edan_threads_testXXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    size_t multi = 0;
    for (int t = 0; t < streams; t++) {
        rt_seed((uint64_t)t + 9001);
        const size_t n = 1 + rt_below(MAXREC);
        rt_random_records(table, recs, n);
        /* wider windows too: most accesses within 2 KiB, some in 40 bytes at a page's or the space's top */
        static const uint64_t bases[] = {0x10000, 0x2ffc, 0xfffffffffff0ull};
        for (size_t i = 0; i < n; i++)
            if (recs[i].addr && rt_below(4)) {
                const int b = (int)rt_below(3);
                recs[i].addr = bases[b] + rt_below(b ? 40 : 2048);
            }
        /* 1 to 4 vCPUs, in runs of 1 to 40 records */
        uint16_t v[MAXV];
        const size_t nv = 1 + rt_below(MAXV);
        for (size_t k = 0; k < nv; k++) {
            bool again;
            do {
                v[k] = pool[rt_below(sizeof pool / sizeof pool[0])];
                again = false;
                for (size_t j = 0; j < k; j++)
                    again |= v[j] == v[k];
            } while (again);
        }
        for (size_t i = 0; i < n;) {
            const uint16_t cpu = v[rt_below(nv)];
            for (size_t run = 1 + rt_below(40); run && i < n; run--)
                recs[i++].vcpu = cpu;
        }
        const size_t nw = naive(recs, n, w);
        multi += nw > 1;
        const size_t batch = 1 + rt_below(70);
        const bool csv = t % 10 == 0;
        char *j = report(recs, n, batch, true, csv ? dir : NULL);
        check_rows(j, "\"footprint\":", w, nw, t);
        check_rows(j, "\"reuse\":", w, nw, t);
        /* the same stream on one vCPU: every other number the same, one thread row */
        for (size_t i = 0; i < n; i++)
            recs[i].vcpu = 7;
        char *one = report(recs, n, 1 + rt_below(70), true, NULL);
        char *a = without_threads(j), *b = without_threads(one);
        CHECK(!strcmp(a, b), "stream %d: the report but its thread rows depends on the vCPUs", t);
        for (const char *tool = "\"footprint\":";; tool = "\"reuse\":") {
            const char *end, *p = threads_of(one, tool, &end);
            size_t rows = 0;
            for (const char *q = p; q && (q = strstr(q + 1, "{\"vcpu\":7,")) && q < end;)
                rows++;
            CHECK(p && rows == (nw > 0) && !memchr(p, '}', (size_t)(end - p)) == !rows,
                  "stream %d: %s: one vCPU, %zu rows", t, tool, rows);
            if (!strcmp(tool, "\"reuse\":"))
                break;
        }
        free(a);
        free(b);
        free(one);
        free(j);
        if (csv) { /* the CSV tables: the same rows */
            char want_fp[4096] = "", want_ru[4096] = "";
            for (size_t k = 0; k < nw; k++) {
                const want *x = &w[k];
                char g[64];
                snprintf(g, sizeof g, "%.10g", x->accesses ? (double)x->lines / (double)x->accesses : 0.0);
                snprintf(want_fp + strlen(want_fp), sizeof want_fp - strlen(want_fp),
                         "%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s\n", x->vcpu, x->bytes, x->lines, x->accesses, g);
                snprintf(want_ru + strlen(want_ru), sizeof want_ru - strlen(want_ru),
                         "%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", x->vcpu, x->block_accesses,
                         x->cold, x->misses[0], x->misses[1], x->misses[2]);
            }
            char *fp = csv_rows(dir, "footprint-threads"), *ru = csv_rows(dir, "reuse-threads");
            CHECK(!strcmp(fp, want_fp), "stream %d: footprint-threads.csv:\n%s\nwant\n%s", t, fp, want_fp);
            CHECK(!strcmp(ru, want_ru), "stream %d: reuse-threads.csv:\n%s\nwant\n%s", t, ru, want_ru);
            free(fp);
            free(ru);
        }
        /* the text report: the threads' tables when more than one thread made accesses */
        for (size_t i = 0; i < n; i++)
            recs[i].vcpu = v[i % nv];
        const size_t shown = naive(recs, n, w);
        char *text = report(recs, n, batch, false, NULL);
        const char *th = strstr(text, "thread (vCPU)");
        CHECK((shown > 1) == (th != NULL) && (!th || strstr(th + 1, "thread (vCPU)")),
              "stream %d: %zu threads with accesses, the threads' tables %s", t, shown, th ? "shown" : "not shown");
        free(text);
    }
    CHECK(multi > (size_t)streams / 2, "%zu streams of several threads with accesses", multi);
    /* the CSV files the reports wrote, then the directory (no shell) */
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_name[0] != '.')
            CHECK(unlink(path) == 0, "unlink %s", path);
    }
    if (d)
        closedir(d);
    CHECK(rmdir(dir) == 0, "rmdir %s", dir);
    return check_summary();
}
