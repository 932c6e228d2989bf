/* norms.c - Euclidean norms of n 3-vectors, r[i] = sqrt(x^2 + y^2 + z^2), with fused multiply-adds.
 *
 * Usage: norms [n]   (vectors, default 16)
 *
 * Per vector: one multiply (z*z), two fused multiply-adds written as fma() and one square root
 * (fsqrt.d: the arguments are never negative, so libm's sqrt, GCC's fallback for errno, is never
 * called). Streaming: 3 loads and one store per vector.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa)) void kernel(int n, const double *restrict v, double *restrict r)
{
    for (int i = 0; i < n; ++i) {
        const double x = v[3 * i], y = v[3 * i + 1], z = v[3 * i + 2];
        r[i] = sqrt(fma(x, x, fma(y, y, z * z)));
    }
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 16;
    if (n < 1 || n > 10000000) {
        fprintf(stderr, "usage: %s [n]  (1 <= n <= 10000000)\n", argv[0]);
        return 1;
    }
    double *v = malloc(3 * (size_t)n * sizeof *v);
    double *r = malloc((size_t)n * sizeof *r);
    if (!v || !r) {
        perror("malloc");
        return 1;
    }
    for (long i = 0; i < 3 * n; ++i)
        v[i] = (double)(i % 13) * 0.5 - 3.0;
    kernel((int)n, v, r);
    double cs = 0.0;
    for (long i = 0; i < n; ++i)
        cs += r[i] * (double)(i % 3 + 1);
    printf("norms n=%ld checksum=%.6f\n", n, cs);
    free(v);
    free(r);
    return 0;
}
