/*
 * reuse_speed: how fast the stack distance and reuse time tracker
 * (analysis/locality/reuse.h) and the footprint tool run on their own, for issue
 * 22's targets (exact stack distance >= 10 M accesses/s with a footprint of
 * 1 M lines; footprint and reuse time >= 50 M/s; memory proportional to the
 * distinct lines).
 *
 *   reuse_speed [LINES [ACCESSES]]       (defaults 1048576 and 20000000)
 *
 * Streams over LINES distinct 64-byte lines, generated into memory first:
 * "random" (uniform over the lines), "sweep" (a cyclic sweep, every access
 * at distance LINES - 1), "hot/cold" (90 % of accesses to 1 % of the lines).
 * Modes: the tracker with stack distances, the tracker with reuse times
 * only (both as the tools call it: a hint eight accesses ahead), and
 * --footprint: the footprint tool (distinct bytes and lines, per
 * instruction, function and loop) in a session, fed 8-byte loads of one
 * instruction in batches of 4096 records. Each is run three times; the
 * median rate, and the bytes per distinct line (of the tracker; for the
 * tool, the growth of the process's resident memory from before the
 * session to the end of the stream), are printed as one tab-separated row
 * per stream and mode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/locality/reuse.h"
#include "tool/session.h"

#define BATCH 4096

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Bytes the process has resident now (/proc/self/statm); 0 when unknown. */
static double resident_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long size = 0, resident = 0;
    const int got = f ? fscanf(f, "%lu %lu", &size, &resident) : 0;
    if (f)
        fclose(f);
    return got == 2 ? (double)resident * (double)sysconf(_SC_PAGESIZE) : 0;
}

/* The tracker over blocks[0..n): M accesses/s; *bytes and *distinct of the tracker at the end. */
static double run_tracker(const uint64_t *blocks, size_t n, bool distances, double *bytes, uint64_t *distinct)
{
    uint64_t sum = 0;
    edan_reuse *r = edan_reuse_new(distances);
    if (!r)
        exit(2);
    const double t0 = now();
    for (size_t i = 0; i < n; i++) {
        uint64_t d = 0, prev;
        if (i + 8 < n) /* as the tools do: a batch's blocks are known ahead */
            edan_reuse_prefetch(r, blocks[i + 8]);
        sum += edan_reuse_access(r, blocks[i], &d, &prev) + d;
    }
    const double rate = (double)n / (now() - t0) / 1e6;
    *bytes = (double)edan_reuse_bytes(r);
    *distinct = edan_reuse_blocks(r);
    edan_reuse_free(r);
    if (sum == 42) /* keeps the loop's results alive */
        puts("");
    return rate;
}

/* The footprint tool over loads of blocks[0..n): M accesses/s; *bytes what it holds, *distinct its lines. */
static double run_footprint(const uint64_t *blocks, size_t n, double *bytes, uint64_t *distinct)
{
    static edan_insn load;
    memset(&load, 0, sizeof load);
    load.pc = 0x10000;
    load.size = 4;
    load.mem = EDAN_MEM_LOAD;
    load.mem_size = 8;
    load.cls = EDAN_CLASS_LOAD;
    static edan_exec recs[BATCH];
    edan_options o;
    edan_options_default(&o);
    edan_error err = {0};
    static const char *const only[] = {"footprint", NULL};
    const edan_report_source src = {"trace", "reuse_speed", NULL, "", false, {0}, false, 0, NULL, false};
    if (edan_session_option_set(&o, "json", NULL, &err) || edan_session_option_set(&o, "footprint", NULL, &err))
        exit(2);
    const double before = resident_bytes();
    edan_session *s = edan_session_new(&o, only, &src, &err);
    if (!s)
        exit(2);
    edan_consumer k = edan_session_consumer(s);
    const double t0 = now();
    for (size_t i = 0; i < n; i += BATCH) {
        const size_t m = n - i < BATCH ? n - i : BATCH;
        for (size_t j = 0; j < m; j++)
            recs[j] = (edan_exec){.insn = &load, .addr = blocks[i + j] << 6, .id = 0};
        k.consume(k.ctx, recs, m);
    }
    *bytes = resident_bytes() - before; /* the session's state at the end of the stream */
    if (edan_session_finish(s, &err))
        exit(2);
    const double rate = (double)n / (now() - t0) / 1e6;
    char *rep = NULL;
    size_t len;
    FILE *f = open_memstream(&rep, &len);
    if (!f || edan_session_report(s, f, &err))
        exit(2);
    fclose(f);
    unsigned long long lines = 0;
    const char *at = strstr(rep, "\"lines\":");
    if (!at || sscanf(at, "\"lines\":%llu", &lines) != 1)
        exit(2);
    *distinct = lines;
    free(rep);
    edan_session_free(s);
    return rate;
}

int main(int argc, char **argv)
{
    const uint64_t lines = argc > 1 ? strtoull(argv[1], NULL, 0) : 1u << 20;
    const size_t n = argc > 2 ? strtoull(argv[2], NULL, 0) : 20000000;
    uint64_t *blocks = malloc(n * sizeof *blocks);
    if (!blocks || lines < 100)
        return 2;
    static const char *const names[] = {"random", "sweep", "hot/cold"};
    static const char *const modes[] = {"stack distance", "reuse time", "footprint"};
    printf("stream\tmode\tlines\taccesses\tM accesses/s\tbytes per line\n");
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < n; i++) {
            const uint64_t line = k == 0        ? next() % lines
                                  : k == 1      ? i % lines
                                  : next() % 10 ? next() % (lines / 100)
                                                : next() % lines;
            blocks[i] = 0x10000 + line; /* a block number: the address >> 6 */
        }
        for (int mode = 0; mode < 3; mode++) {
            double rate[3], bytes = 0;
            uint64_t distinct = 0;
            for (int run = 0; run < 3; run++)
                rate[run] = mode == 2 ? run_footprint(blocks, n, &bytes, &distinct)
                                      : run_tracker(blocks, n, mode == 0, &bytes, &distinct);
            for (int a = 0; a < 3; a++) /* median of three */
                for (int b = a + 1; b < 3; b++)
                    if (rate[b] < rate[a]) {
                        const double t = rate[a];
                        rate[a] = rate[b];
                        rate[b] = t;
                    }
            printf("%s\t%s\t%llu\t%zu\t%.1f\t%.1f\n", names[k], modes[mode], (unsigned long long)distinct, n, rate[1],
                   bytes / (double)distinct);
        }
    }
    free(blocks);
    return 0;
}
