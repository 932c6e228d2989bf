/*
 * reuse_speed: how fast the stack distance and reuse time tracker
 * (analysis/reuse.h) runs on its own, for issue 22's targets (exact stack
 * distance >= 10 M accesses/s with a footprint of 1 M lines; reuse time
 * >= 50 M/s; memory proportional to the distinct lines).
 *
 *   reuse_speed [LINES [ACCESSES]]       (defaults 1048576 and 20000000)
 *
 * Streams over LINES distinct 64-byte lines, generated into memory first:
 * "random" (uniform over the lines), "sweep" (a cyclic sweep, every access
 * at distance LINES - 1), "hot/cold" (90 % of accesses to 1 % of the lines).
 * Each is run three times; the median rate, and the tracker's bytes per
 * distinct line, are printed as one tab-separated row per stream and mode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analysis/reuse.h"

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

int main(int argc, char **argv)
{
    const uint64_t lines = argc > 1 ? strtoull(argv[1], NULL, 0) : 1u << 20;
    const size_t n = argc > 2 ? strtoull(argv[2], NULL, 0) : 20000000;
    uint64_t *blocks = malloc(n * sizeof *blocks);
    if (!blocks || lines < 100)
        return 2;
    static const char *const names[] = {"random", "sweep", "hot/cold"};
    printf("stream\tmode\tlines\taccesses\tM accesses/s\tbytes per line\n");
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < n; i++) {
            const uint64_t line = k == 0        ? next() % lines
                                  : k == 1      ? i % lines
                                  : next() % 10 ? next() % (lines / 100)
                                                : next() % lines;
            blocks[i] = 0x10000 + line; /* a block number: the address >> 6 */
        }
        for (int mode = 0; mode < 2; mode++) {
            double rate[3];
            uint64_t bytes = 0, distinct = 0, sum = 0;
            for (int run = 0; run < 3; run++) {
                edan_reuse *r = edan_reuse_new(mode == 0);
                const double t0 = now();
                for (size_t i = 0; i < n; i++) {
                    uint64_t d = 0, prev;
                    if (i + 8 < n) /* as the tools do: a batch's blocks are known ahead */
                        edan_reuse_prefetch(r, blocks[i + 8]);
                    sum += edan_reuse_access(r, blocks[i], &d, &prev) + d;
                }
                rate[run] = (double)n / (now() - t0) / 1e6;
                bytes = edan_reuse_bytes(r);
                distinct = edan_reuse_blocks(r);
                edan_reuse_free(r);
            }
            for (int a = 0; a < 3; a++) /* median of three */
                for (int b = a + 1; b < 3; b++)
                    if (rate[b] < rate[a]) {
                        const double t = rate[a];
                        rate[a] = rate[b];
                        rate[b] = t;
                    }
            printf("%s\t%s\t%llu\t%zu\t%.1f\t%.1f\n", names[k], mode == 0 ? "stack distance" : "reuse time",
                   (unsigned long long)distinct, n, rate[1], (double)bytes / (double)distinct);
            if (sum == 42) /* keeps the loop's results alive */
                puts("");
        }
    }
    free(blocks);
    return 0;
}
