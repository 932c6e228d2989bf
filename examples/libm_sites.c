/* libm_sites.c - libm's exp called from three call sites in two functions.
 *
 * Usage: libm_sites [n]   (elements, default 16)
 *
 * kernel calls first(), which calls exp once per element (n calls), and second(), which calls it
 * twice per element (2n calls). Every argument is in (0, 1), so every call runs the same
 * instructions of exp: a third of what exp executes is first's, two thirds second's. The
 * projection (--projection, docs/projection.md) charges what a libm call runs to its call site.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa)) double first(const double *x, long n)
{
    double s = 0.0;
    for (long i = 0; i < n; ++i)
        s += exp(x[i]);
    return s;
}

__attribute__((noinline, noipa)) double second(const double *x, long n)
{
    double s = 0.0;
    for (long i = 0; i < n; ++i)
        s += exp(x[i]) * exp(0.5 * x[i]);
    return s;
}

__attribute__((noinline, noipa)) double kernel(const double *x, long n)
{
    return first(x, n) + second(x, n);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 16;
    if (n < 1 || n > (1L << 24)) {
        fprintf(stderr, "usage: %s [n]  (1 <= n <= 2^24)\n", argv[0]);
        return 1;
    }
    double *x = malloc((size_t)n * sizeof *x);
    if (!x) {
        perror("malloc");
        return 1;
    }
    for (long i = 0; i < n; ++i)
        x[i] = (double)(i % 97 + 1) / 98.0;
    printf("libm_sites n=%ld checksum=%.6f\n", n, kernel(x, n));
    free(x);
    return 0;
}
