/* trsv.c - lower triangular solve L x = b by forward substitution (double, n x n, row-major).
 *
 * Usage: trsv [n]   (dimension, default 8)
 *
 * x[i] = (b[i] - sum_{j<i} L[i][j] x[j]) / L[i][i]: n divisions, n(n-1)/2 multiplies and as many
 * subtractions (ISO C: GCC contracts nothing into fused multiply-adds). Every x[j] is loaded again
 * by each later row, so a row's chain of subtractions depends on every earlier row's division.
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa)) void kernel(int n, const double *restrict L, const double *restrict b,
                                             double *restrict x)
{
    for (int i = 0; i < n; ++i) {
        double s = b[i];
        for (int j = 0; j < i; ++j)
            s -= L[i * n + j] * x[j];
        x[i] = s / L[i * n + i];
    }
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 8;
    if (n < 1 || n > 4096) {
        fprintf(stderr, "usage: %s [n]  (1 <= n <= 4096)\n", argv[0]);
        return 1;
    }
    size_t nn = (size_t)n * (size_t)n;
    double *L = malloc(nn * sizeof *L);
    double *b = malloc((size_t)n * sizeof *b);
    double *x = malloc((size_t)n * sizeof *x);
    if (!L || !b || !x) {
        perror("malloc");
        return 1;
    }
    for (long i = 0; i < n; ++i) {
        for (long j = 0; j < n; ++j)
            L[i * n + j] = j < i ? 0.25 / (double)(i + j + 1) : j == i ? 2.0 + (double)(i % 3) : 0.0;
        b[i] = (double)(i % 7) - 3.0;
        x[i] = 0.0;
    }
    kernel((int)n, L, b, x);
    double cs = 0.0;
    for (long i = 0; i < n; ++i)
        cs += x[i] * (double)(i % 5 + 1);
    printf("trsv n=%ld checksum=%.6f\n", n, cs);
    free(L);
    free(b);
    free(x);
    return 0;
}
