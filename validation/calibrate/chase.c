/* chase.c - the calibration pointer chase: N nodes of one 64-byte line each, linked in a random
 * cycle, walked STEPS times; prints the walk's time in seconds (9 decimals), as the PolyBench-style
 * programs of the validation do, so the sweep can time it in gem5 and predict it with edan.
 *   chase N STEPS     (kernel: chase)
 * With N lines fitting the L1, the L2, or neither, one step costs an L1 hit, an L2 hit or a memory
 * access: validation/calibrate.py compares those with the timing model's, from two walks of
 * different lengths (their difference cancels what the walk's start costs: cold misses, timer). */
#include <stdlib.h>

#include "calib.h"

typedef struct node {
    struct node *next;
    char pad[56];
} node;

__attribute__((noinline)) node *chase(node *p, long steps)
{
    for (long s = 0; s < steps; s++)
        p = p->next;
    return p;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1024, steps = argc > 2 ? atol(argv[2]) : 10000;
    if (n < 2 || steps < 1)
        return 1;
    node *a = aligned_alloc(64, (size_t)n * sizeof *a);
    long *perm = malloc((size_t)n * sizeof *perm);
    if (!a || !perm)
        return 1;
    uint64_t x = CALIB_SEED;
    for (long i = 0; i < n; i++)
        perm[i] = i;
    for (long i = n - 1; i > 0; i--) { /* Sattolo: one cycle through every node */
        long j = (long)(calib_rand(&x) % (uint64_t)i), t = perm[i];
        perm[i] = perm[j], perm[j] = t;
    }
    for (long i = 0; i < n; i++)
        a[perm[i]].next = &a[perm[(i + 1) % n]];
    double t0 = calib_now();
    node *p = chase(&a[0], steps);
    calib_print((long)(p - a) % 2, t0, calib_now());
    return 0;
}
