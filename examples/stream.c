/* stream.c - STREAM triad a[i] = b[i] + s * c[i].
 *
 * Usage: stream [n]   (vector length, default 16)
 *
 * Data-oblivious: 2n independent loads and n stores; memory depth D is
 * constant (load -> fma -> store) regardless of n.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa)) void kernel(double *restrict a, const double *restrict b, const double *restrict c,
                                             double s, long n)
{
    for (long i = 0; i < n; ++i)
        a[i] = b[i] + s * c[i];
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 16;
    if (n < 1 || n > (1L << 26)) {
        fprintf(stderr, "usage: %s [n]  (1 <= n <= 2^26)\n", argv[0]);
        return 1;
    }
    double *a = malloc((size_t)n * sizeof *a);
    double *b = malloc((size_t)n * sizeof *b);
    double *c = malloc((size_t)n * sizeof *c);
    if (!a || !b || !c) {
        perror("malloc");
        return 1;
    }
    for (long i = 0; i < n; ++i) {
        a[i] = 0.0;
        b[i] = (double)(i % 13) + 1.0;
        c[i] = (double)(i % 7) * 0.5;
    }
    kernel(a, b, c, 3.0, n);
    double cs = 0.0;
    for (long i = 0; i < n; ++i)
        cs += a[i];
    printf("stream n=%ld checksum=%.6f\n", n, cs);
    free(a);
    free(b);
    free(c);
    return 0;
}
