/*
 * native_chase.c - a host's load-to-use latency, for docs/accuracy.md's comparison of the host with its
 * machine file: a random cyclic pointer chase over NODES nodes of 64 bytes, node i at i x STRIDE bytes
 * (STRIDE 64: contiguous, the caches alone; STRIDE 4160: each node on its own 4 KiB page and in another
 * set, the TLB's misses added). Prints nanoseconds a step, the fastest of 5 timed walks of STEPS steps
 * (the thread's CPU time), after a walk that warms. Pin it (taskset) and compare two strides at one NODES.
 *   native_chase NODES STRIDE [STEPS]     e.g. native_chase 65536 64 (4 MiB), native_chase 512 4160
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    const size_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 0, stride = argc > 2 ? strtoull(argv[2], NULL, 0) : 0;
    const long steps = argc > 3 ? atol(argv[3]) : 2000000;
    if (n < 2 || stride < sizeof(void *) || steps < 1) {
        fprintf(stderr, "usage: native_chase NODES STRIDE [STEPS] (NODES >= 2, STRIDE >= %zu)\n", sizeof(void *));
        return 2;
    }
    char *mem = malloc(n * stride + 64);
    size_t *perm = malloc(n * sizeof *perm);
    if (!mem || !perm) {
        fprintf(stderr, "native_chase: out of memory for %zu nodes of stride %zu\n", n, stride);
        return 2;
    }
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    unsigned long long x = 88172645463325252ull; /* xorshift: the same cycle on every run */
    for (size_t i = n - 1; i > 0; i--) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        const size_t j = (size_t)(x % (i + 1)), t = perm[i];
        perm[i] = perm[j], perm[j] = t;
    }
    for (size_t i = 0; i < n; i++)
        *(void **)(mem + perm[i] * stride) = mem + perm[(i + 1) % n] * stride;
    void *p = mem + perm[0] * stride;
    for (size_t s = 0; s < 2 * n; s++)
        p = *(void **)p;
    double best = 1e30;
    for (int r = 0; r < 5; r++) {
        const double t0 = now();
        for (long s = 0; s < steps; s++)
            p = *(void **)p;
        const double t = now() - t0;
        best = t < best ? t : best;
    }
    printf("%.3f\n", best * 1e9 / (double)steps + (p == NULL)); /* p used: the walk is not optimised away */
    free(perm);
    free(mem);
    return 0;
}
