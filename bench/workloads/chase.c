/*
 * chase.c - pointer-chase benchmark workload for edan.
 *
 *   chase N [STEPS]
 *
 * Builds a random single cycle over N nodes (Sattolo's algorithm driven by a
 * deterministic splitmix64 generator) and walks STEPS steps (default N) of
 * idx = next[idx] from node 0 in the kernel function chase() (trace it with
 * --filter=chase). Every load depends on the previous one. After a multiple
 * of N steps the walk is back at node 0.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;

static uint64_t splitmix64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

__attribute__((noinline, noipa)) size_t chase(const size_t *next, size_t start, long steps)
{
    size_t idx = start;
    for (long s = 0; s < steps; s++)
        idx = next[idx];
    return idx;
}

static long parse_arg(const char *s, const char *what, long min)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min) {
        fprintf(stderr, "chase: bad %s '%s' (integer >= %ld expected)\n", what, s, min);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: chase N [STEPS]\n");
        return 2;
    }
    size_t n = (size_t)parse_arg(argv[1], "N", 1);
    long steps = argc > 2 ? parse_arg(argv[2], "STEPS", 0) : (long)n;

    size_t *next = malloc(n * sizeof *next);
    size_t *perm = malloc(n * sizeof *perm);
    if (!next || !perm) {
        fprintf(stderr, "chase: out of memory\n");
        return 1;
    }
    /* Sattolo's algorithm: a uniformly random permutation with a single cycle. */
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(splitmix64() % i); /* j < i */
        size_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    /* Visit order perm[0], perm[1], ...: link each node to the following one. */
    for (size_t i = 0; i < n; i++)
        next[perm[i]] = perm[(i + 1) % n];
    free(perm);

    /* Setup check (not traced): the cycle through node 0 has length exactly n. */
    size_t len = 0, idx = 0;
    do {
        idx = next[idx];
        len++;
    } while (idx != 0 && len <= n);
    if (len != n) {
        fprintf(stderr, "chase: cycle length %zu != %zu\n", len, n);
        return 1;
    }

    size_t end = chase(next, 0, steps);
    int ok = (steps % (long)n != 0) || end == 0;
    printf("chase: n=%zu steps=%ld end=%zu%s\n", n, steps, end,
           steps % (long)n == 0 ? (ok ? " (back at start: ok)" : " (NOT back at start: FAILED)") : "");
    free(next);
    return ok ? 0 : 1;
}
