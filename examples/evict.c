/* evict.c - a kernel called in a loop, with a pass between calls that evicts its data.
 *
 * Usage: evict [calls] [kib]   (calls of the kernel, default 8; KiB of the evicting buffer, default 1024)
 *
 * kernel() sums a 32 KiB array: a load per 8-byte element, 512 lines. Before each call, evict()
 * reads and writes every line of a buffer larger than the caches, so on a machine each call finds
 * the array in memory. A filtered region (--filter=kernel) starts warm by default: its caches
 * followed the whole program and see those misses, as the kernel's row of a whole-program run
 * does. With --cold its caches see the kernel alone and find the array cached from the second
 * call on (docs/model.md).
 */
#include <stdio.h>
#include <stdlib.h>

#define N 4096

static double a[N];
static double *big;
double sink;

__attribute__((noinline, noipa)) double kernel(const double *x, long n)
{
    double s = 0.0;
    for (long i = 0; i < n; ++i)
        s += x[i];
    return s;
}

__attribute__((noinline, noipa)) void evict(double *b, long n)
{
    for (long i = 0; i < n; i += 8)
        b[i] += 1.0;
}

int main(int argc, char **argv)
{
    const long calls = argc > 1 ? strtol(argv[1], NULL, 10) : 8;
    const long kib = argc > 2 ? strtol(argv[2], NULL, 10) : 1024;
    if (calls < 1 || calls > 1000000 || kib < 1 || kib > (1L << 20)) {
        fprintf(stderr, "usage: %s [calls] [kib]  (1 <= calls <= 1000000, 1 <= kib <= 1048576)\n", argv[0]);
        return 2;
    }
    const long words = kib * 1024 / (long)sizeof(double);
    big = calloc((size_t)words, sizeof *big);
    if (!big)
        return 1;
    for (long i = 0; i < N; ++i)
        a[i] = (double)(i % 7);
    double s = 0.0;
    for (long c = 0; c < calls; ++c) {
        evict(big, words);
        s += kernel(a, N);
    }
    sink = s;
    printf("%.1f\n", s);
    free(big);
    return 0;
}
