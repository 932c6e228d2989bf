/* pointer_chase.c - pointer chase over a random cyclic permutation.
 *
 * Usage: pointer_chase [n]   (number of nodes = number of steps, default 16)
 *
 * next[] holds one n-cycle (Sattolo's algorithm, fixed-seed xorshift PRNG).
 * The kernel walks exactly n steps idx = next[idx]; every load's address
 * depends on the previous load, so memory work W = n and memory depth D = n.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa)) long kernel(const long *next, long start, long steps)
{
    long idx = start;
    for (long s = 0; s < steps; ++s)
        idx = next[idx];
    return idx;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t xorshift64(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 16;
    if (n < 1 || n > (1L << 26)) {
        fprintf(stderr, "usage: %s [n]  (1 <= n <= 2^26)\n", argv[0]);
        return 1;
    }
    long *perm = malloc((size_t)n * sizeof *perm);
    long *next = malloc((size_t)n * sizeof *next);
    if (!perm || !next) {
        perror("malloc");
        return 1;
    }
    /* Sattolo's algorithm: a uniformly random single cycle of length n. */
    for (long i = 0; i < n; ++i)
        perm[i] = i;
    for (long i = n - 1; i > 0; --i) {
        long j = (long)(xorshift64() % (uint64_t)i); /* j in [0, i) */
        long t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (long i = 0; i < n; ++i)
        next[i] = perm[i];
    free(perm);
    /* Sanity/checksum: after n steps a single cycle returns to the start. */
    long end = kernel(next, 0, n);
    long half = n > 1 ? next[next[0]] : 0;
    printf("pointer_chase n=%ld checksum=%ld%s\n", n, end * 1000003L + half,
           end == 0 ? "" : " (ERROR: not a single cycle)");
    free(next);
    return end == 0 ? 0 : 2;
}
